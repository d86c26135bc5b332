"""A damaged (corrupt) database under `arena serve`: one line in the server's log, no thread's
traceback, and pages that say the database is damaged, not "try again shortly" (outside
review)."""

from __future__ import annotations

import logging
import sqlite3
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
