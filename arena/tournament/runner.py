"""Play a tournament's remaining games, C at once, recording each finished game (with its Elo
updates) in one transaction as soon as it ends.

Ctrl-C (or SIGTERM) cancels the running games; they are abandoned, not recorded, and the
tournament is marked "stopped" so ``arena tournament --resume`` continues it. A storage fault
while recording a game (disk full, the database locked past its timeout, a read-only file) stops
the tournament the same way and raises one StorageError naming the fault. A voided game (a
fault on the arena's side) is recorded as voided and re-run with the same seed, up to
``VOID_ATTEMPTS`` times per run; a game still voided after that is left for a resume.
"""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Protocol

import trio

from arena.errors import SetupError
from arena.records import MatchRecord, Outcome
from arena.storage import tournaments
from arena.storage.bots import RegisteredVersion, to_spec
from arena.storage.database import Database, StorageError
from arena.storage.games import record_game
from arena.storage.models import Tournament
from arena.tournament.ray_backend import RayCluster, ray_actors
from arena.tournament.schedule import ScheduledGame, build_schedule
from arena.tournament.settings import TournamentSettings
from arena.tournament.workers import WorkerSetup, kept_up_bots, worker_processes

VOID_ATTEMPTS = 3
GamePlayer = Callable[[ScheduledGame], Awaitable[MatchRecord]]  # plays one game of one slot

# Told of every finished game this run records (the game as scheduled, and what happened);
# returning True starts no further game (the games running then still finish and are recorded).
# A sequential test (``arena sprt``) stops this way once it has decided.
StopRule = Callable[[ScheduledGame, MatchRecord], bool]


class TournamentObserver(Protocol):
    """What a running tournament reports as it goes (the CLI draws its progress bar from it)."""

    def tournament_started(self, name: str, total: int, done: int) -> None:
        """``done`` of the ``total`` scheduled games were recorded by earlier runs."""

    def game_started(self) -> None: ...

    def game_finished(self, *, recorded: bool, forfeit: bool, voided: bool) -> None:
        """``recorded`` False: another process had recorded the game first (still done);
        ``voided`` games are played again with the same seed."""

    def game_abandoned(self) -> None:
        """The game was cancelled (Ctrl-C) and is not recorded."""

    def tournament_ended(self) -> None: ...


class QuietObserver:
    """Reports nothing."""

    def tournament_started(self, name: str, total: int, done: int) -> None: ...
    def game_started(self) -> None: ...
    def game_finished(self, *, recorded: bool, forfeit: bool, voided: bool) -> None: ...
    def game_abandoned(self) -> None: ...
    def tournament_ended(self) -> None: ...


@dataclass
class RunSummary:
    total: int
    done: int  # finished games recorded for this tournament, including earlier runs
    stopped: bool  # interrupted by Ctrl-C / SIGTERM
    voided: int  # voided attempts during this run

    @property
    def complete(self) -> bool:
        return self.done == self.total


def _load(
    database: Database, tournament_id: int
) -> tuple[Tournament, list[RegisteredVersion], set[str]]:
    with database.read() as session:
        tournament = session.get(Tournament, tournament_id)
        assert tournament is not None
        return (
            tournament,
            tournaments.entrants(session, tournament_id),
            tournaments.finished_keys(session, tournament_id),
        )


def _set_state(database: Database, tournament_id: int, state: str) -> None:
    with database.write() as session:
        tournaments.set_state(session, tournament_id, state)


def _finish(database: Database, tournament_id: int, total: int) -> int:
    """Mark the tournament finished or stopped; return how many of its games are done."""
    with database.write() as session:
        done = len(tournaments.finished_keys(session, tournament_id))
        tournaments.set_state(
            session, tournament_id, tournaments.FINISHED if done == total else tournaments.STOPPED
        )
    return done


def _stop_after_fault(database: Database, tournament_id: int) -> None:
    """Mark the tournament stopped after a storage fault, if the storage lets us (if not, it
    stays "running", which --resume continues just the same)."""
    try:
        _set_state(database, tournament_id, tournaments.STOPPED)
    except StorageError:
        pass


def _sole_setup_error(group: BaseExceptionGroup) -> SetupError | None:
    """The first SetupError in ``group`` if that is all it holds (several slots may raise one)."""
    matched, rest = group.split(SetupError)
    if matched is None or rest is not None:
        return None
    first: BaseException = matched
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    assert isinstance(first, SetupError)
    return first


