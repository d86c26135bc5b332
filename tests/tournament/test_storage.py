import multiprocessing
import os
import random
import sqlite3
import stat
from pathlib import Path

import pytest
from sqlmodel import select

from arena.errors import DatabasePathError, InputError, StorageError
from arena.records import Outcome
from arena.storage import bots, migrations, tournaments
from arena.storage.database import open_database
from arena.storage.games import finished_game_results, recomputed_elo, record_game, stored_elo
from arena.storage.models import Bot, GameRecord, RatingHistory, SeatRecordRow
from arena.storage.target import DatabaseTarget, parse_target
from tests.support.schemas import as_schema_4
from tests.tournament.records import match_record, random_ranks, register_bots


def test_new_database_uses_wal_and_is_stamped(tmp_path: Path):
    path = tmp_path / "arena.db"
    open_database(path, create=True).close()
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert raw.execute("PRAGMA application_id").fetchone()[0] == migrations.APPLICATION_ID
        assert (
            raw.execute("SELECT version FROM schema_version").fetchone()[0]
            == migrations.CURRENT_VERSION
        )
    open_database(path, create=False).close()


def test_a_new_database_and_its_wal_are_its_owners_alone_whatever_the_umask(tmp_path: Path):
    """Another local user must not read the seeds of games in play (every hidden card) or the
    authors' logs: the file is made 0600, and SQLite gives its -wal and -shm the same mode."""
    path = tmp_path / "arena.db"
    before = os.umask(0o002)
    try:
        database = open_database(path, create=True)
        with database.write():  # the WAL and shared-memory files exist while it is open
            modes = {
                name: stat.S_IMODE(os.stat(tmp_path / name).st_mode)
                for name in ("arena.db", "arena.db-wal", "arena.db-shm")
            }
        database.close()
    finally:
        os.umask(before)
    assert modes == dict.fromkeys(modes, 0o600)


def test_write_transactions_take_the_write_lock_before_their_first_read(tmp_path: Path):
    database = open_database(tmp_path / "arena.db", create=True)
    other = sqlite3.connect(tmp_path / "arena.db", timeout=0, isolation_level=None)
    with database.write() as session:
        session.exec(select(Bot)).all()
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
    with database.read() as session:
        session.exec(select(Bot)).all()
        other.execute("BEGIN IMMEDIATE")  # reads do not lock writers out
        other.execute("ROLLBACK")
    database.close()


def test_missing_database_is_not_created_for_reading(tmp_path: Path):
    with pytest.raises(DatabasePathError, match="no arena database"):
        open_database(tmp_path / "arena.db", create=False)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"this is not a database at all" * 10, "not an SQLite database"),
        (b"SQLite format 3\x00" + bytes(range(256)) * 8, "unreadable database"),
    ],
)
def test_corrupt_file_is_reported_and_left_alone(tmp_path: Path, content: bytes, message: str):
    path = tmp_path / "arena.db"
    path.write_bytes(content)
    with pytest.raises(StorageError, match=message):
        open_database(path, create=True)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arena.db"]


