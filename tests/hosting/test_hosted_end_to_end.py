"""A hosted arena from end to end, every part a real process as an operator and two authors run
them: ``arena serve``; authors alice and bob added on the host; each submits a bot from their own
directory with ``arena submit --to URL --token-file F``; ``arena submissions work`` builds and
validates both in the sandbox; ``arena submit --status`` says active; ``arena ladder`` plays
them (keeping the bots' logs, as a hosted ladder does); each author downloads their own bot's log
of a game, with their marker in it, and gets the 404 of a missing game for the other's."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.sandbox import bwrap_problem
from arena.storage.target import DatabaseTarget
from tests.support.bots import SAMPLE_BOTS
from tests.web.conftest import free_port

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(bwrap_problem() is not None, reason=f"no sandbox: {bwrap_problem()}"),
]

ARENA = str(Path(sys.executable).parent / "arena")
AUTHORS = ("alice", "bob")
# The random sample bot, saying its author's marker on stderr in every game it plays.
BOT_PY = """import sys

import arena_sdk as sdk

rng = sdk.seeded_random()


def start(request):
    print("{marker} in game", request.game_id, file=sys.stderr, flush=True)


if __name__ == "__main__":
    sdk.run(lambda request: rng.randrange(len(request.legal_actions)), on_start=start)
"""


def run(*arguments: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if key != "ARENA_TOKEN"}
    done = subprocess.run(
        [ARENA, *arguments],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, f"arena {' '.join(arguments)}:\n{done.stdout}\n{done.stderr}"
    return done


def get(url: str, token: str | None = None) -> tuple[int, bytes]:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@contextmanager
def serving(host: Path, db: str) -> Iterator[str]:
    """``arena serve`` over the host's database, until the block ends; its URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [ARENA, "serve", "--db", db, "--port", str(port)],
        cwd=host,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while not answers(f"{url}/api/leaderboard"):
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            assert time.monotonic() < deadline, "arena serve did not answer"
            time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def answers(url: str) -> bool:
    try:
        return get(url)[0] == 200
    except urllib.error.URLError:
        return False


def author_with_bot(tmp_path: Path, author: str, token: str) -> tuple[Path, str]:
    """The author's own directory: the token's file and a bot (named after the author) that
    prints a marker of its own; the directory and the marker."""
    home = tmp_path / author
    bot = home / f"{author}s-bot"
    bot.mkdir(parents=True)
    (home / "token").write_text(token + "\n")
    marker = f"{author.upper()}-{secrets.token_hex(6)}"
    shutil.copy(SAMPLE_BOTS / "random-python" / "bot.toml", bot / "bot.toml")
    manifest = (bot / "bot.toml").read_text().replace("random-python", f"{author}s-bot")
    (bot / "bot.toml").write_text(manifest.replace('["*"]', '["oregon"]'))  # validated in one
    (bot / "bot.py").write_text(BOT_PY.replace("{marker}", marker))
    return home, marker


def test_two_authors_submit_play_on_the_ladder_and_each_downloads_only_their_own_log(
    tmp_path: Path, db_target: DatabaseTarget
):
    host = tmp_path / "host"
    host.mkdir()
    db = str(db_target)
    # The operator adds the authors (the first creates the database) and gives each a token.
    tokens = {}
    for author in AUTHORS:
        tokens[author] = run("authors", "add", author, "--db", db, cwd=host).stdout.strip()
    with serving(host, db) as served:
        played_and_downloaded(tmp_path, host, db, served, tokens)


def played_and_downloaded(
    tmp_path: Path, host: Path, db: str, served: str, tokens: dict[str, str]
) -> None:
    homes, markers = {}, {}
    for author in AUTHORS:
        homes[author], markers[author] = author_with_bot(tmp_path, author, tokens[author])
        run("submit", "--to", served, "--token-file", "token", f"{author}s-bot", cwd=homes[author])

    run("submissions", "work", "--once", "--db", db, "--move-time", "5", cwd=host)
    for author in AUTHORS:
        status = run(
            "submit", "--to", served, "--token-file", "token", "--status", cwd=homes[author]
        )
        assert "active" in status.stdout and "failed" not in status.stdout, status.stdout

    ladder = ("ladder", "--game", "oregon", "--db", db, "--until", "2")
    run(*ladder, "--sandbox", "bwrap", "--move-time", "5", cwd=host)

    status, body = get(f"{served}/api/games?bot=alices-bot")
    games = json.loads(body)["games"]
    assert status == 200 and len(games) == 2
    for game in games:
        for seat, bot in enumerate(s["bot"] for s in game["seats"]):
            owner = bot.removesuffix("s-bot")
            other = next(author for author in AUTHORS if author != owner)
            url = f"{served}/me/games/{game['id']}/seats/{seat}/log"
            status, log = get(url, tokens[owner])
            assert status == 200 and markers[owner].encode() in log, log
            assert markers[other].encode() not in log
            status, refused = get(url, tokens[other])
            assert status == 404 and markers[owner].encode() not in refused
            assert get(url)[0] == 404  # no token at all
