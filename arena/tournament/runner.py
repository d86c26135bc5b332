"""Play a tournament's remaining games, C at once, recording each finished game (with its Elo
updates) in one transaction as soon as it ends.

Ctrl-C (or SIGTERM) cancels the running games; they are abandoned, not recorded, and the
tournament is marked "stopped" so ``arena tournament --resume`` continues it. A storage fault
while recording a game (disk full, the database locked past its timeout, a read-only file) stops
the tournament the same way and raises one StorageError naming the fault. A voided game (a
fault on the arena's side) is recorded as voided and re-run with the same seed, up to
``VOID_ATTEMPTS`` times per run; a game still voided after that is left for a resume.

Which games are played is the pairing's choice (``arena.tournament.pairing``: the round robin's
schedule, or an SPRT's until it decides), where they are played the backend's
(``arena.tournament.playing``: this process, worker processes or a Ray cluster). Every game
recorded, forfeit, void and storage fault is a line of the ``arena.tournament.runner`` log.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import trio

from arena.errors import BotChangedError, DamagedDatabaseError, SetupError
from arena.records import MatchRecord, Outcome
from arena.stopping import StopSignal, restores_stop_handlers
from arena.storage import tournaments
from arena.storage.bots import RegisteredVersion, to_spec
from arena.storage.database import Database, StorageError
from arena.storage.games import record_game
from arena.storage.models import Tournament
from arena.storage.run_lock import running_alone
from arena.tournament.live import LiveGame, LiveGames
from arena.tournament.pairing import Avoid, Pairing, RoundRobin
from arena.tournament.playing import GamePlayer, GameSetup, in_process
from arena.tournament.ray_backend import RayCluster, ray_actors
from arena.tournament.schedule import ScheduledGame, build_schedule
from arena.tournament.settings import TournamentSettings
from arena.tournament.workers import worker_processes

VOID_ATTEMPTS = 3
log = logging.getLogger(__name__)


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
    """Mark the tournament stopped after a fault (of the storage, or a slot that cannot play),
    if the storage lets us (if not, it stays "running", which --resume continues the same)."""
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


def _version_ids(entrants: Sequence[RegisteredVersion]) -> list[int]:
    ids = []
    for entrant in entrants:
        assert entrant.version.id is not None, "a stored version has its id"
        ids.append(entrant.version.id)
    return ids


@asynccontextmanager
async def backend(
    setup: GameSetup, workers: int, ray: RayCluster | None, pin_cpus: bool = True
) -> AsyncIterator[GamePlayer]:
    """The backend: the Ray cluster's actors or ``workers`` processes (each with a share of its
    machine's cores if ``pin_cpus``), or this process."""
    if ray is not None:
        async with ray_actors(ray, setup, pin_cpus) as actors:
            yield actors
    elif workers > 1:
        async with worker_processes(workers, setup, pin_cpus) as processes:
            yield processes
    else:
        async with in_process(setup) as here:
            yield here


class DealMemory:
    """The deals (seeds) that the bots a game slot keeps up have played, by entrant, as its bot
    pool tracks them: a bot lent for a deal it played is replaced (``arena.referee.pool``), so
    the slot asks its pairing for games of other deals first."""

    def __init__(self) -> None:
        self._deals: dict[int, set[int]] = {}

    def would_replace(self, game: ScheduledGame) -> bool:
        return any(game.seed in self._deals.get(entrant, ()) for entrant in game.seats)

    def played(self, game: ScheduledGame) -> None:
        for entrant in game.seats:
            deals = self._deals.setdefault(entrant, set())
            if game.seed in deals:  # replaced: the new process remembers this deal alone
                deals.clear()
            deals.add(game.seed)


class DealsInPlay:
    """The deals of the games the run's slots are playing now. A game whose deal is in play
    elsewhere could not be shown live until that game ends (a deal's rotations share the
    cards: ``arena.storage.running``), so slots take other games first; and a game of a seed in
    play waits for it to end (``until_seed_free``)."""

    def __init__(self) -> None:
        self._playing: Counter[tuple[str, int]] = Counter()
        self._seeds: Counter[int] = Counter()
        self._ended = trio.Event()  # set, and replaced, whenever a game ends

    def __contains__(self, game: ScheduledGame) -> bool:
        return self._playing[(game.pod, game.deal)] > 0

    async def until_seed_free(self, game: ScheduledGame) -> None:
        """Wait until no game of ``game``'s seed is in play. Two rotations of one deal at once
        are two processes of each of the pod's bots, holding one deal from two seats: they
        could tell each other the cards of the other seats through anything both see (a lock
        taken on a file of the bot's own directory: outside review). The pairing's preference
        left it to chance when no other game was waiting (a 2-bot ladder, a 1-deal pod)."""
        while self._seeds[game.seed]:
            await self._ended.wait()

    @contextmanager
    def playing(self, game: ScheduledGame) -> Iterator[None]:
        deal = (game.pod, game.deal)
        self._playing[deal] += 1
        self._seeds[game.seed] += 1
        try:
            yield
        finally:
            self._playing -= Counter({deal: 1})  # (a count that reaches 0 leaves the Counter)
            self._seeds -= Counter({game.seed: 1})
            self._ended.set()
            self._ended = trio.Event()


