"""The checks that play games: every game the bot claims at 2 and at the most seats, against the
random bot and against itself; every decision kind those games did not reach, played from a
constructed position (``arena.positions``) where it is next; reply times against the limit; the
same seed giving the same game (a bot the arena starts); several games at once in one process
(an address bot)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from arena.manifest import BotSpec
from arena.positions import Position, decision_kinds, position
from arena.records import MatchRecord, Outcome, TimeControl
from arena.referee.match import END_GAME_SECONDS, Decision, MatchObserver, play_match
from arena.sandbox import SandboxPolicy
from arena.validation.report import Check, Report, Status
from engine.registry import get_game

CONCURRENT_GAMES = 3

# The last words of the CRASH hint: a hosted arena's worker quotes the log instead
# (arena.submissions.worker).
BOT_LOGS_TRY = "run `arena validate` with --bot-logs DIR to read all of it"
OUTCOME_HINTS = {
    Outcome.ILLEGAL: "reply to every Decide with the request's decision_number and an index into "
    "its legal_actions",
    Outcome.TIMEOUT: "reply within the per-decision limit (DecisionRequest.clock)",
    Outcome.CRASH: f"the error shown comes from the bot's output; {BOT_LOGS_TRY}",
}


class _Watcher(MatchObserver):
    """Collects the kinds and reply times of the decisions the tested bot's seats made."""

    def __init__(self, seats: Sequence[int], kinds: set[str], seconds: list[float]) -> None:
        self.seats, self.kinds, self.seconds = set(seats), kinds, seconds

    def decision_made(self, decision: Decision, state: Any) -> None:
        if decision.seat in self.seats and not decision.by_arena:
            self.kinds.add(decision.kind)
            self.seconds.append(decision.seconds)


