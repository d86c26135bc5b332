"""``arena submit``: versions follow the content of the bot directory; remote bots by address."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli


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
    hashes = query(db, "SELECT v.content_hash FROM bot_version v JOIN bot b ON b.id = v.bot_id "
                       "WHERE b.name = 'evolving' ORDER BY v.id")
    assert len(hashes) == 2 and hashes[0] != hashes[1]
    listing = run_cli("bots", "--db", str(db))
    assert listing.exit_code == 0 and listing.stdout.count("evolving") == 2


@pytest.mark.slow
def test_a_bot_running_elsewhere_is_registered_by_address(tmp_path: Path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "ARENA_BOT_ADDRESS": f"127.0.0.1:{port}", "ARENA_BOT_SEED": "1"}
    env.pop("ARENA_BOT_TOKEN", None)
    bot = subprocess.Popen([sys.executable, "bot.py"], cwd=SAMPLE_BOTS / "random-python",
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        db = tmp_path / "arena.db"
        result = run_cli("submit", "--address", f"127.0.0.1:{port}", "--name", "far",
                         "--db", str(db))
        assert result.exit_code == 0, result.stderr
        [(address, games)] = query(db, "SELECT address, games FROM bot_version")
        assert address == f"127.0.0.1:{port}"
        assert "oregon" in games
    finally:
        bot.kill()
        bot.wait()


def test_code_in_a_linked_directory_is_part_of_the_version(tmp_path: Path):
    from arena.storage.bots import directory_hash

    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "strategy.py").write_text("X = 1\n")
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text("import strategy\n")
    (bot / "strategies").symlink_to(shared)
    before = directory_hash(bot)
    (shared / "strategy.py").write_text("X = 2\n")
    assert directory_hash(bot) != before