def stopped_by(fault: StorageError, run: str, how_to_continue: str) -> StorageError:
    """The error that ends a ``run`` ("tournament", "ladder") stopped by a storage fault."""
    if isinstance(fault, DamagedDatabaseError):  # starting again would fail again
        return DamagedDatabaseError(
            f"{fault}; the {run} stopped: the database file is damaged: restore it from a "
            "backup (`sqlite3 FILE .recover` copies out what can still be read)"
        )
    return StorageError(
        f"{fault}; the {run} stopped (games recorded before are kept): {how_to_continue}"
    )


def slot_avoid(in_play: DealsInPlay, memory: DealMemory) -> Avoid:
    """How much a game slot would rather not play a game: a game shown live over bots kept up,
    so a second rotation of a deal in play elsewhere waits for the first."""

    def avoid(game: ScheduledGame) -> int:
        return 2 * (game in in_play) + memory.would_replace(game)

    return avoid


class _Run:
    """One run of a tournament: what its game slots share. Each slot plays the games the
    pairing hands it, one at a time, and records them here."""

    def __init__(
        self,
        database: Database,
        tournament: Tournament,
        version_ids: list[int],
        pairing: Pairing,
        progress: TournamentObserver,
        live: LiveGames | None = None,
    ) -> None:
        assert tournament.id is not None
        self.database = database
        self.tournament_id = tournament.id
        self.name = tournament.name
        self.version_ids = version_ids
        self.pairing = pairing
        self.progress = progress
        self.live = live  # the games in play, for spectators
        self.voided = 0  # voided attempts
        self.storage_fault: StorageError | None = None
        self.halt = trio.CancelScope()  # cancelled by a storage fault: every game stops
        self.changed: BotChangedError | None = None  # why games were left unplayed
        self.in_play = DealsInPlay()

    async def slot(self, number: int, games: GamePlayer) -> None:
        memory = DealMemory()
        avoid = slot_avoid(self.in_play, memory)
        while (scheduled := self.pairing.next_game(avoid)) is not None:
            await self.in_play.until_seed_free(scheduled)
            memory.played(scheduled)
            with self.in_play.playing(scheduled):
                await self.play(number, scheduled, games)

    async def play(self, slot: int, scheduled: ScheduledGame, games: GamePlayer) -> None:
        """Play the game until it is not voided (at most VOID_ATTEMPTS times) and record it."""
        for attempt in range(1, VOID_ATTEMPTS + 1):
            self.progress.game_started()
            watched = None if self.live is None else self.live.started(scheduled)
            try:
                record = await games.play(slot, scheduled.seats, scheduled.seed, watched)
            except BotChangedError as exc:  # not played: the others' games go on
                self._watched_ended(watched, None)
                log.warning("%s: %s: not played: %s", self.name, scheduled.key, exc)
                self.changed = exc
                self.progress.game_abandoned()
                return
            except trio.Cancelled:
                self._watched_ended(watched, None)
                self.progress.game_abandoned()
                raise
            except BaseException:
                self._watched_ended(watched, None)
                raise
            try:
                game_id = await trio.to_thread.run_sync(self._record, scheduled, record)
            except StorageError as exc:  # disk full, locked too long, ...: stop everything
                self._watched_ended(watched, None)
                log.error(
                    "%s: %s: storage fault, the tournament stops: %s", self.name, scheduled.key, exc
                )
                self.storage_fault = self.storage_fault or exc
                self.progress.game_abandoned()
                self.halt.cancel()
                return
            self._watched_ended(watched, game_id)
            # game_id None: another process resuming this tournament recorded it first
            if game_id is not None and not record.voided:
                self.pairing.game_recorded(scheduled, record)
            self._log(scheduled, record, game_id, attempt)
            self.progress.game_finished(
                recorded=game_id is not None,
                voided=record.voided,
                forfeit=any(s.outcome is not Outcome.FINISHED for s in record.seats),
            )
            if not record.voided:
                return
            self.voided += 1

    def _watched_ended(self, watched: LiveGame | None, game_id: int | None) -> None:
        if watched is not None and self.live is not None:
            self.live.ended(watched, game_id)

    def _record(self, scheduled: ScheduledGame, record: MatchRecord) -> int | None:
        return record_game(
            self.database,
            record,
            [self.version_ids[position] for position in scheduled.seats],
            group_key=f"{self.tournament_id}/{scheduled.pod}/{scheduled.deal}",
            tournament_id=self.tournament_id,
            schedule_key=scheduled.key,
        )

    def _log(
        self, scheduled: ScheduledGame, record: MatchRecord, game_id: int | None, attempt: int
    ) -> None:
        where = f"{self.name}: {scheduled.key}"
        if record.voided:
            then = (
                f"played again with the same seed (attempt {attempt + 1} of {VOID_ATTEMPTS})"
                if attempt < VOID_ATTEMPTS
                else f"left for a resume after {VOID_ATTEMPTS} attempts"
            )
            log.warning("%s: voided (game %s): %s; %s", where, game_id, record.void_reason, then)
            return
        for seat in record.seats:
            if seat.outcome is not Outcome.FINISHED:
                log.warning(
                    "%s: seat %d (%s) forfeits: %s: %s",
                    where,
                    seat.seat,
                    seat.player,
                    seat.outcome.value,
                    seat.reason,
                )
        if game_id is None:
            log.info("%s: finished, recorded first by another process", where)
            return
        result = ", ".join(
            f"{seat.player} {seat.score:g} (rank {seat.rank})" for seat in record.seats
        )
        log.info("%s: recorded as game %d in %.1f s: %s", where, game_id, record.duration, result)


