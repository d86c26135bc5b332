"""A ladder: games all the time, opponents chosen by the ratings so far, new versions joining by
themselves (``arena ladder``).

A ladder is stored as a tournament whose settings carry its rules (``LadderRules``): its games,
entrants, Elo and boards are a tournament's, so ``arena leaderboard --tournament`` and the web
read it unchanged. It plays in *rounds*. Before each round the lineup is read again
(``ladder_store.lineup``: a newly submitted version joins, the version it replaces retires, a
version with ``pause_after`` forfeits in a row is paused until a newer one arrives); then, for
each board (player count), the matchmaking (``arena.tournament.matchmaking``) picks the pods
from the ratings of the ladder's games on that board, and each pod plays one deal once per
rotation of its seats. Games are recorded (and Elo-rated) one by one as they end, by the
tournament runner's game slots, on the same backends (this process, worker processes, Ray).

Stopping and resuming: Ctrl-C or SIGTERM abandons the games running (nothing half-played is
stored); a recorded game is one transaction, and the finished-once index on (ladder, game key)
means no game is stored twice. A restarted ladder first completes the deals left half-played
(same seed, the missing rotations), then goes on with new rounds.
"""

from __future__ import annotations

import itertools
import logging
import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import trio

from arena.entrants import check_unchanged
from arena.errors import SetupError
from arena.log_retention import Retention, keep_pruned
from arena.records import MatchRecord, Outcome
from arena.stopping import StopSignal, restores_stop_handlers
from arena.storage import ladders as ladder_store
from arena.storage import tournaments, withdrawals
from arena.storage.bots import to_spec
from arena.storage.database import Database, StorageError
from arena.storage.games import each_finished_game_result, finished_game_results
from arena.storage.ladders import Lineup, Progress
from arena.storage.models import Tournament, utc_now
from arena.storage.run_lock import running_alone
from arena.tournament.live import LiveGames
from arena.tournament.matchmaking import Matchmaking, Ratings, ratings
from arena.tournament.pacing import LOOKBACK_SECONDS, Pace, covers
from arena.tournament.pairing import LOOKAHEAD, Avoid, first_least_avoided, never
from arena.tournament.playing import GamePlayer, GameSetup
from arena.tournament.ray_backend import RayCluster
from arena.tournament.runner import (
    QuietObserver,
    _Run,
    backend,
    stopped_by,
)
from arena.tournament.schedule import ScheduledGame, deal_seed, rotation_seed
from arena.tournament.settings import TournamentSettings
from leaderboard.batch import BatchRating, fit_batch, fit_finishes
from leaderboard.results import GameResult, SeatResult, player_name
from leaderboard.tally import FinishTally

log = logging.getLogger(__name__)
IDLE_SECONDS = 10.0  # between two looks when nobody may play (too few entrants, rate limits)
SHORTEST_WAIT = 0.05  # seconds: never look again at once (a wait rounded to nothing)
# Between two looks for bots the operator withdrew while a round plays (its planned games that
# seat them are dropped; a round may be many minutes long).
WITHDRAWN_LOOK_SECONDS = 5.0


@dataclass(frozen=True)
class LadderRules:
    """A ladder's stored rules."""

    boards: tuple[int, ...] = (2,)  # player counts; each round plays every board
    fixed: bool = False  # --bots: the entrants given, no joining
    games_per_hour: float = 0.0  # per entrant; 0: no limit
    pause_after: int = 5  # forfeits in a row that pause a version; 0: never

    def to_stored(self) -> dict[str, Any]:
        return {
            "boards": list(self.boards),
            "fixed": self.fixed,
            "games_per_hour": self.games_per_hour,
            "pause_after": self.pause_after,
        }

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> LadderRules:
        return cls(
            tuple(stored["boards"]),
            bool(stored["fixed"]),
            float(stored["games_per_hour"]),
            int(stored["pause_after"]),
        )


@dataclass(frozen=True)
class Until:
    """When a run stops by itself (the first that holds); all None: never."""

    games: int | None = None  # the ladder has this many finished games
    deadline: datetime | None = None  # aware
    width: float | None = None  # every playing entrant's 95% interval is narrower, every board

    def remaining_games(self, finished: int) -> int | None:
        return None if self.games is None else max(0, self.games - finished)

    def past_deadline(self) -> bool:
        return self.deadline is not None and utc_now() >= self.deadline