@dataclass
class GamePlayer:
    """Plays the validation's games and keeps what the later checks need."""

    spec: BotSpec
    opponent: BotSpec
    seed: int
    time_control: TimeControl
    sandbox: SandboxPolicy | None = None  # how local bots are confined, as in a match
    bot_logs: Path | None = None  # keep the logs: a directory per game under this one
    seconds: list[float] = field(default_factory=list)
    forgiven: list[str] = field(default_factory=list)  # games lost on time, then played again
    first_record: MatchRecord | None = None  # the first game against the random bot

    def lineup(
        self, seats: int, against_itself: bool, tested: int = 0
    ) -> tuple[list[BotSpec], list[int]]:
        """The bots of a game, the tested bot in seat ``tested`` (in every seat against
        itself), the random bot in the others."""
        if against_itself:
            return [self.spec] * seats, list(range(seats))
        bots = [self.opponent] * seats
        bots[tested] = self.spec
        return bots, [tested]

    async def play(
        self,
        game: str,
        seats: int,
        against_itself: bool,
        kinds: set[str],
        label: str = "",
        start: Position | None = None,
    ) -> MatchRecord:
        """One game; from ``start`` if given (its options and seed; the tested bot in the seat
        that decides next there)."""
        bots, tested = self.lineup(seats, against_itself, start.seat if start else 0)
        for attempt in ("", "-again"):
            logs = None
            if self.bot_logs is not None:
                logs = self.bot_logs / logs_name(game, seats, against_itself, label + attempt)
                logs.mkdir(parents=True, exist_ok=True)
            seconds: list[float] = []
            record = await play_match(
                game,
                bots,
                self.seed if start is None else start.seed,
                options=None if start is None else start.options,
                opening=() if start is None else start.actions,
                time_control=self.time_control,
                observer=_Watcher(tested, kinds, seconds),
                sandbox=self.sandbox,
                bot_logs=logs,
            )
            late = [record.seats[seat] for seat in tested]
            late = [seat for seat in late if seat.outcome is Outcome.TIMEOUT]
            if not late or attempt:
                break
            # Once: a pause of a loaded host is not the bot's. A bot slow at that decision
            # (the same seed gives the same game) is late again, and that game counts.
            self.forgiven.append(f"{game} ({late[0].reason})")
        self.seconds.extend(seconds)
        return record

    async def check_game(self, game: str, report: Report) -> None:
        """Every match of ``game``; after a failed one the rest of the game is skipped."""
        engine = get_game(game)
        kinds: set[str] = set()
        failed = False
        for seats in sorted({max(2, engine.min_players), engine.max_players}):
            for against_itself in (False, True):
                name = f"{game}, {seats} seats, {'vs itself' if against_itself else 'vs random'}"
                if failed:
                    report.add(Check(name, Status.SKIP, "after the failure above"))
                    continue
                record = await self.play(game, seats, against_itself, kinds)
                if self.first_record is None and not against_itself:
                    self.first_record = record
                check = match_check(name, record, self.spec.name, against_itself)
                check = self.kept(check, logs_name(game, seats, against_itself))
                failed = report.add(check).status is Status.FAIL
        reached_in_play = set(kinds)
        for kind in decision_kinds(game):
            if failed or kind in kinds:
                continue
            try:
                start = position(game, kind)
            except KeyError:  # a game without recorded positions: the kind stays unreached
                continue
            failed = report.add(await self.check_position(start, kinds)).status is Status.FAIL
        report.add(kinds_check(game, kinds, reached_in_play, played=not failed))

    async def check_position(self, start: Position, kinds: set[str]) -> Check:
        """A game from ``start``, the tested bot in the seat to decide its kind: it must answer
        that decision legally and play on to the end."""
        label = f"-{start.kind}"
        reached: set[str] = set()
        record = await self.play(start.game, start.num_players, False, reached, label, start)
        kinds |= reached
        check = position_check(start, record, reached, self.spec.name)
        return self.kept(check, logs_name(start.game, start.num_players, False, label))

    async def check_concurrent(self, game: str, report: Report) -> None:
        """An address bot: several games at once, all against the random bot."""
        name = "games at once"
        records: list[MatchRecord] = []

        async def one(number: int) -> None:
            records.append(await self.play(game, 2, False, set(), f"-at-once-{number}"))

        async with trio.open_nursery() as nursery:
            for number in range(CONCURRENT_GAMES):
                nursery.start_soon(one, number)
        failures = [
            check
            for record in records
            if (check := match_check(name, record, self.spec.name, False)).status is Status.FAIL
        ]
        if failures:
            report.add(
                Check.failed(
                    name,
                    failures[0].detail,
                    "serve calls concurrently: one process plays several games "
                    "and seats at once; keep each game's state by its game_id",
                )
            )
        else:
            report.add(
                Check.passed(
                    name, f"{CONCURRENT_GAMES} games of {game} at once in one process, all finished"
                )
            )

    async def check_reproducible(self, report: Report) -> None:
        """The first game against the random bot, again with the same seed: the same actions."""
        name = "same seed, same game"
        first = self.first_record
        if first is None or any(seat.outcome is not Outcome.FINISHED for seat in first.seats):
            report.add(Check(name, Status.SKIP, "no finished game to repeat"))
            return
        label = "-again"
        again = await self.play(first.game, first.num_players, False, set(), label)
        if again.actions == first.actions:
            report.add(
                Check.passed(
                    name,
                    f"{first.game} with seed {first.seed} twice: the same "
                    f"{len(first.actions)} actions",
                )
            )
            return
        step = next(
            (i for i, (a, b) in enumerate(zip(first.actions, again.actions)) if a != b),
            min(len(first.actions), len(again.actions)),
        )
        failed = Check.failed(
            name,
            f"{first.game} with seed {first.seed} twice: the games part at action {step}",
            "seed all randomness from ARENA_BOT_SEED "
            "(sdk.seeded_random(), sdk.seededRandom()); "
            "do not depend on the time, unseeded hashes or thread timing",
        )
        report.add(self.kept(failed, logs_name(first.game, first.num_players, False, label)))

    def kept(self, check: Check, logs: str) -> Check:
        """``check``, naming the directory of its game's logs if they are kept."""
        return check if self.bot_logs is None else check.kept_in(logs)

    def times_check(self) -> Check:
        name = "reply times"
        limit = self.time_control.move_seconds
        if not self.seconds:
            return Check(name, Status.SKIP, "no decision was made")
        median, slowest = statistics.median(self.seconds), max(self.seconds)
        detail = (
            f"median {median * 1000:.1f} ms, max {slowest * 1000:.1f} ms over "
            f"{len(self.seconds)} decisions (limit {limit:g} s)"
        )
        if self.forgiven:
            detail += f"; lost on time, then played again: {', '.join(self.forgiven)}"
        if slowest > limit:
            return Check.failed(name, detail, OUTCOME_HINTS[Outcome.TIMEOUT])
        if slowest > limit / 2 or self.forgiven:
            return Check(
                name,
                Status.WARN,
                detail,
                "keep a margin below the limit: a loaded "
                "machine or a network adds time (DecisionRequest.clock tells what is left)",
            )
        return Check.passed(name, detail)


