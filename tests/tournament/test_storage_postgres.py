"""What only a PostgreSQL database has to show (the rest of the storage tests run on both): the
write lock that stands for SQLite's BEGIN IMMEDIATE, read-only reading, the marker that tells an
arena database from another program's, and --db's URL on the command line."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import text
from sqlmodel import select

from arena.errors import DatabasePathError, StorageError
from arena.storage.database import open_database
from arena.storage.models import Bot
from arena.storage.postgres import WRITE_LOCK
from arena.storage.read_only import ReadOnlyDatabase
from arena.storage.target import PostgresUrl, parse_target
from arena.submissions.files import HostedFiles
from arena.web.frame_store import default_dir
from tests.cli.test_storage_exit_code import BAD_INPUT, STORAGE_FAULT, arena
from tests.support.ports import free_port
from tests.tournament.records import register_bots


def _plain(target: PostgresUrl) -> str:
    return str(target)  # no password in the tests' URLs: str() is the URL itself


def _lock_is_free(target: PostgresUrl) -> bool:
    """Whether another connection could take the write lock now (it takes and releases it)."""
    with psycopg.connect(_plain(target), autocommit=True) as other:
        row = other.execute("SELECT pg_try_advisory_lock(%s)", (WRITE_LOCK,)).fetchone()
        assert row is not None
        if row[0]:
            other.execute("SELECT pg_advisory_unlock(%s)", (WRITE_LOCK,))
        return bool(row[0])


def test_write_transactions_hold_the_write_lock_and_reads_do_not(postgres_db: PostgresUrl):
    database = open_database(postgres_db, create=True)
    assert _lock_is_free(postgres_db)
    with database.write() as session:
        session.exec(select(Bot)).all()
        assert not _lock_is_free(postgres_db)  # a second writer waits here
    assert _lock_is_free(postgres_db)  # released at COMMIT
    with database.read() as session:
        session.exec(select(Bot)).all()
        assert _lock_is_free(postgres_db)
    database.close()


def test_the_web_reader_does_not_take_the_write_lock(postgres_db: PostgresUrl):
    """Every page of the web waited for the writers (and for each other) on the write lock."""
    database = open_database(postgres_db, create=True)
    register_bots(database, ["kept"])
    database.close()
    reader = ReadOnlyDatabase(postgres_db)
    with reader.session() as session:
        assert len(session.exec(select(Bot)).all()) == 1
        assert _lock_is_free(postgres_db)
    assert [bot["name"] for bot in reader.bots()] == ["kept"]


def test_reading_connections_cannot_write(postgres_db: PostgresUrl):
    database = open_database(postgres_db, create=True)
    register_bots(database, ["kept"])
    with pytest.raises(StorageError, match="read-only transaction"):
        with database.read() as session:
            session.execute(text("DELETE FROM bot_version"))
    database.close()
    reader = ReadOnlyDatabase(postgres_db)
    with pytest.raises(StorageError, match="read-only transaction"):
        with reader.session() as session:
            session.execute(text("DELETE FROM bot_version"))
    assert [bot["name"] for bot in reader.bots()] == ["kept"]


def test_a_foreign_database_is_refused_and_left_alone(postgres_db: PostgresUrl):
    with psycopg.connect(_plain(postgres_db), autocommit=True) as raw:
        raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        raw.execute("CREATE TABLE schema_version (version INTEGER)")  # a name we use, too
    with pytest.raises(StorageError, match="another program"):
        open_database(postgres_db, create=True)
    with psycopg.connect(_plain(postgres_db)) as raw:
        tables = raw.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
        ).fetchall()
    assert tables == [("invoices",), ("schema_version",)]


def test_an_empty_database_is_not_made_for_reading(postgres_db: PostgresUrl):
    with pytest.raises(DatabasePathError, match="empty database"):
        open_database(postgres_db, create=False)
    with pytest.raises(DatabasePathError, match="empty database"):
        ReadOnlyDatabase(postgres_db)
    with psycopg.connect(_plain(postgres_db)) as raw:
        assert raw.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
        ).fetchone() == (0,)


def test_the_url_hides_its_password():
    target = parse_target("postgresql://arena:s3cret@db.example:5433/ladder")
    assert isinstance(target, PostgresUrl)
    assert "s3cret" not in str(target) and str(target).startswith("postgresql://arena:")
    assert target.slug == "db.example-5433-ladder"


@pytest.mark.parametrize(
    ("db", "message"),
    [
        ("mysql://arena@localhost/arena", "a file path or a postgresql://"),
        ("postgresql://arena@localhost", "names no database"),
        ("postgresql://arena@localhost:notaport/arena", "not a valid PostgreSQL URL"),
    ],
)
def test_a_bad_url_is_bad_input_in_one_line(db: str, message: str):
    done = arena("bots", "--db", db)
    assert done.returncode == BAD_INPUT, done.stderr
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_an_unreachable_server_is_a_storage_fault_in_one_line():
    url = f"postgresql://arena:s3cret@127.0.0.1:{free_port()}/arena"  # nobody listens there
    for command in (("bots",), ("history",)):  # a writer's open and the web's reader
        done = arena(*command, "--db", url)
        assert done.returncode == STORAGE_FAULT, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
        assert "connection" in done.stderr and "s3cret" not in done.stderr, done.stderr


def test_what_a_url_keeps_on_disk_goes_to_the_users_directories(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    target = parse_target("postgresql://arena@db.example:5433/ladder")
    assert default_dir(target) == tmp_path / "cache/arena/db.example-5433-ladder.frames"
    assert HostedFiles.beside(target).root == tmp_path / "data/arena/db.example-5433-ladder.hosted"
    # a file's stay beside it
    assert default_dir(tmp_path / "arena.db") == tmp_path / "arena.db.frames"
    assert HostedFiles.beside(tmp_path / "arena.db").root == tmp_path / "arena-hosted"
