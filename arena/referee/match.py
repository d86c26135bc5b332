"""The referee: one game between bots, with clocks and the failure policy of DESIGN.md.

Failure policy, per seat:

* ILLEGAL: an index out of range, a reply for another decision number, a malformed reply, or a
  handshake that does not fit (another protocol version, a game the bot does not play);
* TIMEOUT: no reply within the per-decision limit plus what is left of the time bank;
* CRASH: the process died, the connection was lost, the bot never became ready or failed a call.

A forfeiting seat is stopped at once and ranked last (after all finishers; forfeiters share that
rank). The arena makes its remaining decisions by the game's fixed default
(``GameState.default_action_index``: the first legal action unless the rules name another, as
Merkator's rule 8.17 does), so the others finish their game. A fault on the arena's side (an engine
or
encoding error) voids the game: ``voided=True``, not rated, to be re-run with the same seed.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import grpc
import trio

from arena.bot.v1 import bot_pb2
from arena.bot_tree import holds_code
from arena.errors import (
    AnsweredTwiceError,
    BotChangedError,
    ExtraReplyError,
    HandshakeMismatchError,
    MalformedReplyError,
    NotReadyError,
    SetupError,
)
from arena.manifest import BotSpec
from arena.protocol import COMMENT_LIMIT
from arena.records import LogSlice, MatchRecord, Outcome, SeatRecord, TimeControl, arena_ranks
from arena.referee.bot_text import REASON_LIMIT, one_line
from arena.referee.botprocess import RunningBot, connect, run_bot
from arena.referee.client import RECEIVE_LIMIT_BYTES, BotClient
from arena.referee.pool import LeasedBot, PoolLender, log_size, log_started, log_stopping
from arena.sandbox import SandboxPolicy
from arena.sandbox.limits import BotLimits
from arena.sandbox.relay import SECOND_REPLY
from arena.sandbox.tempdirs import new_match_dir, remove_tree
from arena.wire.requests import DecisionEncoder, options_to_proto
from engine.core import EngineError, GameState
from engine.registry import get_game

# How gRPC words a reply over the channel's receive limit (arena.referee.client), as it came or
# once unpacked (a small gzip of a huge message), and metadata over its own limit.
_TOO_LARGE = ("Received message larger than max", "Decompressed message larger than max")
_METADATA_TOO_LARGE = "metadata size exceeds"
END_GAME_SECONDS = 2.0  # EndGame's deadline: the game is decided, its reply only acknowledges
_EXIT_WAIT_SECONDS = 0.2
_DETAILS_CHARS = 200  # of a bot's error message in a reason (the rest says how it ended)
_CLOCK_SLACK_SECONDS = 0.05  # gRPC's deadline against the referee's own clock


class _HungUpError(Exception):
    """The game was cancelled while its decision thread ran: the thread stops."""


@dataclass(frozen=True)
class Decision:
    """One decision of a match as it was played, for observers."""

    number: int
    seat: int
    kind: str
    action: Any  # the legal action chosen
    index: int  # its index among the legal actions
    seconds: float  # the seat's time to answer
    by_arena: bool  # a forfeited seat's decision, made by the arena (the game's default)
    comment: str  # the bot's note, at most COMMENT_LIMIT characters


class MatchObserver:
    """Callbacks while a match runs (``arena match --show``); override what you need. All are
    called in trio's thread except ``decision_made``: the decisions are played in a thread of
    their own, which calls it (reach trio from it only through ``trio.from_thread``)."""

    def match_started(self, state: GameState, players: Sequence[str]) -> None: ...

    def decision_made(self, decision: Decision, state: GameState) -> None:
        """After ``decision`` was applied to ``state``, in the match's decision thread."""

    def seat_forfeited(self, seat: int, outcome: Outcome, reason: str) -> None: ...

    def match_finished(self, record: MatchRecord, state: GameState) -> None: ...


