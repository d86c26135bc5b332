"""Open the arena database: an SQLite file, or a PostgreSQL database (``arena.storage.postgres``,
which serialises writes the same way with an advisory lock).

Every write transaction starts with ``BEGIN IMMEDIATE`` (SQLAlchemy's SQLite recipe: the driver's
own transaction handling is switched off and we emit BEGIN ourselves). With the default deferred
BEGIN, concurrent writers from several processes silently lost rating updates; IMMEDIATE takes the
write lock before reading, so read-modify-write (Elo) is serialised. WAL with synchronous=NORMAL:
readers never block the writer, and a committed transaction survives a killed process.

A file is checked read-only before anything is written to it, so a corrupt or foreign file is
reported and left untouched.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import Session

from arena.errors import DamagedDatabaseError, DatabasePathError, InputError, StorageError
from arena.storage import migrations, postgres
from arena.storage.target import DatabaseTarget, PostgresUrl

DEFAULT_PATH = Path("arena.db")
_SQLITE_HEADER = b"SQLite format 3\x00"


def read_only_uri(path: Path) -> str:
    """The URI that opens the SQLite file ``path`` read-only. On a read-only filesystem (a
    snapshot, a read-only mount) also immutable: a database in WAL mode needs its ``-shm``
    index, which SQLite cannot create there, and nothing can write the file anyway."""
    uri = f"{path.resolve().as_uri()}?mode=ro"
    return uri + "&immutable=1" if on_read_only_filesystem(path) else uri


def on_read_only_filesystem(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


_BUSY_SECONDS = 60.0
_READ_ONLY_OPTION = postgres.READ_ONLY_OPTION  # read(): a deferred BEGIN (a READ ONLY one)


def _inspect(path: Path) -> int | None:
    """Schema version of an existing arena database, None for an empty file; raises StorageError
    for anything else. Opens the file read-only."""
    if not path.is_file():
        raise DatabasePathError(f"{path}: not a regular file")
    try:
        with path.open("rb") as handle:
            header = handle.read(len(_SQLITE_HEADER))
    except OSError as exc:
        raise StorageError(f"{path}: cannot read: {exc.strerror}") from None
    if not header:
        return None
    if header != _SQLITE_HEADER:
        raise StorageError(f"{path}: not an SQLite database (corrupt, or another kind of file)")
    try:
        connection = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            application_id = connection.execute("PRAGMA application_id").fetchone()[0]
            tables = {
                row[0]
                for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if not tables:
                return None
            if application_id != migrations.APPLICATION_ID or "schema_version" not in tables:
                raise StorageError(
                    f"{path}: an SQLite database of another program, not an arena database"
                )
            row = connection.execute("SELECT version FROM schema_version").fetchone()
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path}: unreadable database: {_sqlite_reason(path, exc)}") from None
    return migrations.known_version(path, None if row is None else row[0])


def _make_engine(path: Path) -> Engine:
    frozen = on_read_only_filesystem(path)  # read as it is (read_only_uri); a write then fails

    def connect() -> sqlite3.Connection:
        if frozen:
            return sqlite3.connect(
                read_only_uri(path), uri=True, timeout=_BUSY_SECONDS, check_same_thread=False
            )
        return sqlite3.connect(path, timeout=_BUSY_SECONDS, check_same_thread=False)

    engine = create_engine(f"sqlite:///{path}", creator=connect)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves, below
        cursor = dbapi_connection.cursor()
        if not frozen:
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        read_only = connection.get_execution_options().get(_READ_ONLY_OPTION, False)
        connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

    return engine


class Database:
    """An open arena database; ``write()`` and ``read()`` give sessions in one transaction."""

    def __init__(self, target: DatabaseTarget, engine: Engine) -> None:
        self.target = target
        self.engine = engine
        self._reader = engine.execution_options(**{_READ_ONLY_OPTION: True})

    @property
    def is_sqlite(self) -> bool:
        return isinstance(self.target, Path)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """One write transaction (BEGIN IMMEDIATE; on PostgreSQL the write lock): committed on
        success, rolled back on error."""
        with self._errors(), Session(self.engine, expire_on_commit=False) as session:
            with session.begin():
                yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._errors(), Session(self._reader, expire_on_commit=False) as session:
            with session.begin():
                yield session

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except IntegrityError:
            raise  # a constraint the caller relies on (e.g. a game recorded twice)
        except DBAPIError as exc:
            raise database_error(self.target, exc) from None
        except json.JSONDecodeError as exc:
            raise stored_json_error(self.target, exc) from None

    def close(self) -> None:
        self.engine.dispose()


_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26  # SQLite's primary result codes
_SQLITE_READONLY_DIRECTORY = 1544  # an extended one


def _sqlite_reason(path: Path, exc: BaseException | None) -> str:
    """SQLite's reason, except where its words mislead: a reader whose directory it may not
    write is told "attempt to write a readonly database" by a read."""
    if getattr(exc, "sqlite_errorcode", None) == _SQLITE_READONLY_DIRECTORY:
        return (
            f"cannot read it from here: in WAL mode SQLite must make {path.name}-shm beside it, "
            f"and you may not write in {path.parent} (read it as its owner, or a copy of it)"
        )
    return " ".join(str(exc).split())


def database_error(target: DatabaseTarget, exc: DBAPIError) -> StorageError:
    """The error for a failed statement: DamagedDatabaseError where SQLite found the file
    corrupt (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``) or a stored JSON column malformed, which no
    retry or resume mends."""
    reason = _sqlite_reason(target, exc.orig) if isinstance(target, Path) else None
    message = f"{target}: database error: {reason or postgres.one_line(exc)}"
    code = getattr(exc.orig, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return DamagedDatabaseError(message)
    if code is not None and "malformed JSON" in str(exc.orig):  # a stored column SQL reads
        return DamagedDatabaseError(message)
    return StorageError(message)


def stored_json_error(target: DatabaseTarget, exc: json.JSONDecodeError) -> StorageError:
    """The error for a stored JSON column (a game's actions) that does not parse as it is read:
    the database is damaged, and no retry mends it."""
    return DamagedDatabaseError(
        f"{target}: a stored record is damaged: its JSON does not parse ({exc})"
    )


def check_creatable(target: DatabaseTarget) -> None:
    """Fail early (before slow work) if a new database cannot be made at ``target`` (a server's
    database is made by its administrator: opening it says whether it can be used)."""
    if isinstance(target, Path) and not target.parent.is_dir():
        raise DatabasePathError(
            f"{target}: cannot create the database: {target.parent} is not an existing directory"
        )


def open_database(target: DatabaseTarget, *, create: bool) -> Database:
    """Open (and with ``create``, create or migrate) the arena database at ``target``.

    Without ``create`` a missing or empty database is an error, and nothing is written."""
    if isinstance(target, PostgresUrl):
        return _open_postgres(target, create=create)
    return _open_sqlite(target, create=create)


def _open_postgres(target: PostgresUrl, *, create: bool) -> Database:
    database = Database(target, postgres.make_engine(target))
    try:
        postgres.prepare(database.engine, target, create=create)
    except BaseException:
        database.close()
        raise
    return database


def _open_sqlite(path: Path, *, create: bool) -> Database:
    if path.exists():
        version = _inspect(path)
    elif not create:
        raise DatabasePathError(
            f"{path}: no arena database here (submit a bot or run a tournament "
            "first, or pass --db PATH)"
        )
    else:
        check_creatable(path)
        version = None
    if version is None and not create:
        raise DatabasePathError(f"{path}: empty database (submit a bot or run a tournament first)")
    if version is not None and version < migrations.CURRENT_VERSION and not create:
        # A sound file this command may not change: what to run instead is the user's move.
        raise InputError(
            f"{path}: schema {version} needs an upgrade; run a command that "
            "writes (arena submit, arena tournament) to migrate it"
        )
    created = _create_exclusively(path)  # of two processes creating it, one is the creator
    database = Database(path, _make_engine(path))
    try:
        if version == migrations.CURRENT_VERSION:
            with database.engine.connect():
                pass  # applies the connection settings, surfaces an unwritable file now
        else:
            # Under the write lock, look again: another process may have made or migrated the
            # schema since we looked. Processes making a schema take turns (two connections
            # switching one new file to WAL at the same instant can fail with "locked" or
            # "disk I/O error").
            with _schema_turn(path.parent), database.engine.begin() as connection:
                version = _version_in(connection)
                if version is None:
                    migrations.create_schema(connection)
                elif version < migrations.CURRENT_VERSION:
                    migrations.migrate(connection, version)
    except (DBAPIError, StorageError) as exc:
        database.close()
        if created:  # only the file this process made: never another process's database
            _remove_new_file(path)
        detail = exc.orig if isinstance(exc, DBAPIError) else exc
        raise StorageError(f"{path}: cannot open the database for writing: {detail}") from None
    return database


@contextmanager
def _schema_turn(directory: Path) -> Iterator[None]:
    """An exclusive lock on the database's directory (flock), held while a schema is made or
    migrated; without one (the directory cannot be opened) the make goes on unlocked."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _create_exclusively(path: Path) -> bool:
    """Create ``path`` as an empty file if nothing is there; whether this call created it.
    Readable by its owner only, whatever the umask: it holds the seeds of games in play (every
    hidden card), authors' build logs and token hashes. SQLite gives -wal and -shm its mode."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        os.fchmod(fd, 0o600)  # a umask only removes bits; this also holds under a wider default ACL
        os.close(fd)
    except OSError:
        return False  # there already, or not creatable: opening it below reports why
    return True


def _version_in(connection: Connection) -> int | None:
    """The schema version of the database ``connection`` is in, None if it has no tables yet."""
    tables = {
        row[0]
        for row in connection.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    if "schema_version" not in tables:
        return None
    row = connection.exec_driver_sql("SELECT version FROM schema_version").fetchone()
    return None if row is None else row[0]


def _remove_new_file(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
