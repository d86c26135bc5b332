"""``arena match`` stores its game (unless --no-store) with each decision's time and comment,
and names the game's page when a web arena serves it."""

from __future__ import annotations

import json
import sqlite3

from arena.match_storage import url_if_served
from arena.records import MatchRecord, Outcome, SeatRecord
from tests.tournament.helpers import SAMPLE_BOTS
from tests.web.conftest import ServerThread, run_arena

BOT = str(SAMPLE_BOTS / "random-python")


def test_a_match_is_stored_with_its_decision_details(tmp_path):
    db = tmp_path / "arena.db"
    done = run_arena("match", "--db", str(db), "--game", "oregon", BOT, BOT)
    assert done.returncode == 0, done.stderr
    assert f"stored as game 1 in {db}" in done.stdout
    with sqlite3.connect(db) as raw:
        actions, seconds, comments, tournament = raw.execute(
            "SELECT json(actions), json(decision_seconds), json(comments), tournament_id FROM game"
        ).fetchone()
    actions, seconds, comments = json.loads(actions), json.loads(seconds), json.loads(comments)
    assert len(seconds) == len(comments) == len(actions) > 0
    assert all(0 <= s < 2 for s in seconds) and tournament is None
    with ServerThread(db) as server:
        record = MatchRecord(
            "oregon",
            "",
            {},
            0,
            2,
            [],
            [
                SeatRecord(seat, "random-python", 0, 1, Outcome.FINISHED, "", 0, 0)
                for seat in (0, 1)
            ],
            False,
            "",
            0,
        )
        assert url_if_served(1, record, server.url) == f"{server.url}/games/1"
        assert url_if_served(2, record, server.url) is None  # no such game there
        record.game = "merkator"
        assert url_if_served(1, record, server.url) is None  # another database's game 1


def test_no_store_leaves_the_database_alone(tmp_path):
    db = tmp_path / "arena.db"
    done = run_arena("match", "--db", str(db), "--game", "oregon", BOT, BOT, "--no-store")
    assert done.returncode == 0, done.stderr
    assert "stored" not in done.stdout and not db.exists()