def test_foreign_database_is_reported_and_left_alone(tmp_path: Path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    before = path.read_bytes()
    with pytest.raises(StorageError, match="another program"):
        open_database(path, create=True)
    assert path.read_bytes() == before


def test_newer_schema_is_refused(db_target: DatabaseTarget):
    database = open_database(db_target, create=True)
    with database.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE schema_version SET version = 99")
    database.close()
    with pytest.raises(StorageError, match="newer arena"):
        open_database(db_target, create=True)


@pytest.mark.parametrize("where", ["missing/arena.db", "afile/arena.db"])
def test_unwritable_path_is_reported(tmp_path: Path, where: str):
    (tmp_path / "afile").write_text("x")
    with pytest.raises(DatabasePathError, match="cannot create"):
        open_database(tmp_path / where, create=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_migration_upgrades_an_old_file_keeping_its_data(db_target: DatabaseTarget, monkeypatch):
    database = open_database(db_target, create=True)
    register_bots(database, ["keeper"])
    database.close()

    def add_note_column(connection) -> None:
        connection.exec_driver_sql("ALTER TABLE bot ADD COLUMN note TEXT DEFAULT 'migrated'")

    old = migrations.CURRENT_VERSION
    monkeypatch.setattr(migrations, "CURRENT_VERSION", old + 1)
    monkeypatch.setattr(migrations, "MIGRATIONS", {old: add_note_column})
    with pytest.raises(InputError, match="needs an upgrade"):
        open_database(db_target, create=False)
    database = open_database(db_target, create=True)
    with database.engine.connect() as raw:
        assert raw.exec_driver_sql("SELECT version FROM schema_version").scalar() == old + 1
        assert [tuple(row) for row in raw.exec_driver_sql("SELECT name, note FROM bot")] == [
            ("keeper", "migrated")
        ]
    database.close()


def test_schema_1_gains_decision_details_and_its_games_keep_none(tmp_path: Path):
    path = tmp_path / "arena.db"
    database = open_database(path, create=True)
    ids = register_bots(database, ["a", "b"])
    record_game(
        database, match_record([1, 2], [Outcome.FINISHED, Outcome.FINISHED]), ids, group_key="g"
    )
    database.close()
    with sqlite3.connect(path) as raw:  # turn it into a file as schema 1 wrote it
        as_schema_4(raw)
        raw.execute("ALTER TABLE game DROP COLUMN decision_seconds")
        raw.execute("ALTER TABLE game DROP COLUMN comments")
        raw.execute("ALTER TABLE game DROP COLUMN verification")  # schema 3's
        raw.execute("UPDATE schema_version SET version = 1")
    open_database(path, create=True).close()
    with sqlite3.connect(path) as raw:
        assert (
            raw.execute("SELECT version FROM schema_version").fetchone()[0]
            == migrations.CURRENT_VERSION
        )
        assert raw.execute("SELECT decision_seconds, comments FROM game").fetchall() == [
            (None, None)
        ]
        # no seal when stored: the games to come are sealed (schema 4)
        assert raw.execute("SELECT sealed_from_game FROM sealing").fetchall() == [(2,)]


def test_a_game_and_its_elo_updates_are_recorded_together(db_target: DatabaseTarget):
    database = open_database(db_target, create=True)
    ids = register_bots(database, ["a", "b", "c"])
    game_id = record_game(
        database,
        match_record([2, 1, 3], [Outcome.FINISHED, Outcome.FINISHED, Outcome.CRASH]),
        ids,
        group_key="t/0+1+2",
        tournament_id=None,
        schedule_key=None,
    )
    with database.read() as session:
        seats = session.exec(select(SeatRecordRow).where(SeatRecordRow.game_id == game_id)).all()
        assert [(s.bot_version_id, s.rank, s.outcome) for s in seats] == [
            (ids[0], 2, "FINISHED"),
            (ids[1], 1, "FINISHED"),
            (ids[2], 3, "CRASH"),
        ]
        history = session.exec(select(RatingHistory)).all()
        assert {h.bot_version_id: round(h.after - h.before, 4) for h in history} == {
            ids[0]: 0.0,
            ids[1]: 16.0,
            ids[2]: -16.0,
        }
        assert stored_elo(session, "oregon", 3) == recomputed_elo(session, "oregon", 3)
        [result] = finished_game_results(session, "oregon")
        assert result.seats[2].forfeit == "CRASH" and result.group_key == "t/0+1+2"
    database.close()


def test_stored_results_hold_one_string_per_bot_version(db_target: DatabaseTarget):
    # A ladder keeps every game's results in memory for as long as it runs
    database = open_database(db_target, create=True)
    ids = register_bots(database, ["a", "b", "c"])
    for ranks in ([1, 2, 3], [3, 2, 1]):
        record_game(database, match_record(ranks), ids, group_key="g")
    with database.read() as session:
        first, second = finished_game_results(session, "oregon")
    assert [seat.player for seat in first.seats] == [str(i) for i in ids]
    assert all(a.player is b.player for a, b in zip(first.seats, second.seats, strict=True))
    database.close()


def test_voided_games_are_kept_but_not_rated(db_target: DatabaseTarget):
    database = open_database(db_target, create=True)
    ids = register_bots(database, ["a", "b"])
    record_game(database, match_record([1, 2], voided=True), ids, group_key="p")
    with database.read() as session:
        assert session.exec(select(GameRecord.status)).all() == ["voided"]
        assert session.exec(select(RatingHistory)).all() == []
        assert finished_game_results(session, "oregon") == []
    database.close()


def test_a_scheduled_game_is_recorded_once(db_target: DatabaseTarget):
    database = open_database(db_target, create=True)
    ids = register_bots(database, ["a", "b"])
    with database.write() as session:
        entrants = bots.all_versions(session)
        tournament_id = tournaments.create(session, "t", "oregon", 1, {}, entrants).id
    first = record_game(
        database,
        match_record([1, 2]),
        ids,
        group_key="p",
        tournament_id=tournament_id,
        schedule_key="k",
    )
    again = record_game(
        database,
        match_record([2, 1]),
        ids,
        group_key="p",
        tournament_id=tournament_id,
        schedule_key="k",
    )
    assert first is not None and again is None
    with database.read() as session:
        assert len(session.exec(select(GameRecord)).all()) == 1
        assert len(session.exec(select(RatingHistory)).all()) == 2
    database.close()


def _write_games(target: str, ids: list[int], seed: int, count: int) -> None:
    database = open_database(parse_target(target), create=True)
    rng = random.Random(seed)
    for number in range(count):
        seats = rng.sample(ids, 3)
        record_game(
            database,
            match_record(random_ranks(rng, 3), seed=number),
            seats,
            group_key=f"{seed}/{number % 7}",
        )
    database.close()


@pytest.mark.slow
def test_two_processes_writing_at_once_lose_nothing(db_target: DatabaseTarget):
    database = open_database(db_target, create=True)
    ids = register_bots(database, ["a", "b", "c", "d"])
    database.close()
    spawn = multiprocessing.get_context("spawn")
    workers = [
        spawn.Process(target=_write_games, args=(str(db_target), ids, seed, 100)) for seed in (1, 2)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
        assert worker.exitcode == 0
    database = open_database(db_target, create=False)
    with database.read() as session:
        assert len(session.exec(select(GameRecord)).all()) == 200
        assert len(session.exec(select(RatingHistory)).all()) == 600
        stored, recomputed = stored_elo(session, "oregon", 3), recomputed_elo(session, "oregon", 3)
    assert stored == pytest.approx(recomputed, abs=1e-9)
    database.close()
