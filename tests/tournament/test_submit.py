"""``arena submit``: versions follow the content of the bot directory; remote bots by address."""

import os
import subprocess
import sys
from concurrent import futures
from pathlib import Path

import grpc
import pytest

from arena.bot.v1 import bot_pb2
from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli, start_remote_bot


def test_changed_code_is_a_new_version_and_unchanged_code_is_not(tmp_path: Path):
    db = tmp_path / "arena.db"
    bot = renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "bot", "evolving")
    first = run_cli("submit", str(bot), "--db", str(db))
    assert first.exit_code == 0 and "registered" in first.stdout
    again = run_cli("submit", str(bot), "--db", str(db))
    assert again.exit_code == 0 and "already registered" in again.stdout
    (bot / "bot.py").write_text((bot / "bot.py").read_text() + "\n# a better idea\n")
    changed = run_cli("submit", str(bot), "--db", str(db))
    assert changed.exit_code == 0 and "already" not in changed.stdout
    hashes = query(
        db,
        "SELECT v.content_hash FROM bot_version v JOIN bot b ON b.id = v.bot_id "
        "WHERE b.name = 'evolving' ORDER BY v.id",
    )
    assert len(hashes) == 2 and hashes[0] != hashes[1]
    listing = run_cli("bots", "--db", str(db))
    assert listing.exit_code == 0 and listing.stdout.count("evolving") == 2


@pytest.mark.slow
def test_a_bot_running_elsewhere_is_registered_by_address(tmp_path: Path):
    bot, port = start_remote_bot(token=None)
    try:
        db = tmp_path / "arena.db"
        misnamed = run_cli(
            "submit", "--address", f"127.0.0.1:{port}", "--name", "far", "--db", str(db)
        )
        assert misnamed.exit_code == 2
        assert "handshake: name 'random-python', expected 'far'" in misnamed.stderr
        result = run_cli(
            "submit", "--address", f"127.0.0.1:{port}", "--name", "random-python", "--db", str(db)
        )
        assert result.exit_code == 0, result.stderr
        [(address, games)] = query(db, "SELECT address, games FROM bot_version")
        assert address == f"127.0.0.1:{port}"
        assert "oregon" in games
    finally:
        bot.kill()
        bot.wait()


@pytest.mark.slow
def test_a_remote_bot_gets_the_token_the_arena_is_configured_with(tmp_path: Path, monkeypatch):
    bot, port = start_remote_bot(token="shared-secret")
    try:
        args = (
            "submit",
            "--address",
            f"127.0.0.1:{port}",
            "--name",
            "random-python",
            "--db",
            str(tmp_path / "arena.db"),
        )
        monkeypatch.delenv("ARENA_REMOTE_BOT_TOKEN", raising=False)
        refused = run_cli(*args)
        assert refused.exit_code == 2 and "UNAUTHENTICATED" in refused.stderr
        monkeypatch.setenv("ARENA_REMOTE_BOT_TOKEN", "shared-secret")
        accepted = run_cli(*args)
        assert accepted.exit_code == 0, accepted.stderr
    finally:
        bot.kill()
        bot.wait()


def _serve_handshake(reply: bot_pb2.HandshakeReply) -> tuple[grpc.Server, int]:
    """A remote bot in this process that answers the handshake with ``reply``."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=1))
    handshake = grpc.unary_unary_rpc_method_handler(
        lambda request, context: reply,
        request_deserializer=bot_pb2.HandshakeRequest.FromString,
        response_serializer=bot_pb2.HandshakeReply.SerializeToString,
    )
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler("arena.bot.v1.Bot", {"Handshake": handshake})]
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def test_a_remote_bot_is_refused_a_name_or_version_that_tables_could_not_show(tmp_path: Path):
    """The --name and the version the bot's handshake gives are stored and printed (``arena
    bots``, leaderboards): checked as a bot.toml's are."""
    db = str(tmp_path / "arena.db")
    bad_name = run_cli("submit", "--address", "127.0.0.1:1", "--name", "a,b", "--db", db)
    assert bad_name.exit_code == 2
    assert bad_name.stderr.startswith("error: --name: bot name 'a,b'")
    server, port = _serve_handshake(
        bot_pb2.HandshakeReply(
            name="far",
            version="1\x1b[2J" + "9" * 1000,
            protocol_version=bot_pb2.PROTOCOL_VERSION_1,
            games=["oregon"],
        )
    )
    try:
        bad_version = run_cli(
            "submit", "--address", f"127.0.0.1:{port}", "--name", "far", "--db", db
        )
    finally:
        server.stop(grace=None)
    assert bad_version.exit_code == 2
    assert f"127.0.0.1:{port}: handshake: bot version '1\\x1b[2J999" in bad_version.stderr
    assert len(bad_version.stderr.splitlines()) == 1
    assert not (tmp_path / "arena.db").exists() or not query(
        tmp_path / "arena.db", "SELECT id FROM bot_version"
    )


