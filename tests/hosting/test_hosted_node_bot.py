"""A Node bot as ``arena new-bot --lang node`` writes it, uploaded with ``arena submit --to`` and
handled by a real ``arena submissions work`` in the sandbox, becomes a version and plays (an
upload carries no ``node_modules``: the worker links the arena's Node SDK in, as a local checkout
has it; outside review: every hosted Node bot failed with "Cannot find module")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arena.bot_tree import link_node_sdk
from arena.storage.target import DatabaseTarget
from tests.hosting.test_hosted_end_to_end import get, run, serving

pytestmark = pytest.mark.slow


@pytest.mark.skipif(shutil.which("npm") is None, reason="no npm")
def test_a_node_starter_is_hosted_as_it_is(tmp_path: Path, db_target: DatabaseTarget):
    host, home = tmp_path / "host", tmp_path / "bob"
    host.mkdir()
    home.mkdir()
    db = str(db_target)
    token = run("authors", "add", "bob", "--db", db, cwd=host).stdout.strip()
    (home / "token").write_text(token + "\n")
    run("new-bot", "bobs-node", "--lang", "node", cwd=home)
    with serving(host, db) as served:
        run("submit", "--to", served, "--token-file", "token", "bobs-node", cwd=home)
        run("submissions", "work", "--once", "--db", db, "--move-time", "5", cwd=host)
        status = run("submit", "--to", served, "--token-file", "token", "--status", cwd=home)
        assert "active" in status.stdout and "failed" not in status.stdout, status.stdout
        run("ladder", "--game", "oregon", "--db", db, "--until", "2", "--move-time", "5",
            "--bots", f"bobs-node,{Path(__file__).parents[2] / 'sample_bots' / 'random-python'}",
            cwd=host)  # fmt: skip
        code, body = get(f"{served}/api/games?bot=bobs-node")
    games = json.loads(body)["games"]
    assert code == 200 and len(games) == 2
    assert all(seat["outcome"] == "FINISHED" for game in games for seat in game["seats"])


def test_only_a_package_that_depends_on_the_sdk_gets_the_link(tmp_path: Path):
    def package(name: str, text: str | None) -> Path:
        directory = tmp_path / name
        directory.mkdir()
        if text is not None:
            (directory / "package.json").write_text(text)
        return directory

    node = package("node", json.dumps({"dependencies": {"arena-bot-sdk": "file:../x"}}))
    assert link_node_sdk(node)
    assert (node / "node_modules" / "arena-bot-sdk" / "package.json").is_file()
    assert not link_node_sdk(node)  # there already
    for name, text in [
        ("python", None),
        ("other", json.dumps({"dependencies": {"left-pad": "1"}})),
        ("garbage", "{not json"),
        ("list", "[1, 2]"),
        ("deps-list", json.dumps({"dependencies": ["arena-bot-sdk"]})),
        # nested past Python's recursion limit: a RecursionError traceback in the worker, and
        # "the arena failed on this upload" for the author (outside review)
        ("deep", "[" * 200_000 + "]" * 200_000),
    ]:
        assert not link_node_sdk(package(name, text)), name
        assert not (tmp_path / name / "node_modules").exists(), name
    blocked = package("blocked", json.dumps({"dependencies": {"arena-bot-sdk": "*"}}))
    (blocked / "node_modules").write_text("a file")
    assert not link_node_sdk(blocked)