@running_alone("tournament")  # a second run of it at once is refused
@restores_stop_handlers  # a second Ctrl-C waits for the first's stop
async def run_tournament(
    database: Database,
    tournament_id: int,
    observer: TournamentObserver | None = None,
    *,
    bot_logs: Path | None = None,
    pairing: Pairing | None = None,
    workers: int = 1,
    pin_cpus: bool = True,
    ray: RayCluster | None = None,
) -> RunSummary:
    """Play the tournament's games that are not recorded as finished yet, as ``pairing``
    (default: its round robin) hands them out, reporting to ``observer``; keep the bots' logs
    in the existing directory ``bot_logs`` if given. ``workers`` > 1 plays the games in that
    many worker processes (each kept with its bots to a share of the cores if ``pin_cpus``),
    ``ray`` on that cluster's nodes; this process alone records them."""
    tournament, entrants, done_keys = await trio.to_thread.run_sync(_load, database, tournament_id)
    settings = TournamentSettings.from_stored(tournament.settings)
    specs = [to_spec(e) for e in entrants]
    remote = {position for position, spec in enumerate(specs) if spec.is_remote}
    schedule = build_schedule(
        len(entrants), settings.players, settings.deals, tournament.seed, remote
    )
    pairing = pairing or RoundRobin()
    remaining = pairing.start(schedule, done_keys)
    progress = observer or QuietObserver()
    live = LiveGames(
        database,
        tournament_id,
        tournament.game,
        dict(settings.options),
        [(e.bot.name, id) for e, id in zip(entrants, _version_ids(entrants), strict=True)],
    )
    run = _Run(database, tournament, _version_ids(entrants), pairing, progress, live)
    setup = GameSetup(tournament.game, tournament.seed, specs, settings, bot_logs)
    stop = StopSignal()
    await trio.to_thread.run_sync(_set_state, database, tournament_id, tournaments.RUNNING)
    where = (
        f"Ray cluster {ray.address}"
        if ray
        else f"{workers} worker processes"
        if workers > 1
        else "this process"
    )
    log.info(
        "%s: %s, %d entrants, %d of %d games to play, %d at once, in %s",
        tournament.name,
        tournament.game,
        len(entrants),
        remaining,
        len(schedule),
        settings.concurrency,
        where,
    )
    progress.tournament_started(tournament.name, len(schedule), len(schedule) - remaining)
    try:
        with run.halt:
            async with trio.open_nursery() as outer:
                await outer.start(stop.watch, outer.cancel_scope)
                await outer.start(live.keep)
                async with (
                    backend(setup, workers, ray, pin_cpus) as games,
                    trio.open_nursery() as slots,
                ):
                    for number in range(min(settings.concurrency, remaining)):
                        slots.start_soon(run.slot, number, games)
                outer.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        # A game slot that cannot play (a Ray node without the sandbox, a cluster without room
        # for the slots) raised a SetupError inside the nurseries: one line for the user.
        if (setup_error := _sole_setup_error(group)) is None:
            raise
        log.error("%s: %s", tournament.name, setup_error)
        await trio.to_thread.run_sync(_stop_after_fault, database, tournament_id)
        raise setup_error from None
    finally:
        progress.tournament_ended()

    if run.storage_fault is not None:
        await trio.to_thread.run_sync(_stop_after_fault, database, tournament_id)
        raise stopped_by(
            run.storage_fault, "tournament", f"continue it with --resume {tournament.name}"
        )

    done = await trio.to_thread.run_sync(_finish, database, tournament_id, len(schedule))
    if run.changed is not None:
        raise SetupError(
            f"{run.changed}; {len(schedule) - done} game(s) not played (`--resume "
            f"{tournament.name}` plays them)"
        )
    log.info(
        "%s: %s: %d of %d games recorded, %d voided attempts in this run",
        tournament.name,
        "stopped by a signal"
        if stop.received
        else "finished"
        if done == len(schedule)
        else "ended",
        done,
        len(schedule),
        run.voided,
    )
    return RunSummary(total=len(schedule), done=done, stopped=stop.received, voided=run.voided)
