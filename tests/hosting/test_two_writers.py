"""A ladder and the web writing one database at once (issue 29: "SQLite must hold a ladder and
a web server writing at once"): ``arena ladder`` plays games in its own process while ``arena
serve``, in another, signs authors in (a session row each), takes their uploads (a submission
row each) and serves pages. Nothing may fail with "database is locked", nothing may be lost: every
game, session and upload is there at the end, and the ratings equal their replay. On SQLite and
on PostgreSQL."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.storage.target import DatabaseTarget
from arena.uploads.pack import pack
from tests.hosting.test_upload_api import Arena, bot_dir
from tests.hosting.test_web_sign_in import Browser
from tests.support.ports import free_port
from tests.tournament.helpers import query, start_cli
from tests.tournament.test_ladder import check_consistent, random_bots, start_ladder, submit

pytestmark = pytest.mark.slow  # real ladder and web processes

GAMES = 16
UPLOADS = 3  # each author's: as many as may wait at once (MAX_WAITING)
SIGN_INS = 10  # each author's, spread over the ladder's run: fewer than the rate limit allows
PACE_SECONDS = 0.5


@dataclass(frozen=True)
class Address:
    port: int  # what Browser needs of a server


def wait_until_serving(port: int, server) -> None:
    deadline = time.monotonic() + 60
    while True:
        assert server.poll() is None, server.communicate()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/bots", timeout=5):
                return
        except OSError:
            assert time.monotonic() < deadline, "arena serve did not start"
            time.sleep(0.1)


def test_a_ladder_and_the_web_write_at_once_and_lose_nothing(
    tmp_path: Path, db_target: DatabaseTarget
):
    arena = Arena(tmp_path, db_target)  # authors alice and bob, with tokens
    for bot in random_bots(tmp_path, 3):
        submit(db_target, bot)
    archives = tmp_path / "uploads"
    archives.mkdir()
    port = free_port()
    server = start_cli(
        "serve", "--db", str(db_target), "--port", str(port), "--frames-dir", str(tmp_path / "f")
    )
    ladder = None
    try:
        wait_until_serving(port, server)
        ladder = start_ladder(db_target, "--until", str(GAMES), "--concurrency", "2", "--json")
        sign_ins = sign_outs = 0
        uploaded: list[str] = []
        answers: list[tuple[str, int]] = []
        while ladder.poll() is None or sign_ins < 2 * SIGN_INS:
            for author in ("alice", "bob"):
                visitor = Browser(Address(port))  # type: ignore[arg-type]  # has the port
                if sign_ins < 2 * SIGN_INS:
                    status, html, _ = visitor.sign_in(arena.tokens[author])
                    answers.append(("sign in", status))
                    sign_ins += status == 303
                mine = [name for name in uploaded if name.startswith(author)]
                if "arena_session" in visitor.cookies and len(mine) < UPLOADS:
                    name = f"{author}-bot-{len(mine)}"
                    fields = {"csrf": visitor.form_csrf("/me"), "bot": name}
                    status, html, headers = visitor.upload(fields, pack(bot_dir(archives, name)))
                    answers.append((f"upload {name}", status))
                    if status == 303 and re.fullmatch(r"/me/submissions/\d+", headers["location"]):
                        uploaded.append(name)
                for path in ("/leaderboard", "/games", "/api/games", "/me", "/bots/r0"):
                    answers.append((path, visitor.get(path)[0]))
                if (
                    "arena_session" in visitor.cookies and sign_ins % 2
                ):  # a sign-out deletes its session
                    status, _, _ = visitor.post("/signout", {"csrf": visitor.form_csrf("/me")})
                    answers.append(("sign out", status))
                    sign_outs += status == 303
            time.sleep(PACE_SECONDS)
        out, err = ladder.communicate(timeout=300)
    finally:
        for process in (ladder, server):
            if process is not None and process.poll() is None:
                process.terminate()
        served_out, served_err = server.communicate(timeout=60)
    assert ladder.returncode == 0, out + err
    assert json.loads(out)["games"] == GAMES
    for output in (err, served_out, served_err):
        assert "locked" not in output and "Traceback" not in output, output
    assert [answer for answer in answers if answer[1] not in (200, 303)] == []
    # nothing lost: every game, session and upload of the other writer is there
    assert query(db_target, "SELECT count(*) FROM game WHERE status = 'finished'") == [(GAMES,)]
    assert query(db_target, "SELECT count(*) FROM web_session") == [(sign_ins - sign_outs,)]
    assert sorted(name for (name,) in query(db_target, "SELECT bot_name FROM submission")) == (
        sorted(uploaded)
    )
    assert len(uploaded) == 2 * UPLOADS
    check_consistent(db_target)
