"""The tokens' rate limits, counted in the database (``arena.storage.rate_limits``): a sliding
window per token and limit, shared by every connection to the arena (each web process has its
own), with a table that stays bounded whatever a client sends. On SQLite and on PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import tokens
from arena.storage import authors, migrations
from arena.storage.database import Database, open_database
from arena.storage.rate_limits import RateLimit
from arena.storage.target import DatabaseTarget
from tests.support.schemas import as_schema_8


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def database(db_target: DatabaseTarget) -> Iterator[Database]:
    database = open_database(db_target, create=True)
    yield database
    database.close()


def public_id(database: Database, author: str) -> str:
    with database.write() as session:
        parsed = tokens.parse_token(authors.add(session, author))
    assert parsed is not None
    return parsed[0]


def rows(database: Database) -> list[tuple[str, float]]:
    with database.engine.connect() as connection:
        return [
            (name, expires)
            for name, expires in connection.exec_driver_sql(
                "SELECT rate_limit, expires_at FROM rate_event ORDER BY id"
            )
        ]


def test_a_sliding_window_per_token_and_limit(database: Database):
    clock = Clock()
    requests = RateLimit("request", 3, 60.0, clock)
    uploads = RateLimit("upload", 1, 60.0, clock)
    alice, bob = public_id(database, "alice"), public_id(database, "bob")
    waits = []
    for at in (0, 10, 20, 30, 59.5, 60, 65, 70):
        clock.now = 1_000_000.0 + at
        waits.append(requests.retry_after(database, alice))
    # the 4th waits until the 1st leaves the window (60 s after it), and so on
    assert waits == [None, None, None, 30.0, 0.5, None, 5.0, None]
    assert requests.retry_after(database, bob) is None  # bob's own window
    assert uploads.retry_after(database, alice) is None  # and each limit its own
    assert uploads.retry_after(database, alice) == 60.0


def test_connections_share_one_count(database: Database, db_target: DatabaseTarget):
    """Two databases opened on one target, as two web processes have: one count."""
    alice = public_id(database, "alice")
    other = open_database(db_target, create=False)
    try:
        uploads = RateLimit("upload", 5, 60.0)  # the database's clock
        answers = [uploads.retry_after((database, other)[n % 2], alice) for n in range(7)]
    finally:
        other.close()
    assert answers[:5] == [None] * 5
    assert all(wait is not None and 59 < wait <= 60 for wait in answers[5:]), answers


def test_racing_connections_take_the_last_places_once(
    database: Database, db_target: DatabaseTarget
):
    """Two connections (as two web processes) counting at once: the limit, exactly."""
    alice = public_id(database, "alice")
    uploads = RateLimit("upload", 5, 60.0)
    others = [open_database(db_target, create=False) for _ in range(2)]
    allowed: list[bool] = []
    start = threading.Barrier(len(others))

    def flood(other: Database) -> None:
        start.wait()
        for _ in range(8):
            allowed.append(uploads.retry_after(other, alice) is None)

    threads = [threading.Thread(target=flood, args=(other,)) for other in others]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    finally:
        for other in others:
            other.close()
    assert len(allowed) == 16 and allowed.count(True) == 5
    assert len(rows(database)) == 5


def test_the_table_stays_bounded(database: Database):
    clock = Clock()
    requests = RateLimit("request", 3, 60.0, clock)
    alice, bob = public_id(database, "alice"), public_id(database, "bob")
    for _ in range(20):  # refused past the limit: no row for those
        requests.retry_after(database, alice)
    assert len(rows(database)) == 3
    for guess in ("0123456789ab", "ffffffffffff", "not even hex"):  # no token has these ids
        assert requests.retry_after(database, guess) is None  # its check refuses it: no row
    assert len(rows(database)) == 3
    clock.now += 60  # alice's window passes: the next write purges her rows
    assert requests.retry_after(database, bob) is None
    assert rows(database) == [("request", clock.now + 60)]


def test_a_schema_8_file_gains_the_table(tmp_path: Path):
    path = tmp_path / "arena.db"
    open_database(path, create=True).close()
    with sqlite3.connect(path) as raw:
        as_schema_8(raw)
    database = open_database(path, create=True)
    try:
        assert RateLimit("request", 1, 60.0).retry_after(database, public_id(database, "a")) is None
        assert len(rows(database)) == 1
        with database.engine.connect() as connection:
            version = connection.exec_driver_sql("SELECT version FROM schema_version").scalar()
        assert version == migrations.CURRENT_VERSION
    finally:
        database.close()
