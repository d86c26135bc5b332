"""A lock a process holds while it works on one stored thing (a tournament it runs, an upload
it builds), so that other processes can tell whether that work is still going on.

The lock is the operating system's or the server's, so a process killed with kill -9 leaves none
behind: on SQLite an exclusive ``flock`` on ``DB-KIND/ID.lock`` beside the database file (it
holds the holder's pid, for messages; a holder whose work is over removes it, ``Lease.done``, so
the directory does not keep a file per upload ever built); on PostgreSQL a session-level
advisory lock on a connection of its own, for as long as the work lasts, keyed (the kind's
class, the id). Each kind of lock (``LockKind``) has its own directory and class: a tournament's
id and an upload's never meet.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
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


class Lease:
    """A lock held: ``done()`` once the work's outcome is stored, and the lock's file goes with
    the lock (no reader probes a finished thing's lock)."""

    def __init__(self) -> None:
        self.over = False

    def done(self) -> None:
        self.over = True


@dataclass(frozen=True)
class LockKind:
    name: str  # the directory beside a SQLite database: DB-NAME/
    postgres_class: int  # the advisory locks' first 32-bit key (the second is the id)

    def directory(self, database_file: Path) -> Path:
        """Where the locks of this kind of a SQLite database are kept."""
        return database_file.with_name(f"{database_file.name}-{self.name}")

    @contextmanager
    def hold(self, database: Database, key: int) -> Iterator[Lease]:
        """Hold the lock of ``key`` while the block runs; Held if another process holds it."""
        lease = Lease()
        if isinstance(database.target, Path):
            with _file_lock(self.directory(database.target) / f"{key}.lock", lease):
                yield lease
        else:
            with _advisory_lock(database, f"{self.postgres_class}, {int(key)}"):
                yield lease

    def remove_unheld(self, database_file: Path, keys: set[int]) -> int:
        """Remove the lock files of ``keys`` (things whose work is over) that nobody holds,
        left by holders from before ``Lease.done`` or killed ones; how many went."""
        removed = 0
        for key in keys:
            path = self.directory(database_file) / f"{key}.lock"
            try:
                with _file_lock(path, Lease(), create=False) as lease:
                    lease.done()
                removed += 1
            except (Held, OSError):  # held (a worker of an older arena?), or gone
                continue
        return removed

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
def _file_lock(path: Path, lease: Lease, create: bool = True) -> Iterator[Lease]:
    """The lock of ``path``, the file made if ``create``. A holder whose lease is done removes
    the file while it still holds the lock, so whoever opened it before (and takes its lock
    after) finds it no longer at ``path`` and opens again (``_is_at``): one holder at a time."""
    if create:
        path.parent.mkdir(mode=0o700, exist_ok=True)
    flags = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_CREAT if create else 0)
    while True:
        descriptor = os.open(path, flags, 0o600)
        if not _take(descriptor):
            holder = os.pread(descriptor, 32, 0).decode(errors="replace").strip()
            os.close(descriptor)
            raise Held(holder)
        if _is_at(descriptor, path):
            break
        os.close(descriptor)  # removed by its last holder meanwhile
        if not create:
            raise FileNotFoundError(path)
    try:
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        yield lease
    finally:
        if lease.over:
            with suppress(OSError):
                os.unlink(path)
        os.close(descriptor)  # releases the lock


def _is_at(descriptor: int, path: Path) -> bool:
    """Whether the file open as ``descriptor`` is still the one at ``path``."""
    try:
        there = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    here = os.fstat(descriptor)
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


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
    except OSError:  # not there (never taken, or its work is over), or not ours to open
        return None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
        # a file removed by its last holder (its work over) tells nothing of a new holder
        return False if _is_at(descriptor, path) else None
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
