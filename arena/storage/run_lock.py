"""One process at a time runs a given tournament or ladder.

Two runs of one ladder (a second terminal, a service restarted while the old process still
plays) lose no game and store none twice (the finished-once index), but each plays games the
other then cannot store, a count given to ``--until`` is overshot, and a starting run clears the
games-in-play rows that the other is still playing. So a run holds a lock for its tournament
while it plays, and a second run is refused at once with one line.

The lock is the operating system's or the server's (``arena.storage.process_lock``), so a
process killed with kill -9 leaves none behind: on SQLite an exclusive ``flock`` on
``DB-runs/ID.lock`` beside the database file; on PostgreSQL a session-level advisory lock
(class "ARUN", the tournament id) on a connection of its own, for as long as the run lasts.

The same lock tells a reader whether a stored "running" tournament is really being run
(``shown_state``): after kill -9 nothing could mark it stopped, but its lock is gone with the
process, so the web and the CLI show it stopped (``--resume`` continues it).

While a run holds the lock no other process plays the tournament's games, so its games in play
that were never recorded (``arena.storage.running``) are a killed run's ghosts: the run removes
them as it starts and again as it ends, however it ends. A run stopped before it played (a
SIGTERM while it started) left its killed predecessor's rows behind (``scripts/soak-ladder``).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy import Connection

from arena.errors import InputError
from arena.storage import running, tournaments
from arena.storage.database import Database, StorageError
from arena.storage.process_lock import Held, Lease, LockKind
from arena.storage.target import DatabaseTarget

P = ParamSpec("P")
T = TypeVar("T")
log = logging.getLogger(__name__)

# The advisory locks' class on PostgreSQL: "ARUN". (The write lock of arena.storage.postgres is a
# one-key lock: another space.)
RUN_LOCKS = LockKind("runs", 0x4152_554E)


class AlreadyRunningError(InputError):
    """Another process runs this tournament or ladder now."""


@contextmanager
def sole_run(database: Database, tournament_id: int, what: str) -> Iterator[Lease]:
    """Hold the run lock of ``tournament_id`` (``what``: "ladder 'NAME'", for the message), or
    raise AlreadyRunningError."""
    with ExitStack() as held:
        try:
            lease = held.enter_context(RUN_LOCKS.hold(database, tournament_id))
        except Held as other:
            raise AlreadyRunningError(_refusal(what, other.holder)) from None
        yield lease


def _remove_ghosts(database: Database, tournament_id: int) -> None:
    """The tournament's games in play that were never recorded, while its lock is held: none is
    this process's (its own are removed as its run stops, ``arena.tournament.live``)."""
    with database.write() as session:
        running.remove_unrecorded(session, tournament_id)


def check_not_running(database: Database, tournament_id: int, what: str) -> None:
    """Raise AlreadyRunningError if another process runs ``tournament_id`` now: said before a
    command announces that it goes on with it (it said "goes on", then refused). The run itself
    still takes the lock, which settles a race between two starting at once."""
    with database.read() as session:
        held = RUN_LOCKS.held(database.target, tournament_id, session.connection())
    if held:
        holder = ""
        if isinstance(database.target, Path):  # the lock file holds its holder's pid
            try:
                lock_file = RUN_LOCKS.directory(database.target) / f"{tournament_id}.lock"
                holder = lock_file.read_text().strip()
            except OSError:
                pass
        raise AlreadyRunningError(_refusal(what, holder))


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
            with sole_run(database, tournament_id, f"{kind} {name!r}") as lease:
                _remove_ghosts(database, tournament_id)
                try:
                    result = await run(database, tournament_id, *args, **kwargs)
                finally:
                    try:
                        _remove_ghosts(database, tournament_id)
                    except StorageError as exc:  # not to hide why the run ended
                        log.warning("the games in play of a stopped run stay listed: %s", exc)
                with database.read() as session:
                    if tournaments.state_of(session, tournament_id) == tournaments.FINISHED:
                        lease.done()  # its lock file goes: nobody probes a finished run's
                return result

        return alone

    return decorate


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
    held = RUN_LOCKS.held(target, tournament_id, connection)
    return tournaments.STOPPED if held is False else state


def _refusal(what: str, holder: str) -> str:
    by = f" (pid {holder})" if holder.isdigit() else ""
    return (
        f"{what} is already running in another process{by}: stop that one first "
        "(Ctrl-C or SIGTERM), or watch it with `arena serve`"
    )