@dataclass
class LadderSummary:
    name: str
    games: int  # finished games of the ladder, all runs
    played: int  # recorded by this run
    rounds: int  # rounds started by this run
    stopped: bool  # by a signal
    why: str  # why the run ended
    paused: dict[str, str] = field(default_factory=dict)  # label -> reason


def _seat_results(
    scheduled: ScheduledGame, record: MatchRecord, version_ids: Sequence[int], group: str
) -> GameResult:
    return GameResult(
        tuple(
            SeatResult(
                player_name(version_ids[scheduled.seats[seat.seat]]),
                seat.rank,
                seat.score,
                "" if seat.outcome is Outcome.FINISHED else seat.outcome.value,
            )
            for seat in record.seats
        ),
        group_key=group,
    )


class Rounds:
    """The runner's pairing for a ladder: hands out the planned games, and keeps a tally of the
    ladder's results per board (for the matchmaking) as games are recorded."""

    def __init__(
        self,
        ladder_id: int,
        seed: int,
        rules: LadderRules,
        tallies: dict[int, FinishTally],
        progress: Progress,
    ) -> None:
        self.ladder_id = ladder_id
        self.seed = seed
        self.rules = rules
        # board -> how its games finished: all the matchmaking reads of them, and (unlike the
        # games) bounded however long the ladder runs (leaderboard.tally)
        self.tallies = defaultdict(FinishTally, tallies)
        self.next_round = progress.next_round
        self.unfinished: dict[tuple[int, str], set[int]] | None = progress.unfinished
        self.version_ids: list[int] = []
        self.queue: list[ScheduledGame] = []
        self.played = 0  # games this run recorded
        self.deadline_passed: Callable[[], bool] = lambda: False

    def plan(
        self,
        lineup: Lineup,
        allowance: Mapping[int, float] | None,
        limit: int | None,
        at_least: int,
    ) -> list[ScheduledGame]:
        """The next games (at most ``limit``): first the deals an earlier run left unfinished,
        then rounds by the matchmaking until there are ``at_least`` games (to keep every game
        slot busy) or nobody is free. ``allowance``: games each version may start now under
        the games per hour (``arena.tournament.pacing``); None: no limit."""
        self.version_ids = lineup.version_ids
        games = []
        if self.unfinished is not None:
            games = self._completion(self.unfinished, lineup)
            self.unfinished = None
        left = None if allowance is None else dict(allowance)
        planned: dict[int, Ratings] = {}  # board -> its ratings, the rounds planned counted
        while len(games) < at_least and (limit is None or len(games) < limit):
            more = self._round(self.next_round, lineup, left, planned)
            if not more:
                break
            self.next_round += 1
            games += more
        return games[:limit] if limit is not None else games

    def _completion(
        self, unfinished: Mapping[tuple[int, str], set[int]], lineup: Lineup
    ) -> list[ScheduledGame]:
        games = []
        for (number, pod), done in sorted(unfinished.items()):
            members = tuple(int(p) for p in pod.split("+"))
            if set(members) <= set(lineup.active):  # else a member retired or paused since
                deal = self._deal(number, members, lineup.remote)
                games += [game for turn, game in enumerate(deal) if turn not in done]
        return games

    def _round(
        self,
        round_number: int,
        lineup: Lineup,
        allowance: dict[int, float] | None,
        planned: dict[int, Ratings],
    ) -> list[ScheduledGame]:
        """One round's deals, each version's ``allowance`` charged for its games. Under a games
        per hour, a round waits until every playing version's allowance covers a deal on every
        board: rounds stay whole, so the matchmaking chooses among everyone (not among the few
        free at a moment: those who sat the last round out), and a board of fewer seats, payable
        sooner, does not take every game from the others."""
        rng = random.Random(f"{self.seed}/{round_number}")
        games: list[ScheduledGame] = []
        if allowance is not None and not all(
            covers(allowance[lineup.version_ids[p]], sum(self.rules.boards)) for p in lineup.active
        ):
            return games
        for players in self.rules.boards:
            position_of = {str(lineup.version_ids[p]): p for p in lineup.active}
            if players not in planned:
                planned[players] = ratings(self.tallies[players], position_of)
            rated = planned[players]
            pods = Matchmaking(players).round(rated, rng)
            planned[players] = rated.after(pods, players)
            deals = []
            for pod in pods:
                if allowance is not None:
                    for player in pod:
                        allowance[int(player)] -= players  # a game per rotation
                members = tuple(position_of[player] for player in pod)
                deals.append(self._deal(round_number, members, lineup.remote))
            # rotation by rotation, then pod by pod: a pod's rotations are played one after
            # another, not at once, so the last of each deal can be shown live (a game is
            # shown once the other rotations of its deal are played: arena.storage.running)
            games += [game for turn in zip(*deals, strict=True) for game in turn]
        return games

    def _deal(
        self, round_number: int, members: tuple[int, ...], remote: Set[int]
    ) -> list[ScheduledGame]:
        """One deal of the pod ``members`` (positions, anchor first), once per seat rotation
        (each on a deal of its own if a member is a remote bot, at a position in ``remote``)."""
        pod = "+".join(map(str, members))
        seed = deal_seed(self.seed, pod, round_number)
        return [
            ScheduledGame(
                ladder_store.game_key(round_number, pod, turn),
                pod,
                round_number,
                rotation_seed(seed, turn, members, remote),
                members[turn:] + members[:turn],
            )
            for turn in range(len(members))
        ]

    # the Pairing protocol (arena.tournament.pairing), as the runner's game slots use it
    def start(self, schedule: Sequence[ScheduledGame], done: object) -> int:
        return len(self.queue)

    def next_game(self, avoid: Avoid = never) -> ScheduledGame | None:
        """The next planned game, in order (the deals a stopped run left half played come
        first and must be completed), except that a slot takes the first of the next
        ``LOOKAHEAD`` it need not avoid: its bots that played a deal's first rotation would be
        replaced for its second (``arena.referee.pool``), as the round robin does."""
        if not self.queue or self.deadline_passed():
            return None
        ahead = itertools.islice(self.queue, LOOKAHEAD)
        return self.queue.pop(first_least_avoided(ahead, avoid))

    def game_recorded(self, scheduled: ScheduledGame, record: MatchRecord) -> None:
        group = f"{self.ladder_id}/{scheduled.pod}/{scheduled.deal}"
        result = _seat_results(scheduled, record, self.version_ids, group)
        self.tallies[len(record.seats)].add(result)
        self.played += 1

    def narrower_than(
        self, width: float, lineup: Lineup, games_of: Callable[[int], Sequence[GameResult]]
    ) -> bool:
        """Whether every playing entrant's 95% interval on every board is narrower than
        ``width``: the leaderboard's fit, of the board's games read by ``games_of(players)``
        (the tally cannot serve its bootstrap), checked first from the tally without bootstrap,
        which is cheaper and never wider. (Matchmaking's ``ratings`` would not do: its
        intervals are not centred as the leaderboard's, and never narrower than the prior's
        spread over the entrants; a ladder told to stop at a width the board showed long
        since played on: outside review.)"""
        for players in self.rules.boards:
            wanted = [str(lineup.version_ids[p]) for p in lineup.active]
            quick = fit_finishes(self.tallies[players].finishes(), bootstrap=0)
            if any(_too_wide(quick.get(player), width) for player in wanted):
                return False
            fit = fit_batch(games_of(players))
            if any(_too_wide(fit.get(player), width) for player in wanted):
                return False
        return True


