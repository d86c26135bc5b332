"""The arena database on a PostgreSQL server (``--db postgresql://...``).

Writes are serialised as SQLite's ``BEGIN IMMEDIATE`` serialises them: every write transaction
first takes one transaction-level advisory lock (``pg_advisory_xact_lock``, released at COMMIT or
ROLLBACK). The arena's writes are read-modify-write (Elo: read the ratings, write new ones; a
scheduled game recorded once), and under PostgreSQL's default READ COMMITTED two such
transactions would each read the old ratings and one update would be lost. With the lock taken
before the first read, and READ COMMITTED taking a fresh snapshot for each statement, a writer
reads what every earlier writer committed. (Not REPEATABLE READ: its snapshot would be taken by
the lock statement itself, before the wait.) Reads take no lock and never wait (MVCC); reading
transactions are READ ONLY, so a reader cannot write by mistake.

A PostgreSQL database has no header to stamp, so the arena's ``schema_version`` table carries a
comment naming the arena (``migrations.POSTGRES_MARKER``): a database with tables but without
that comment is another program's and is refused untouched. Schemas are made and migrated under
the same lock.
"""

from __future__ import annotations

from sqlalchemy import Connection, Engine, create_engine, event, inspect
from sqlalchemy.exc import DBAPIError

from arena.errors import DatabasePathError, InputError, StorageError
from arena.storage import migrations
from arena.storage.target import PostgresUrl

# The advisory lock every write transaction holds (one 64-bit key: "ARNA" and "DB").
WRITE_LOCK = 0x4152_4E41_0000_4442
READ_ONLY_OPTION = "arena_read_only"
_CONNECT_SECONDS = 10
LOCK_WAIT_SECONDS = 60


def make_engine(target: PostgresUrl, *, read_only: bool = False) -> Engine:
    """An engine whose connections speak UTC (the arena stores naive UTC times) and, for
    ``read_only``, can only read."""
    options = "-c timezone=UTC -c datestyle=ISO" + (
        " -c default_transaction_read_only=on" if read_only else ""
    )
    engine = create_engine(
        target.url,
        isolation_level="READ COMMITTED",  # see the module's docstring: not REPEATABLE READ
        pool_pre_ping=True,  # a server restarted between two requests of the web
        connect_args={"options": options, "connect_timeout": _CONNECT_SECONDS},
    )

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        # A reader's transaction (a read-only engine's, the web's: every one) takes no lock.
        if read_only or connection.get_execution_options().get(READ_ONLY_OPTION, False):
            connection.exec_driver_sql("SET TRANSACTION READ ONLY")
        else:
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({WRITE_LOCK})")

    return engine


def version_in(connection: Connection, target: PostgresUrl) -> int | None:
    """The schema version of the database, None if it has no tables yet; a StorageError for
    another program's database or one of a newer arena."""
    tables = set(inspect(connection).get_table_names())
    if not tables:
        return None
    comment = None
    if "schema_version" in tables:
        comment = inspect(connection).get_table_comment("schema_version").get("text")
    if comment != migrations.POSTGRES_MARKER:
        raise StorageError(f"{target}: a database of another program, not an arena database")
    version = connection.exec_driver_sql("SELECT version FROM schema_version").scalar()
    return migrations.known_version(target, version)


def prepare(engine: Engine, target: PostgresUrl, *, create: bool) -> None:
    """Check the database, read-only (as SQLite's file is checked: opening a database of the
    current schema takes no lock, so a process may open it while it writes); with ``create`` make
    or migrate its schema, under the write lock and after looking again (another process may
    have done it meanwhile). Without ``create`` an empty or old database is an error."""
    try:
        with engine.connect() as connection:
            connection = connection.execution_options(**{READ_ONLY_OPTION: True})
            with connection.begin():
                version = version_in(connection, target)
        if version == migrations.CURRENT_VERSION:
            return
        if not create:
            if version is None:
                raise DatabasePathError(
                    f"{target}: empty database (submit a bot or run a tournament first)"
                )
            raise InputError(
                f"{target}: schema {version} needs an upgrade; run a command that "
                "writes (arena submit, arena tournament) to migrate it"
            )
        with engine.begin() as connection:
            version = version_in(connection, target)
            if version is None:
                migrations.create_schema(connection)
            elif version < migrations.CURRENT_VERSION:
                migrations.migrate(connection, version)
    except DBAPIError as exc:
        raise StorageError(f"{target}: cannot use the database: {one_line(exc)}") from None


def one_line(exc: DBAPIError) -> str:
    """The driver's message on one line (psycopg's run over several lines: the server's, a
    hint)."""
    return " ".join(str(exc.orig).split())
