"""A lock a process holds while it works on one stored thing (a tournament it runs, an upload
it builds), so that other processes can tell whether that work is still going on.

The lock is the operating system's or the server's, so a process killed with kill -9 leaves none
behind: on SQLite an exclusive ``flock`` on ``DB-KIND/ID.lock`` beside the database file (it
holds the holder's pid, for messages); on PostgreSQL a session-level advisory lock on a
connection of its own, for as long as the work lasts, keyed (the kind's class, the id). Each
kind of lock (``LockKind``) has its own directory and class: a tournament's id and an upload's
never meet.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Connection, text

from arena.storage.database import Database
from arena.storage.postgres import READ_ONLY_OPTION
from arena.storage.target import DatabaseTarget

# A reader's probe (``_file_held``) holds the lock for microseconds: a holder starting at that
# moment tries again for this long before it takes the lock for another holder's.
_PROBE_GRACE_SECONDS = 0.25


class Held(Exception):
    """Another process holds the lock; ``holder``: its pid as the lock file says, or ""."""

    def __init__(self, holder: str) -> None:
        super().__init__(holder)
        self.holder = holder


@dataclass(frozen=True)
class LockKind:
    name: str  # the directory beside a SQLite database: DB-NAME/
    postgres_class: int  # the advisory locks' first 32-bit key (the second is the id)

    def directory(self, database_file: Path) -> Path:
        """Where the locks of this kind of a SQLite database are kept."""
        return database_file.with_name(f"{database_file.name}-{self.name}")

    @contextmanager
    def hold(self, database: Database, key: int) -> Iterator[None]:
        """Hold the lock of ``key`` while the block runs; Held if another process holds it."""
        if isinstance(database.target, Path):
            with _file_lock(self.directory(database.target) / f"{key}.lock"):
                yield
        else:
            with _advisory_lock(database, f"{self.postgres_class}, {int(key)}"):
                yield

    def held(self, target: DatabaseTarget, key: int, connection: Connection) -> bool | None:
        """Whether a process holds the lock of ``key`` now; None where this process cannot
        tell (on SQLite: the lock file is another user's, or not there: never taken)."""
        if isinstance(target, Path):
            return _file_held(self.directory(target) / f"{key}.lock")
        # A two-key advisory lock shows in pg_locks as classid, objid with objsubid 2.
        found = connection.execute(
            text(
                "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
                "AND classid = :class AND objid = :id AND objsubid = 2)"
            ),
            {"class": self.postgres_class, "id": int(key)},
        ).scalar()
        return bool(found)


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(mode=0o700, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        if not _take(descriptor):
            raise Held(os.pread(descriptor, 32, 0).decode(errors="replace").strip())
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(descriptor)  # releases the lock; the file stays (removing it would race)


def _take(descriptor: int) -> bool:
    """Take the lock, waiting out a reader's probe; False if another process holds it."""
    deadline = time.monotonic() + _PROBE_GRACE_SECONDS
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)


def _file_held(path: Path) -> bool | None:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:  # not there (never taken), or not ours to open
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    except OSError:
        return None
    finally:
        os.close(descriptor)  # releases the probe's lock


@contextmanager
def _advisory_lock(database: Database, keys: str) -> Iterator[None]:
    # Read-only: a write transaction would first wait for the database's write lock, which the
    # caller may hold (a worker takes its claim lock inside the claim's transaction).
    reader = database.engine.execution_options(**{READ_ONLY_OPTION: True})
    with reader.connect() as connection:
        taken = connection.exec_driver_sql(f"SELECT pg_try_advisory_lock({keys})").scalar()
        connection.commit()
        if not taken:
            raise Held("")
        try:
            yield
        finally:
            connection.exec_driver_sql(f"SELECT pg_advisory_unlock({keys})")
            connection.commit()