def _too_wide(rating: BatchRating | None, width: float) -> bool:
    """No rating (no game on the board yet), or a 95% interval ``width`` wide or wider: a
    one-sided one is open at one end, as the leaderboard shows it (a bot that has only ever
    forfeited, or never lost)."""
    return rating is None or bool(rating.bound) or rating.high - rating.low >= width


class _Ladder:
    """One run of a ladder."""

    def __init__(
        self,
        database: Database,
        ladder: Tournament,
        rounds: Rounds,
        settings: TournamentSettings,
        until: Until,
        observer: LadderObserver,
    ) -> None:
        assert ladder.id is not None
        self.database = database
        self.ladder = ladder
        self.id = ladder.id
        self.rules = rounds.rules
        self.rounds = rounds
        self.settings = settings
        self.until = until
        self.observer = observer
        self.checked: set[int] = set()  # versions whose code was found unchanged on disk
        self.storage_fault: StorageError | None = None
        self.why = ""
        self.started = 0  # rounds started by this run
        self.pace = (
            Pace.of(self.rules.games_per_hour, self.rules.boards)
            if self.rules.games_per_hour
            else None
        )
        self.waiting_until: datetime | None = None  # the last wait announced
        self.live = LiveGames(database, ladder.id, ladder.game, dict(settings.options), [])

    def lineup(self) -> tuple[Lineup, dict[int, list[float]], int]:
        """The lineup (versions whose code changed on disk since they were submitted are
        paused), how many seconds ago each version's recent games finished (for the games per
        hour; none without a limit), and the ladder's finished games."""
        now = utc_now()
        with self.database.write() as session:
            found = ladder_store.lineup(
                session,
                self.id,
                self.ladder.game,
                fixed=self.rules.fixed,
                pause_after=self.rules.pause_after,
            )
            times = (
                ladder_store.finish_times(
                    session, self.id, now - timedelta(seconds=LOOKBACK_SECONDS)
                )
                if self.pace is not None
                else {}
            )
            finished = ladder_store.finished_games(session, self.id)
        for position in list(found.active):
            entrant = found.entrants[position]
            if entrant.version.id in self.checked:
                continue
            try:
                check_unchanged(entrant, "it was submitted; run `arena submit` on it again")
            except SetupError as exc:
                found.active.remove(position)
                found.paused[position] = str(exc)
                continue
            self.checked.add(entrant.version.id or 0)
        ages = {
            version: [(now - time).total_seconds() for time in stamps]
            for version, stamps in times.items()
        }
        return found, ages, finished

    def allowance(self, lineup: Lineup, ages: Mapping[int, list[float]]) -> dict[int, float] | None:
        """Games each version may start now (None: no games per hour)."""
        if self.pace is None:
            return None
        return {
            version: self.pace.allowance(ages.get(version, [])) for version in lineup.version_ids
        }

    def _games(self, players: int) -> list[GameResult]:
        """The ladder's finished games of ``players`` seats, from storage."""
        with self.database.read() as session:
            return finished_game_results(session, self.ladder.game, players, self.id)

    def done(self, lineup: Lineup, finished: int) -> bool:
        until = self.until
        if until.remaining_games(finished) == 0:
            self.why = f"reached {until.games} games"
        elif until.past_deadline():
            self.why = f"reached {until.deadline:%Y-%m-%d %H:%M %Z}"
        elif (
            until.width is not None
            and lineup.active
            and self.rounds.narrower_than(until.width, lineup, self._games)
        ):
            self.why = f"every interval narrower than {until.width:g}"
        return bool(self.why)

    async def run(
        self,
        bot_logs: Path | None,
        workers: int,
        ray: RayCluster | None,
        pin_cpus: bool = True,
    ) -> None:
        """Play rounds until ``until`` holds, a storage fault or the caller's cancellation."""
        lineup, ages, finished = await trio.to_thread.run_sync(self.lineup)
        self.observer.lineup(lineup)
        while not await trio.to_thread.run_sync(self.done, lineup, finished):
            setup = GameSetup(
                self.ladder.game,
                self.ladder.seed,
                [to_spec(entrant) for entrant in lineup.entrants],
                self.settings,
                bot_logs,
            )
            self.live.entrants = [
                (entrant.bot.name, entrant.version.id or 0) for entrant in lineup.entrants
            ]
            run = _Run(
                self.database,
                self.ladder,
                lineup.version_ids,
                self.rounds,
                self.observer,
                self.live,
            )
            with run.halt:  # cancelled by a storage fault
                async with backend(setup, workers, ray, pin_cpus) as games:
                    while True:
                        limit = self.until.remaining_games(finished)
                        first = self.rounds.next_round
                        plan = self.rounds.plan(
                            lineup,
                            self.allowance(lineup, ages),
                            limit,
                            self.settings.concurrency,
                        )
                        if plan:
                            self.waiting_until = None
                            await self._play(run, games, plan, lineup)
                            self.started += self.rounds.next_round - first
                            if run.changed is not None:  # a version's code changed on disk:
                                run.changed = None  # look again, so that it is paused (else
                                self.checked.clear()  # its games fail at once, round on round)
                        else:
                            await self._idle(lineup, ages)
                        newer, ages, finished = await trio.to_thread.run_sync(self.lineup)
                        if plan:
                            self.observer.games_played(len(plan), finished)
                        if newer.version_ids != lineup.version_ids or newer.paused != lineup.paused:
                            self.observer.lineup(newer)
                        joined = len(newer.entrants) != len(lineup.entrants)
                        lineup = newer
                        if joined or await trio.to_thread.run_sync(self.done, lineup, finished):
                            break  # a new entrant: the backend starts again with it
            if run.storage_fault is not None:
                self.storage_fault = run.storage_fault
                return

    async def _play(
        self, run: _Run, games: GamePlayer, plan: list[ScheduledGame], lineup: Lineup
    ) -> None:
        self.rounds.queue = list(plan)
        rounds = sorted({game.deal for game in plan})
        log.info(
            "%s: rounds %s: %d games", self.ladder.name, ", ".join(map(str, rounds)), len(plan)
        )
        async with trio.open_nursery() as watching:
            watching.start_soon(self._drop_withdrawn, lineup)
            async with trio.open_nursery() as slots:
                for number in range(min(self.settings.concurrency, len(plan))):
                    slots.start_soon(run.slot, number, games)
            watching.cancel_scope.cancel()

    async def _drop_withdrawn(self, lineup: Lineup) -> None:
        """Drop the planned games, not started yet, that seat a version whose bot the operator
        withdrew meanwhile (``arena bots withdraw``); the games in play finish."""
        ids = lineup.version_ids
        while True:
            await trio.sleep(WITHDRAWN_LOOK_SECONDS)
            try:
                withdrawn = await trio.to_thread.run_sync(self._withdrawn, ids)
            except StorageError:  # busy or failing: the next look, or the lineup, sees it
                continue
            out = {position for position, version in enumerate(ids) if version in withdrawn}
            kept = [game for game in self.rounds.queue if out.isdisjoint(game.seats)]
            if len(kept) < len(self.rounds.queue):
                log.info(
                    "%s: %d planned games dropped: %s withdrawn by the operator",
                    self.ladder.name,
                    len(self.rounds.queue) - len(kept),
                    ", ".join(sorted({lineup.entrants[position].bot.name for position in out})),
                )
                self.rounds.queue = kept

    def _withdrawn(self, version_ids: list[int]) -> dict[int, str]:
        with self.database.read() as session:
            return withdrawals.of_versions(session, version_ids)

    async def _idle(self, lineup: Lineup, ages: Mapping[int, list[float]]) -> None:
        """Wait until the games per hour let the next round start, or IDLE_SECONDS at most: a
        new version or a change of the lineup is seen at the next look."""
        paced = None
        if self.pace is not None:
            active = [lineup.version_ids[position] for position in lineup.active]
            paced = self.pace.next_round_in(ages, active, min(self.rules.boards))
        wait = IDLE_SECONDS if paced is None else min(IDLE_SECONDS, paced)
        if self.until.deadline is not None:
            wait = min(wait, max(0.0, (self.until.deadline - utc_now()).total_seconds()))
        if paced is None:
            log.info("%s: nobody may play now; looking again in %.0f s", self.ladder.name, wait)
        else:
            self._announce_wait(utc_now() + timedelta(seconds=paced))
        await trio.sleep(max(wait, SHORTEST_WAIT))

    def _announce_wait(self, until: datetime) -> None:
        """Tell once (not at every look) until when the games per hour hold the round back."""
        last = self.waiting_until
        if last is not None and abs((until - last).total_seconds()) < 1.0:
            return
        self.waiting_until = until
        log.info(
            "%s: the next round waits for the games per hour until %s",
            self.ladder.name,
            until.astimezone().strftime("%H:%M:%S %Z"),
        )
        self.observer.waiting(until)