async def run_tournament(
    database: Database,
    tournament_id: int,
    observer: TournamentObserver | None = None,
    *,
    bot_logs: Path | None = None,
    stop_when: StopRule | None = None,
    workers: int = 1,
    ray: RayCluster | None = None,
) -> RunSummary:
    """Play every scheduled game of the tournament that is not recorded as finished yet,
    reporting to ``observer``, until ``stop_when`` says enough; keep the bots' logs in the
    existing directory ``bot_logs`` if given. ``workers`` > 1 plays the games in that many
    worker processes (``arena.tournament.workers``), ``ray`` on that cluster's nodes
    (``arena.tournament.ray_backend``); this process alone records them."""
    tournament, entrants, done_keys = await trio.to_thread.run_sync(_load, database, tournament_id)
    settings = TournamentSettings.from_stored(tournament.settings)
    schedule = build_schedule(len(entrants), settings.players, settings.deals, tournament.seed)
    pending = [game for game in schedule if game.key not in done_keys]
    specs = [to_spec(entrant) for entrant in entrants]
    version_ids = [entrant.version.id for entrant in entrants]
    progress = observer or QuietObserver()
    voided = 0
    stopped = False
    enough = False  # stop_when said so
    storage_fault: StorageError | None = None
    halt = trio.CancelScope()  # cancelled by a storage fault: every game stops
    await trio.to_thread.run_sync(_set_state, database, tournament_id, tournaments.RUNNING)

    @asynccontextmanager
    async def game_players() -> AsyncIterator[Callable[[int], GamePlayer]]:
        """How each game slot plays its games: in this process with the slot's kept-up bots, in
        a worker process, or in a Ray actor."""
        setup = WorkerSetup(tournament.game, tournament.seed, specs, settings, bot_logs)
        if ray is not None:
            async with ray_actors(ray, setup) as actors:
                yield (
                    lambda slot: (
                        lambda scheduled: actors.play(slot, scheduled.seats, scheduled.seed)
                    )
                )
            return
        if workers > 1:
            async with worker_processes(workers, setup) as processes:
                yield (
                    lambda slot: (
                        lambda scheduled: processes.play(slot, scheduled.seats, scheduled.seed)
                    )
                )
            return
        async with kept_up_bots(tournament.game, tournament.seed, settings, bot_logs) as pool:

            def here(slot: int) -> GamePlayer:
                return lambda scheduled: setup.play(scheduled.seats, scheduled.seed, pool, slot)

            yield here

    async def play(scheduled: ScheduledGame, play_game: GamePlayer) -> None:
        nonlocal voided, storage_fault, enough
        seat_versions = [version_ids[position] for position in scheduled.seats]
        for _ in range(VOID_ATTEMPTS):
            progress.game_started()
            try:
                record = await play_game(scheduled)
            except trio.Cancelled:
                progress.game_abandoned()
                raise
            try:
                game_id = await trio.to_thread.run_sync(
                    partial(
                        record_game,
                        database,
                        record,
                        seat_versions,
                        group_key=f"{tournament_id}/{scheduled.pod}/{scheduled.deal}",
                        tournament_id=tournament_id,
                        schedule_key=scheduled.key,
                    )
                )
            except StorageError as exc:  # disk full, locked too long, ...: stop everything
                storage_fault = storage_fault or exc
                progress.game_abandoned()
                halt.cancel()
                return
            # game_id None: another process resuming this tournament recorded it first
            if (
                game_id is not None
                and not record.voided
                and stop_when is not None
                and stop_when(scheduled, record)
            ):
                enough = True
            progress.game_finished(
                recorded=game_id is not None,
                voided=record.voided,
                forfeit=any(s.outcome is not Outcome.FINISHED for s in record.seats),
            )
            if record.voided:
                voided += 1
                continue
            return

    async def slot(queue: Iterator[ScheduledGame], play_game: GamePlayer) -> None:
        for scheduled in queue:  # shared iterator: each game goes to exactly one slot
            if enough:
                return
            await play(scheduled, play_game)

    async def stop_on_signal(scope: trio.CancelScope) -> None:
        nonlocal stopped
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for _ in signals:
                stopped = True
                scope.cancel()
                return

    progress.tournament_started(tournament.name, len(schedule), len(schedule) - len(pending))
    try:
        with halt:
            async with trio.open_nursery() as outer:
                outer.start_soon(stop_on_signal, outer.cancel_scope)
                async with game_players() as player_of, trio.open_nursery() as slots:
                    queue = iter(pending)
                    for number in range(min(settings.concurrency, len(pending))):
                        slots.start_soon(slot, queue, player_of(number))
                outer.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        # A game slot that cannot play (a Ray node without the sandbox, a cluster without room
        # for the slots) raised a SetupError inside the nurseries: one line for the user.
        if (setup_error := _sole_setup_error(group)) is None:
            raise
        raise setup_error from None
    finally:
        progress.tournament_ended()

    if storage_fault is not None:
        await trio.to_thread.run_sync(_stop_after_fault, database, tournament_id)
        raise StorageError(
            f"{storage_fault}; the tournament stopped (games recorded before are "
            f"kept): continue it with --resume {tournament.name}"
        )

    done = await trio.to_thread.run_sync(_finish, database, tournament_id, len(schedule))
    return RunSummary(total=len(schedule), done=done, stopped=stopped, voided=voided)