def logs_name(game: str, seats: int, against_itself: bool, label: str = "") -> str:
    """The directory of a game's logs under ``--bot-logs``."""
    return f"{game}-{seats}-seats-vs-{'itself' if against_itself else 'random'}{label}"


def position_check(start: Position, record: MatchRecord, reached: set[str], bot_name: str) -> Check:
    """PASS if the tested bot answered ``start``'s kind legally and played on to the end."""
    name = f"{start.game}, {start.kind} from a position"
    where = (
        f"seed {start.seed}, {start.num_players} seats, after {len(start.actions)} "
        "decisions made by the arena"
    )
    check = match_check(name, record, bot_name, False, start.seat)
    if check.status is Status.FAIL:
        return Check.failed(name, f"{where}: {check.detail}", check.hint)
    if start.kind not in reached:
        return Check.failed(
            name, f"{where}: the bot was not asked", "a fault of the arena: please report it"
        )
    return Check.passed(name, f"{where}: answered it, then {check.detail}")


def match_check(
    name: str, record: MatchRecord, bot_name: str, against_itself: bool, seat: int = 0
) -> Check:
    """PASS if every seat of the tested bot (``seat``, or every one against itself) finished;
    else its first forfeit, with a hint."""
    if record.voided:
        return Check.failed(
            name,
            f"game voided: {record.void_reason}",
            "a fault on the arena's side, not the bot's: please report it",
        )
    tested = record.seats if against_itself else record.seats[seat : seat + 1]
    for one in tested:
        if one.outcome is not Outcome.FINISHED:
            return Check.failed(
                name,
                f"seat {one.seat}: {one.outcome.value}: {one.reason}",
                OUTCOME_HINTS[one.outcome],
            )
    decisions = sum(one.decisions for one in tested)
    ranks = ", ".join(str(one.rank) for one in tested)
    plural = "" if decisions == 1 else "s"
    finished = f"finished: {decisions} decision{plural}, rank {ranks} of {record.num_players}"
    if unanswered := [one.seat for one in tested if one.end_unanswered]:
        return Check(
            name,
            Status.WARN,
            f"{finished}; EndGame not acknowledged within {END_GAME_SECONDS:g} s (seat "
            f"{', '.join(map(str, unanswered))})",
            "return from EndGame at once: a tournament replaces the process of a bot that "
            "leaves it unanswered, and starts a new one for its next game",
        )
    return Check.passed(name, finished)


def kinds_check(
    game: str, reached: set[str], reached_in_play: set[str] | None = None, *, played: bool
) -> Check:
    """Every kind of ``game`` reached, in the games played or from constructed positions (the
    kinds not in ``reached_in_play``)."""
    name = f"{game}, decision kinds"
    if not played:
        return Check(name, Status.SKIP, "not every game was played")
    every = decision_kinds(game)
    missing = [kind for kind in every if kind not in reached]
    if missing:
        return Check(
            name,
            Status.WARN,
            f"reached {len(every) - len(missing)} of {len(every)}; not reached: "
            f"{', '.join(missing)}",
            f"random play missed them and the arena has no position for them (a game added "
            f"since `python -m arena.positions` last ran): make sure the bot answers them "
            f"(docs/rules/{game}.md lists every kind and its options)",
        )
    constructed = [kind for kind in every if kind not in (reached_in_play or reached)]
    how = f" ({', '.join(constructed)} from positions)" if constructed else ""
    return Check.passed(name, f"reached all {len(every)}{how}: {', '.join(every)}")