class LadderObserver(QuietObserver):
    """What a running ladder reports (the CLI prints it): its lineup and rounds, and each game
    as the runner's slots start and end it (``TournamentObserver``); by default nothing."""

    def lineup(self, lineup: Lineup) -> None: ...

    def games_played(self, games: int, finished: int) -> None:
        """``games`` more were played (one or more rounds); the ladder has ``finished``."""

    def waiting(self, until: datetime) -> None:
        """The next round may not start before ``until`` (aware): the games per hour."""


def _load(
    database: Database, ladder_id: int
) -> tuple[Tournament, dict[int, FinishTally], Progress]:
    with database.read() as session:
        ladder = session.get(Tournament, ladder_id)
        assert ladder is not None
        settings = TournamentSettings.from_stored(ladder.settings)
        assert settings.ladder is not None, "a ladder"
        rules = LadderRules.from_stored(settings.ladder)
        tallies = {
            players: FinishTally(
                each_finished_game_result(session, ladder.game, players, ladder_id)
            )
            for players in rules.boards
        }
        return ladder, tallies, ladder_store.progress(session, ladder_id)


def _set_state(database: Database, ladder_id: int, state: str) -> None:
    with database.write() as session:
        tournaments.set_state(session, ladder_id, state)


@running_alone("ladder")  # a second run of it at once is refused
@restores_stop_handlers  # a second Ctrl-C waits for the first's stop
async def run_ladder(
    database: Database,
    ladder_id: int,
    until: Until = Until(),
    observer: LadderObserver | None = None,
    *,
    bot_logs: Path | None = None,
    log_retention: Retention | None = None,
    workers: int = 1,
    pin_cpus: bool = True,
    ray: RayCluster | None = None,
) -> LadderSummary:
    """Run the stored ladder ``ladder_id`` until ``until`` holds or a signal stops it; the bots'
    logs in ``bot_logs`` kept within ``log_retention`` meanwhile. ``workers``, ``pin_cpus`` and
    ``ray`` as for a tournament (``arena.tournament.runner.run_tournament``)."""
    ladder, tallies, progress = await trio.to_thread.run_sync(_load, database, ladder_id)
    settings = TournamentSettings.from_stored(ladder.settings)
    assert settings.ladder is not None
    rules = LadderRules.from_stored(settings.ladder)
    rounds = Rounds(ladder_id, ladder.seed, rules, tallies, progress)
    rounds.deadline_passed = until.past_deadline
    this = _Ladder(database, ladder, rounds, settings, until, observer or LadderObserver())
    stop = StopSignal()
    await trio.to_thread.run_sync(_set_state, database, ladder_id, tournaments.RUNNING)
    log.info(
        "%s: ladder of %s, boards %s, from round %d, %d at once",
        ladder.name,
        ladder.game,
        ", ".join(f"{p} players" for p in rules.boards),
        progress.next_round,
        settings.concurrency,
    )
    try:
        async with trio.open_nursery() as outer:
            await outer.start(stop.watch, outer.cancel_scope)
            await outer.start(this.live.keep)
            if bot_logs is not None and log_retention:
                outer.start_soon(keep_pruned, bot_logs, log_retention)
            await this.run(bot_logs, workers, ray, pin_cpus)
            outer.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        # A slot that cannot play (as in a tournament), or the storage failing while the lineup
        # is read between rounds: one line for the user.
        matched, rest = group.split((SetupError, StorageError))
        if matched is None or rest is not None:
            raise
        first: BaseException = matched
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        log.error("%s: %s", ladder.name, first)
        if not isinstance(first, StorageError):
            raise first from None
        this.storage_fault = first  # the lineup unreadable: stopped like a game left unrecorded
    if this.storage_fault is not None:
        try:
            await trio.to_thread.run_sync(_set_state, database, ladder_id, tournaments.STOPPED)
        except StorageError:
            pass
        raise stopped_by(
            this.storage_fault, "ladder", f"start it again with `arena ladder --name {ladder.name}`"
        )
    await trio.to_thread.run_sync(_set_state, database, ladder_id, tournaments.STOPPED)
    lineup, _, finished = await trio.to_thread.run_sync(this.lineup)
    why = "stopped by a signal" if stop.received else this.why
    log.info(
        "%s: %s; %d games in all, %d recorded by this run",
        ladder.name,
        why,
        finished,
        rounds.played,
    )
    return LadderSummary(
        ladder.name,
        finished,
        rounds.played,
        this.started,
        stop.received,
        why,
        {lineup.entrants[p].label: reason for p, reason in lineup.paused.items()},
    )
