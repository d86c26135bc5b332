"""One process at a time runs a given tournament or ladder.

Two runs of one ladder (a second terminal, a service restarted while the old process still
plays) lose no game and store none twice (the finished-once index), but each plays games the
other then cannot store, a count given to ``--until`` is overshot, and a starting run clears the
games-in-play rows that the other is still playing. So a run holds a lock for its tournament
while it plays, and a second run is refused at once with one line.

The lock is the operating system's or the server's, so a process killed with kill -9 leaves none
behind: on SQLite an exclusive ``flock`` on ``DB-runs/ID.lock`` beside the database file (it
holds the holder's pid, for the message); on PostgreSQL a session-level advisory lock on a
connection of its own, for as long as the run lasts.

The same lock tells a reader whether a stored "running" tournament is really being run
(``shown_state``): after kill -9 nothing could mark it stopped, but its lock is gone with the
process, so the web and the CLI show it stopped (``--resume`` continues it).
"""

from __future__ import annotations

import fcntl
import functools
import os
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy import Connection, text

from arena.errors import InputError
from arena.storage import tournaments
from arena.storage.database import Database
from arena.storage.target import DatabaseTarget

P = ParamSpec("P")
T = TypeVar("T")

# A reader's probe (``_file_held``) holds the lock for microseconds: a run starting at that
# moment tries again for this long before it takes the lock for another run's.
_PROBE_GRACE_SECONDS = 0.25
# The advisory locks' class (first of two 32-bit keys) for runs: "ARUN"; the second key is the
# tournament id. (The write lock of arena.storage.postgres is a one-key lock: another space.)
_POSTGRES_CLASS = 0x4152_554E


class AlreadyRunningError(InputError):
    """Another process runs this tournament or ladder now."""


def lock_directory(database_file: Path) -> Path:
    """Where the run locks of a SQLite database are kept."""
    return database_file.with_name(database_file.name + "-runs")


@contextmanager
def sole_run(database: Database, tournament_id: int, what: str) -> Iterator[None]:
    """Hold the run lock of ``tournament_id`` (``what``: "ladder 'NAME'", for the message), or
    raise AlreadyRunningError."""
    if database.is_sqlite:
        assert isinstance(database.target, Path)
        with _file_lock(lock_directory(database.target) / f"{tournament_id}.lock", what):
            yield
    else:
        with _advisory_lock(database, tournament_id, what):
            yield


def running_alone(
    kind: str,
) -> Callable[
    [Callable[Concatenate[Database, int, P], Awaitable[T]]],
    Callable[Concatenate[Database, int, P], Awaitable[T]],
]:
    """Decorates a run of a stored tournament (``run(database, tournament_id, ...)``) to hold
    its run lock while it runs; ``kind`` ("tournament", "ladder") names it in the refusal."""

    def decorate(
        run: Callable[Concatenate[Database, int, P], Awaitable[T]],
    ) -> Callable[Concatenate[Database, int, P], Awaitable[T]]:
        @functools.wraps(run)
        async def alone(
            database: Database, tournament_id: int, /, *args: P.args, **kwargs: P.kwargs
        ) -> T:
            with database.read() as session:
                name = tournaments.name_of(session, tournament_id)
            with sole_run(database, tournament_id, f"{kind} {name!r}"):
                return await run(database, tournament_id, *args, **kwargs)

        return alone

    return decorate


@contextmanager
def _file_lock(path: Path, what: str) -> Iterator[None]:
    path.parent.mkdir(mode=0o700, exist_ok=True)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        if not _take(descriptor):
            holder = os.pread(descriptor, 32, 0).decode(errors="replace").strip()
            raise AlreadyRunningError(_refusal(what, holder))
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(descriptor)  # releases the lock; the file stays (removing it would race)


def _take(descriptor: int) -> bool:
    """Take the run lock, waiting out a reader's probe; False if another run holds it."""
    deadline = time.monotonic() + _PROBE_GRACE_SECONDS
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)


def shown_state(
    target: DatabaseTarget, tournament_id: int, state: str, connection: Connection
) -> str:
    """A tournament's state as a reader should show it: a stored "running" whose run lock nobody
    holds (its process was killed) is "stopped"; where this process cannot tell (the lock file
    is another user's, or not there yet: a new tournament before its run takes the lock), the
    stored state.
    """
    if state != tournaments.RUNNING:
        return state
    if isinstance(target, Path):
        held = _file_held(lock_directory(target) / f"{tournament_id}.lock")
    else:
        held = _advisory_held(connection, tournament_id)
    return tournaments.STOPPED if held is False else state


def _file_held(path: Path) -> bool | None:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        # Not run yet: a new tournament is stored before its run takes the lock, and a page
        # loaded in between must see it running (it would not refresh itself otherwise).
        return None
    except OSError:
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


def _advisory_held(connection: Connection, tournament_id: int) -> bool | None:
    # A two-key advisory lock shows in pg_locks as classid, objid with objsubid 2.
    found = connection.execute(
        text(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND classid = :class AND objid = :id AND objsubid = 2)"
        ),
        {"class": _POSTGRES_CLASS, "id": int(tournament_id)},
    ).scalar()
    return bool(found)


@contextmanager
def _advisory_lock(database: Database, tournament_id: int, what: str) -> Iterator[None]:
    keys = f"{_POSTGRES_CLASS}, {int(tournament_id)}"
    with database.engine.connect() as connection:
        taken = connection.exec_driver_sql(f"SELECT pg_try_advisory_lock({keys})").scalar()
        connection.commit()
        if not taken:
            raise AlreadyRunningError(_refusal(what, ""))
        try:
            yield
        finally:
            connection.exec_driver_sql(f"SELECT pg_advisory_unlock({keys})")
            connection.commit()


def _refusal(what: str, holder: str) -> str:
    by = f" (pid {holder})" if holder.isdigit() else ""
    return (
        f"{what} is already running in another process{by}: stop that one first "
        "(Ctrl-C or SIGTERM), or watch it with `arena serve`"
    )