def test_code_in_a_linked_public_directory_is_part_of_the_version(tmp_path: Path, monkeypatch):
    # Links may lead into the arena's public code (the sample bots, the SDKs); here a stand-in
    from arena import bot_tree
    from arena.storage.bots import directory_hash

    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "strategy.py").write_text("X = 1\n")
    monkeypatch.setattr(bot_tree, "LINKABLE", (shared,))
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text("import strategy\n")
    (bot / "strategies").symlink_to(shared)
    before = directory_hash(bot)
    (shared / "strategy.py").write_text("X = 2\n")
    assert directory_hash(bot) != before


def test_a_link_out_of_the_directory_is_refused(tmp_path: Path):
    from arena.errors import ManifestError
    from arena.storage.bots import directory_hash

    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "strategies").symlink_to(tmp_path)
    with pytest.raises(ManifestError, match="strategies: links outside the bot's directory"):
        directory_hash(bot)


# Hashes a bot directory in a child process with 1 GiB of address space: before the fix, the
# link to /dev/zero read until the machine ran out of memory.
HASH_IN_A_BOX = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from pathlib import Path
from arena.storage.bots import directory_hash
print(directory_hash(Path(sys.argv[1])))
"""


def test_a_bot_directory_with_a_fifo_a_device_link_or_a_link_loop_is_hashed_at_once(
    tmp_path: Path,
):
    """Things a bot author can ship that are no files to read: a FIFO (reading it waited
    forever), links to the directory itself (walked in circles); and links out of it, to
    /dev/zero (reading it ate all memory) or an enclosing directory, now refused. `arena
    submit` must hash or refuse such a directory at once."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text("print('hi')\n")
    os.mkfifo(bot / "pipe")
    (bot / "self").symlink_to(".")
    (bot / "sub").mkdir()
    (bot / "sub" / "up").symlink_to("..")

    done = subprocess.run(
        [sys.executable, "-c", HASH_IN_A_BOX, str(bot)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip()) == 64

    for name, target in (("zeros", "/dev/zero"), ("out", tmp_path)):
        (bot / name).symlink_to(target)
        done = subprocess.run(
            [sys.executable, "-c", HASH_IN_A_BOX, str(bot)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode != 0 and "links outside the bot's directory" in done.stderr
        (bot / name).unlink()


@pytest.mark.parametrize(
    ("games", "said"),
    [
        ('["chess"]', "lists game(s) this arena does not have: 'chess' (it has oregon"),
        ('["oregon", "chess"]', "does not have: 'chess'"),
        ('[""]', "does not have: ''"),
    ],
)
def test_a_bot_that_plays_no_game_of_this_arena_is_not_registered(tmp_path: Path, games, said):
    bot = renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "bot", "lost")
    manifest = bot / "bot.toml"
    lines = manifest.read_text().splitlines()
    manifest.write_text(
        "\n".join(f"games = {games}" if line.startswith("games") else line for line in lines)
    )
    result = run_cli("submit", str(bot), "--db", str(tmp_path / "a.db"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {bot}: bot.toml lists"), result.stderr
    assert said in result.stderr and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "a.db").exists() or query(tmp_path / "a.db", "SELECT * FROM bot") == []
