"""A damaged (corrupt) database under `arena serve`: one line in the server's log, no thread's
traceback, and pages that say the database is damaged, not "try again shortly" (outside
review)."""

from __future__ import annotations

import logging
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.errors import DamagedDatabaseError
from arena.storage.read_only import ReadOnlyDatabase
from arena.web.app import create_app
from arena.web.boards import BoardCache
from tests.web.conftest import altered_copy


def _damaged(arena_db: Path, tmp_path: Path) -> Path:
    """A copy whose ``seat`` table's root page is overwritten with garbage."""
    db = altered_copy(arena_db, tmp_path / "damaged.db")
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        [root] = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'seat'"
        ).fetchone()
    with db.open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xa5" * page_size)
    return db


def test_a_damaged_database_is_told_apart_and_logged_in_one_line(
    arena_db: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch
):
    db = _damaged(arena_db, tmp_path)
    uncaught: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: uncaught.append(args.exc_value))
    with caplog.at_level(logging.WARNING):
        BoardCache(ReadOnlyDatabase(db, public=True)).warm_up().join(timeout=60)
    assert uncaught == []
    assert any("malformed" in record.getMessage() for record in caplog.records)
    with pytest.raises(DamagedDatabaseError):
        ReadOnlyDatabase(db).game(1)  # its seats are on the damaged page

    client = TestClient(create_app(db, warm_up=False, frames_dir=tmp_path / "frames"))
    response = client.get("/api/leaderboard")
    assert response.status_code == 500
    assert response.json() == {
        "error": "the arena's database is damaged: its operator has to restore it"
    }
    assert str(tmp_path) not in client.get("/leaderboard").text


def test_a_game_whose_stored_json_does_not_parse_is_a_damaged_database(
    arena_db: Path, tmp_path: Path
):
    """A game's action log that is not JSON: `arena replay` printed a traceback, and the game's
    pages a bare 500 (its list "try again shortly") (outside review)."""
    db = altered_copy(arena_db, tmp_path / "bad-json.db")
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE game SET actions = '[1,2' WHERE id = 1")
    with pytest.raises(DamagedDatabaseError, match="a stored record is damaged"):
        ReadOnlyDatabase(db).game(1)
    client = TestClient(
        create_app(db, warm_up=False, frames_dir=tmp_path / "frames"), raise_server_exceptions=False
    )
    for path in (
        "/api/games/1",
        "/api/games/1/record.json",
        "/api/games/1/moves.txt",
        "/api/games",
    ):
        response = client.get(path)
        assert response.status_code == 500, path
        assert response.json() == {
            "error": "the arena's database is damaged: its operator has to restore it"
        }, path
    assert "damaged" in client.get("/games/1").text
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from arena.cli import main; main()",
            "replay",
            "1",
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 4 and done.stdout == "", done.stderr
    assert (
        done.stderr == f"error: {db}: a stored record is damaged: its JSON does not parse "
        "(Expecting ',' delimiter: line 1 column 5 (char 4))\n"
    )