@dataclass
class _Seat:
    index: int
    spec: BotSpec
    bank_left: float
    bot: RunningBot | None = None
    client: BotClient | None = None
    outcome: Outcome = Outcome.FINISHED
    reason: str = ""
    time_used: float = 0.0
    decisions: int = 0
    leased: LeasedBot | None = None  # lent by a pool of bots that stay up, given back after
    ended: bool = False  # the bot acknowledged EndGame
    # The game's id for this seat: unique per game and seat (bot.proto), so that one process
    # playing two seats of a game can tell them apart.
    game_id: str = ""
    events_sent: int = 0  # how much of the state's event log the seat has been told
    log: LogSlice | None = None  # what its bot wrote during this game, if its log is kept

    @property
    def playing(self) -> bool:
        return self.outcome is Outcome.FINISHED and self.client is not None

    @property
    def connected(self) -> BotClient:
        """The client of a seat still playing (the only seats the referee calls)."""
        assert self.client is not None, "a seat without a connection is not called"
        return self.client


class _Referee:
    def __init__(
        self,
        game: str,
        state: GameState,
        specs: Sequence[BotSpec],
        time_control: TimeControl,
        observer: MatchObserver | None,
        opening: Sequence[int] = (),
    ) -> None:
        self.game = game
        self.opening = opening
        self.state = state
        self.time_control = time_control
        self.observer = observer or MatchObserver()
        game_id = uuid.uuid4().hex
        self.seats = [
            _Seat(i, spec, time_control.bank_seconds, game_id=f"{game_id}-{i}")
            for i, spec in enumerate(specs)
        ]
        self.encoder = DecisionEncoder(game)
        # Per decision, for the record: the seat's time to answer (None: the arena decided).
        self.decision_seconds: list[float | None] = []
        self.comments: list[str] = []
        self.hung_up = False  # the game was cancelled: every seat's client closed
        self.trio_token = trio.lowlevel.current_trio_token()  # the decision thread's way back

    # --- failures ------------------------------------------------------------------------------
    async def forfeit(self, seat: _Seat, outcome: Outcome, reason: str) -> None:
        if seat.outcome is not Outcome.FINISHED:
            return
        reason = one_line(reason, REASON_LIMIT)  # it may quote the bot: printed and stored
        seat.outcome, seat.reason = outcome, reason
        if seat.client is not None:
            seat.client.close()
        if seat.bot is not None:
            with trio.CancelScope(shield=True):
                await seat.bot.stop()
        self.observer.seat_forfeited(seat.index, outcome, reason)

    async def rpc_failure(
        self,
        seat: _Seat,
        call: str,
        exc: grpc.RpcError,
        timeout: float,
        elapsed: float | None = None,
        bank: float = 0.0,
    ) -> None:
        """The seat's forfeit for a failed call; ``bank``: the part of ``timeout`` that was
        the seat's time bank."""
        code = exc.code()
        # A bot may answer with DEADLINE_EXCEEDED itself, at once: not a timeout of the arena's
        # clock (it was recorded as "no reply within 2 s" after 5 ms; outside review).
        own_status = elapsed is not None and elapsed < timeout - _CLOCK_SLACK_SECONDS
        if code == grpc.StatusCode.DEADLINE_EXCEEDED and not own_status:
            limit = _limit_text(timeout, bank)
            await self.forfeit(seat, Outcome.TIMEOUT, f"no {call} reply within {limit}")
            return
        # over the client's receive limit: gRPC's words hold the reply's size, but a bot may
        # send that status and those words itself, so no number of theirs is quoted as ours
        details = exc.details() or ""
        if code == grpc.StatusCode.RESOURCE_EXHAUSTED and any(w in details for w in _TOO_LARGE):
            what = f"{call} reply over the {RECEIVE_LIMIT_BYTES} byte limit"
            await self.forfeit(seat, Outcome.ILLEGAL, what)
            return
        if code == grpc.StatusCode.RESOURCE_EXHAUSTED and _METADATA_TOO_LARGE in details:
            await self.forfeit(seat, Outcome.ILLEGAL, f"{call} reply's metadata over the limit")
            return
        if code == grpc.StatusCode.INTERNAL and details == SECOND_REPLY:
            # the frame filter ended the call at a second reply (a bot may forge the status:
            # it forfeits all the same)
            what = f"answered {call} twice (the call takes one reply)"
            await self.forfeit(seat, Outcome.ILLEGAL, what)
            return
        if seat.bot is not None:
            # let a dying process be reaped, or a remote bot's filter that cut it end (its reason)
            with trio.move_on_after(_EXIT_WAIT_SECONDS):
                await seat.bot.ended()
        # gRPC reports a bot's exception without a message as "Exception calling application: ".
        details = one_line(exc.details() or "", _DETAILS_CHARS).rstrip(": ")
        what = (
            f"{call} failed: {code.name}: {details}" if details else f"{call} failed: {code.name}"
        )
        await self.forfeit(seat, Outcome.CRASH, seat.bot.crash_reason(what) if seat.bot else what)

    # --- phases --------------------------------------------------------------------------------
    async def start_bots(
        self,
        stack: AsyncExitStack,
        workdir: Path,
        limits: BotLimits,
        bot_logs: Path | None,
        sandbox: SandboxPolicy | None,
    ) -> None:
        for seat in self.seats:
            try:
                seat.bot = await stack.enter_async_context(
                    run_bot(
                        seat.spec,
                        seat.index,
                        self.state.seed,
                        workdir,
                        limits=limits,
                        log_dir=bot_logs,
                        sandbox=sandbox,
                    )
                )
            except NotReadyError as exc:
                await self.forfeit(seat, Outcome.CRASH, f"never became ready: {exc}")
            else:
                log_started(seat.bot, kept_up=False)
                stack.callback(log_stopping, seat.bot)
        async with trio.open_nursery() as nursery:
            for seat in self.seats:
                if seat.bot is not None:
                    nursery.start_soon(self.connect, seat)

    async def lease_bots(self, lender: PoolLender) -> None:
        """Borrow every seat's running bot (started and connected now if the pool has none)."""

        async def lease(seat: _Seat, occurrence: int) -> None:
            try:
                seat.leased = await lender.lease(
                    seat.spec, occurrence, self.time_control.ready_seconds, self.state.seed
                )
            except NotReadyError as exc:
                await self.forfeit(seat, *_not_ready(exc))
            except HandshakeMismatchError as exc:
                await self.forfeit(seat, Outcome.ILLEGAL, f"handshake: {exc}")
            else:
                seat.bot, seat.client = seat.leased.bot, seat.leased.client

        async with trio.open_nursery() as nursery:
            for seat in self.seats:
                occurrence = sum(other.spec == seat.spec for other in self.seats[: seat.index])
                nursery.start_soon(lease, seat, occurrence)

    async def connect(self, seat: _Seat) -> None:
        assert seat.bot is not None
        try:
            seat.client, _ = await connect(seat.bot, self.game, self.time_control.ready_seconds)
        except NotReadyError as exc:
            await self.forfeit(seat, *_not_ready(exc))
        except HandshakeMismatchError as exc:
            await self.forfeit(seat, Outcome.ILLEGAL, f"handshake: {exc}")

    async def start_game(self) -> None:
        names = [seat.spec.name for seat in self.seats]
        tc = self.time_control
        base = bot_pb2.StartGameRequest(
            game=self.game,
            rules_version=self.state.game.rules_version,
            num_players=len(self.seats),
            player_names=names,
            options=options_to_proto(self.state.options),
            time_control=bot_pb2.TimeControl(
                move_seconds=tc.move_seconds, bank_seconds=tc.bank_seconds
            ),
        )

        async def start(seat: _Seat) -> None:
            request = bot_pb2.StartGameRequest()
            request.CopyFrom(base)
            request.seat = seat.index
            request.game_id = seat.game_id
            try:
                await seat.connected.start_game(request, tc.ready_seconds)
            except grpc.RpcError as exc:
                await self.rpc_failure(seat, "StartGame", exc, tc.ready_seconds)
            except MalformedReplyError as exc:
                await self.forfeit(seat, Outcome.ILLEGAL, f"malformed StartGame reply: {exc}")
            except ExtraReplyError:
                await self.forfeit(
                    seat, Outcome.ILLEGAL, "answered StartGame twice (the call takes one reply)"
                )

        async with trio.open_nursery() as nursery:
            for seat in self.seats:
                if seat.playing:
                    nursery.start_soon(start, seat)

    def ask_here(
        self, seat: _Seat, number: int, legal: Sequence[Any]
    ) -> tuple[bot_pb2.DecisionReply | None, float]:
        """The seat's valid reply (None after a forfeit) and its time to answer: the call's,
        which the limit judges, not the request's encoding (a loaded referee's pauses before
        the call are not the bot's). Runs in the decision thread (``play``): the call blocks
        it, and a forfeit is handed to trio."""
        move = self.time_control.move_seconds
        timeout = move + seat.bank_left
        state = self.state
        request = self.encoder.request(
            seat.game_id, number, state, seat.index, legal, move, seat.bank_left, seat.events_sent
        )
        seat.events_sent = len(state.event_log)
        started = time.perf_counter()
        try:
            reply = seat.connected.decide(request, timeout)
        except grpc.RpcError as exc:
            elapsed = time.perf_counter() - started
            seat.time_used += elapsed
            bank = seat.bank_left
            self.from_thread(self.rpc_failure, seat, "Decide", exc, timeout, elapsed, bank)
            return None, elapsed
        except MalformedReplyError as exc:
            elapsed = time.perf_counter() - started
            seat.time_used += elapsed
            self.from_thread(self.forfeit, seat, Outcome.ILLEGAL, f"malformed Decide reply: {exc}")
            return None, elapsed
        elapsed = time.perf_counter() - started
        seat.time_used += elapsed
        seat.decisions += 1
        bank = seat.bank_left
        seat.bank_left -= max(0.0, elapsed - move)
        if seat.bank_left < 0:
            self.from_thread(
                self.forfeit,
                seat,
                Outcome.TIMEOUT,
                f"decision {number} took {elapsed:.3g} s; limit {_limit_text(timeout, bank)}",
            )
        elif reply.decision_number != number:
            self.from_thread(
                self.forfeit,
                seat,
                Outcome.ILLEGAL,
                f"replied for decision {reply.decision_number} to decision {number}",
            )
        elif not 0 <= reply.action_index < len(legal):
            self.from_thread(
                self.forfeit,
                seat,
                Outcome.ILLEGAL,
                f"index {reply.action_index} out of range 0..{len(legal) - 1} at decision {number}",
            )
        else:
            return reply, elapsed
        return None, elapsed

    def from_thread(self, function: Callable[..., Awaitable[None]], *args: Any) -> None:
        """Run ``function(*args)`` in trio from the decision thread, unless the game was hung up
        (the thread is then on its way out)."""
        if self.hung_up:
            raise _HungUpError
        trio.from_thread.run(function, *args, trio_token=self.trio_token)

    async def play(self) -> None:
        """The decisions, played in a thread of their own: each Decide is a blocking call made
        by that thread, with no hand-off to another thread and back (``arena.referee.client``),
        which takes a third off the referee's CPU per decision (docs/scale.md). If this task is
        cancelled, every seat is hung up, which ends the call in flight, and the thread
        returns."""
        self.observer.match_started(self.state, [seat.spec.name for seat in self.seats])
        task = trio.lowlevel.current_task()

        def deliver(result: Any) -> None:  # in the thread as it ends: its outcome.Outcome
            self.trio_token.run_sync_soon(trio.lowlevel.reschedule, task, result)

        def abort(_: Any) -> trio.lowlevel.Abort:
            self.hang_up()
            return trio.lowlevel.Abort.FAILED  # wait for the thread; then Cancelled is raised

        trio.lowlevel.start_thread_soon(self.play_here, deliver, name="arena-decisions")
        await trio.lowlevel.wait_task_rescheduled(abort)
        await trio.lowlevel.checkpoint_if_cancelled()

    def hang_up(self) -> None:
        self.hung_up = True  # first: the thread then takes a failed call for the hang-up
        for seat in self.seats:
            if seat.client is not None:
                seat.client.close()

    def play_here(self) -> None:
        """The game's decisions, in the decision thread."""
        try:
            self.play_decisions()
        except Exception:
            if not self.hung_up:
                raise  # else trio raises Cancelled once the thread has returned

    def play_decisions(self) -> None:
        state = self.state
        number = 0
        while (current := state.current_seat) is not None:  # None once the game is over
            seat = self.seats[current]
            kind = state.decision_kind
            legal = state.legal_actions()
            scripted = number < len(self.opening)
            reply, seconds = (
                self.ask_here(seat, number, legal) if seat.playing and not scripted else (None, 0.0)
            )
            if scripted:
                index = self.opening[number]
            else:
                index = state.default_action_index() if reply is None else reply.action_index
            comment = one_line(reply.comment, COMMENT_LIMIT) if reply and reply.comment else ""
            state.apply_index(index)
            self.decision_seconds.append(None if reply is None else seconds)
            self.comments.append(comment)
            self.observer.decision_made(
                Decision(
                    number, seat.index, kind, legal[index], index, seconds, reply is None, comment
                ),
                state,
            )
            number += 1

    def seat_records(self) -> list[SeatRecord]:
        """Every seat's record; score and rank 0 when the game did not reach its end."""
        if self.state.is_over:
            result = self.state.result()
            scores = [float(score) for score in result.scores]
            ranks = arena_ranks(
                result.ranks, [seat.outcome is not Outcome.FINISHED for seat in self.seats]
            )
        else:
            scores, ranks = [0.0] * len(self.seats), [0] * len(self.seats)
        return [
            SeatRecord(
                seat.index,
                seat.spec.name,
                scores[seat.index],
                ranks[seat.index],
                seat.outcome,
                seat.reason,
                seat.time_used,
                seat.decisions,
            )
            for seat in self.seats
        ]

    def note_own_logs(self) -> None:
        """After the bots started for this game alone have stopped: each one's whole kept log
        is this game's."""
        for seat in self.seats:
            if seat.leased is None and seat.bot is not None:
                end = log_size(seat.bot)
                if end is not None:
                    seat.log = LogSlice(str(seat.bot.log_path), 0, end)

    def with_logs(self, records: list[SeatRecord]) -> list[SeatRecord]:
        return [replace(record, log=self.seats[record.seat].log) for record in records]

    def with_end_answers(self, records: list[SeatRecord]) -> list[SeatRecord]:
        """``records`` marked where a seat that played to the end left EndGame unanswered."""
        return [
            replace(record, end_unanswered=seat.playing and not seat.ended)
            for record, seat in zip(records, self.seats, strict=True)
        ]

    def replaced_because(self, seat: _Seat, voided: bool) -> str:
        """Why a lent bot is not kept for the next game ("" if it is)."""
        if voided:
            return "the game was voided"
        if not seat.playing:
            return f"it forfeited ({seat.outcome.value})"
        if not seat.ended:
            return f"it did not acknowledge EndGame within {END_GAME_SECONDS:g} s"
        return ""

    async def end_game(self, requests: Callable[[_Seat], bot_pb2.EndGameRequest]) -> None:
        """Tell every seat still playing that the game is over (or voided), each with the
        request ``requests(seat)``."""

        async def end(seat: _Seat) -> None:
            try:
                await seat.connected.end_game(requests(seat), END_GAME_SECONDS)
                seat.ended = True
            except grpc.RpcError:  # EndGame's reply is parsed by gRPC: garbage is one too
                pass  # the game is decided; a bot failing to listen to its end changes nothing

        async with trio.open_nursery() as nursery:
            for seat in self.seats:
                if seat.playing:
                    nursery.start_soon(end, seat)

    async def release_bots(self, lender: PoolLender | None, voided: bool) -> None:
        """Close the clients; give lent bots back, healthy only if the game was not voided and
        the bot finished it and acknowledged its end (else the pool replaces it)."""
        with trio.CancelScope(shield=True):
            for seat in self.seats:
                if seat.leased is not None and lender is not None:
                    why = self.replaced_because(seat, voided)
                    seat.log = await lender.give_back(seat.leased, replaced_because=why)
                elif seat.client is not None:
                    seat.client.close()


def _changed(bots: Sequence[BotSpec]) -> BotSpec | None:
    """The first registered version whose directory no longer holds its code: its games would
    be recorded under code that is gone."""
    for spec in bots:
        if spec.content_hash is not None and spec.directory is not None:
            if not holds_code(spec.directory, spec.content_hash):
                return spec
    return None


_STARTING: trio.lowlevel.RunVar[trio.Semaphore] = trio.lowlevel.RunVar("arena_games_starting")


def starting_games() -> trio.Semaphore:
    """How many games of this process start or lease their bots at once: twice the cores it may
    use. A bot's ready time counts from its start, and hundreds of bots started together on a
    few cores miss it: forfeits that would be the arena's doing (``--concurrency 1000`` on 2
    cores, an outside review). A lease of a bot that is up takes a moment."""
    try:
        return _STARTING.get()
    except LookupError:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        starting = trio.Semaphore(max(2, 2 * (cores or 1)))
        _STARTING.set(starting)
        return starting


async def play_match(
    game: str,
    bots: Sequence[BotSpec],
    seed: int,
    *,
    options: Mapping | None = None,
    time_control: TimeControl = TimeControl(),
    observer: MatchObserver | None = None,
    ready_gate: Callable[[], Awaitable[None]] | None = None,
    limits: BotLimits = BotLimits(),
    bot_logs: Path | None = None,
    sandbox: SandboxPolicy | None = None,
    lender: PoolLender | None = None,
    opening: Sequence[int] = (),
) -> MatchRecord:
    """Play one game; never raises for a bot's misbehaviour (see the module's failure policy).
    Raises SetupError before starting anything if the game cannot be set up.
    ``ready_gate`` is awaited once every bot is ready, before StartGame (the benchmark uses it to
    start several matches' play at the same moment). Local bots run under ``limits``; their logs
    are kept in the existing directory ``bot_logs`` if given (else deleted after the game), and
    confined as ``sandbox`` says (``arena.sandbox``; None: as the arena's user, unconfined).
    With a ``lender`` (``arena.referee.pool``) the seats borrow bots that stay up across games
    instead (the pool's limits, logs and sandbox apply) and give them back after the game.
    ``opening`` (indices of legal actions) are the game's first decisions, made by the arena as
    for a forfeited seat: the bots play on from that position (``arena.positions``), told of
    the opening by the events of their first Decide."""
    began = time.perf_counter()
    try:
        engine = get_game(game)
        state = engine.new_game(len(bots), seed, options)
    except EngineError as exc:
        raise SetupError(str(exc)) from None
    if (changed := await trio.to_thread.run_sync(_changed, bots)) is not None:
        raise BotChangedError(
            f"bot {changed.name!r} changed in {changed.directory} since it was submitted: "
            "restore it, or run `arena submit` on it and play the new version"
        )
    referee = _Referee(engine.name, state, bots, time_control, observer, opening)
    void_reason = ""
    workdir = new_match_dir()
    try:
        async with AsyncExitStack() as stack:
            try:
                async with starting_games():
                    if lender is None:
                        await referee.start_bots(stack, workdir, limits, bot_logs, sandbox)
                    else:
                        await referee.lease_bots(lender)
                if ready_gate is not None:
                    await ready_gate()
                await referee.start_game()
                await referee.play()
                records = referee.seat_records()
                end = referee.encoder.end_requests(referee.state, records)
                await referee.end_game(lambda seat: end(seat.game_id, seat.index, seat.events_sent))
                records = referee.with_end_answers(records)
            except Exception as exc:  # noqa: BLE001 - any fault of ours voids the game
                void_reason = f"arena fault: {type(exc).__name__}: {exc}"
                records = referee.seat_records()
                await referee.end_game(
                    lambda seat: bot_pb2.EndGameRequest(
                        game_id=seat.game_id, seat=seat.index, voided=True
                    )
                )
            finally:
                await referee.release_bots(lender, voided=bool(void_reason))
        referee.note_own_logs()  # the bots it started have stopped (the stack closed)
    finally:
        remove_tree(workdir)
    record = MatchRecord(
        game=engine.name,
        rules_version=engine.rules_version,
        options=dict(state.options),
        seed=seed,
        num_players=len(bots),
        actions=list(state.history),
        seats=referee.with_logs(records),
        voided=bool(void_reason),
        void_reason=void_reason,
        duration=time.perf_counter() - began,
        decision_seconds=referee.decision_seconds[: len(state.history)],
        comments=referee.comments[: len(state.history)],
    )
    referee.observer.match_finished(record, state)
    return record


def _limit_text(timeout: float, bank: float) -> str:
    """A decision's time limit as a forfeit says it: "2 s", or with a time bank "0.27 s (0.2 s
    a move + 0.07 s left of its bank)"."""
    if bank <= 0:
        return f"{timeout:.3g} s"
    return f"{timeout:.3g} s ({timeout - bank:.3g} s a move + {bank:.3g} s left of its bank)"


def _not_ready(exc: NotReadyError) -> tuple[Outcome, str]:
    """The forfeit of a bot that never became ready: ILLEGAL where it answered the handshake
    twice, as a second reply to any other call is; CRASH otherwise."""
    if isinstance(exc, AnsweredTwiceError):
        return Outcome.ILLEGAL, str(exc)
    return Outcome.CRASH, f"never became ready: {exc}"
