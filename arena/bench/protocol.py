"""Protocol benchmark: what the referee adds to a bare gRPC round trip, and how fast bots start.

    python -m arena.bench protocol [--game oregon] [--players 4] [--matches 20]

Measures, with the real sample bots over the referee's own transport (Unix sockets):
* start-to-ready: bot process start until it answers the handshake (random-python, random-node),
  unconfined and, where bubblewrap works, in the sandbox (``arena.sandbox``) as matches run them;
* aggregate decisions/s with ``--concurrent`` matches at once (default 8), counted while all of
  them are playing (each in a game slot with bots that stay up, as tournaments and ladders play
  by default, warmed by a game; then all begin together), with the CPU a decision costs the
  referee and the bots, next to two bounds measured on the same bots: the referee's transport
  alone (a thread per match sending ready-made requests through the referee's client, no
  engine, no encoding) and a ceiling no Python
  referee can pass (one blocking client *process* per match calling its bots in turn: no trio, no
  engine, no shared interpreter lock; with gRPC's default experiments, which serve such clients
  better than the arena's ``arena.grpc_settings``);
* the same matches in ``--workers`` worker processes (``arena tournament --workers``), each worker
  with its bots kept to its own share of the cores (``--pin-cpus``, the default) and again left
  to the scheduler (``--no-pin-cpus``), next to the ceiling with each client process and its bots
  kept to a share of the cores alike;
* (a) a bare grpcio unary Decide round trip from a blocking client, cycling through the decision
  requests of a whole random game, against the random-python bot (and, for comparison, against
  ``--players`` such bots in turn, as in a match, and through the referee's client; both
  again in a fresh process with gRPC's default experiments, the transport before
  ``arena.grpc_settings``);
* the engine's and the request encoding's CPU time per decision, in process, for every game, with
  the previous encoder (``arena.wire.reference``) measured on the same decisions;
* (b) the referee's time per decision in sequential matches of random-python bots (engine step,
  view and action encoding, the call from the match's decision thread, the bot's reply), and
  the ratio b / a, which
  the last line prints, with the concurrent matches' rates (in one process, in pinned workers)
  against the ceilings'.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Generator, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeAlias

import grpc
import trio

from arena import grpc_settings
from arena.bench import bench_parser
from arena.bot.v1 import bot_pb2
from arena.manifest import BotSpec, load_manifest
from arena.protocol import DECIDE_METHOD, TOKEN_METADATA_KEY
from arena.records import TimeControl
from arena.referee.botprocess import RunningBot, connect, run_bot
from arena.referee.client import BotClient
from arena.referee.match import MatchObserver, play_match
from arena.referee.pool import BotPool
from arena.sandbox import SandboxPolicy, bwrap_problem
from arena.tournament import cpus
from arena.tournament.playing import GameSetup
from arena.tournament.runner import backend
from arena.tournament.settings import TournamentSettings
from arena.wire.reference import MessageDecisionEncoder
from arena.wire.requests import DecisionEncoder
from engine.core import GameState
from engine.registry import game_names, get_game

SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"
TIME_CONTROL = TimeControl(move_seconds=5.0)


class _Timeline(MatchObserver):
    """Records when play began and when each decision was applied, and the referee process's CPU
    time (all its threads) over the play."""

    def __init__(self) -> None:
        self.play_started = 0.0
        self.decision_times: list[float] = []
        self.cpu_started = self.cpu_ended = 0.0

    def match_started(self, state: GameState, players: Any) -> None:
        self.play_started = time.perf_counter()
        self.cpu_started = time.process_time()

    def decision_made(self, *args: Any) -> None:
        self.decision_times.append(time.perf_counter())
        self.cpu_ended = time.process_time()


class _Barrier:
    """Opens when ``parties`` matches have all their bots ready."""

    def __init__(self, parties: int) -> None:
        self.waiting = parties
        self.opened = trio.Event()
        self.opened_at = 0.0

    async def wait(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.opened_at = time.perf_counter()
            self.opened.set()
        await self.opened.wait()


def typical_requests(game: str, players: int, seed: int) -> list[bytes]:
    """The serialized decision requests of one random game, as the referee sends them."""
    state = get_game(game).new_game(players, seed)
    encoder = DecisionEncoder(game)
    rng = random.Random(seed)
    requests: list[bytes] = []
    told = [0] * players  # each seat's position in the event log
    while (seat := state.current_seat) is not None:  # None once the game is over
        legal = state.legal_actions()
        requests.append(
            encoder.request(
                "bench",
                len(requests),
                state,
                seat,
                legal,
                TIME_CONTROL.move_seconds,
                0.0,
                told[seat],
            )
        )
        told[seat] = len(state.event_log)
        state.apply_index(rng.randrange(len(legal)))
    return requests


@dataclass
class InProcess:
    """Seconds of CPU per decision, in process: the engine's step and a request's encoding by
    today's encoder and by the previous one (``arena.wire.reference``)."""

    engine: float
    encoding: float
    previous_encoding: float


def engine_and_encoding(game: str, players: int, games: int, warm_up: int = 0) -> InProcess:
    """The engine's CPU time per decision (legal actions, apply) and that of encoding the request
    (the seat's events and view, serialized with the legal actions) by both encoders, in random
    games: both encode every decision, in alternating order, so a busy machine slows both
    alike. ``warm_up`` other games are played first, unmeasured, as a referee that has played
    for a while has its caches filled (the engines' and the encoders')."""
    encoders: list[DecisionEncoder | MessageDecisionEncoder] = [
        DecisionEncoder(game),
        MessageDecisionEncoder(game),
    ]
    engine_seconds = 0.0
    encoding_seconds = [0.0, 0.0]
    decisions = 0
    clock = time.process_time
    for seed in [*range(-warm_up, 0), *range(games)]:
        state = get_game(game).new_game(players, seed)
        rng = random.Random(seed)
        told = [0] * players
        measured = seed >= 0
        while (seat := state.current_seat) is not None:  # None once the game is over
            began = clock()
            legal = state.legal_actions()
            engine_seconds += (clock() - began) * measured
            since = told[seat]
            told[seat] = len(state.event_log)
            for which in (0, 1) if decisions % 2 else (1, 0):
                began = clock()
                encoders[which].request("bench", decisions, state, seat, legal, 1.0, 0.0, since)
                encoding_seconds[which] += (clock() - began) * measured
            began = clock()
            state.apply_index(rng.randrange(len(legal)))
            engine_seconds += (clock() - began) * measured
            decisions += measured
    return InProcess(
        engine_seconds / decisions,
        encoding_seconds[0] / decisions,
        encoding_seconds[1] / decisions,
    )


def _cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux /proc), NaN where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _bot_cpu_seconds(bot: RunningBot) -> float:
    """The CPU time of the bot's processes: all of its cgroup's (the sandbox's own processes
    included), else the one process started."""
    if bot.launch is not None and bot.launch.cgroup is not None:
        return sum(_cpu_seconds(pid) for pid in bot.launch.cgroup.pids())
    assert bot.process is not None, "the benches measure the bots they start"
    return _cpu_seconds(bot.process.pid)


async def start_to_ready(
    spec: BotSpec, game: str, times: int, sandbox: SandboxPolicy | None = None
) -> tuple[list[float], list[float]]:
    """Wall time from process start to the handshake's answer, and the bot's CPU time by then
    (which a busy machine does not inflate); with ``sandbox``, started as a match would."""
    seconds, cpu = [], []
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as workdir:
        for attempt in range(times):
            began = time.perf_counter()
            async with run_bot(spec, 0, attempt, Path(workdir), sandbox=sandbox) as bot:
                client, _ = await connect(bot, game, timeout=10.0)
                seconds.append(time.perf_counter() - began)
                cpu.append(_bot_cpu_seconds(bot))
                client.close()
    return seconds, cpu


@asynccontextmanager
async def running_bots(specs: Sequence[BotSpec], game: str) -> AsyncIterator[list[RunningBot]]:
    """A process of each of ``specs``, each past its handshake; stopped on exit."""
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as workdir:
        async with AsyncExitStack() as stack:
            bots = [
                await stack.enter_async_context(run_bot(spec, seat, 1, Path(workdir)))
                for seat, spec in enumerate(specs)
            ]
            for bot in bots:
                client, _ = await connect(bot, game, timeout=10.0)
                client.close()
            yield bots


Target = tuple[str, str]  # a bot's (address, token)
WARM_UP_CALLS = 50
# What a client process sends: (seat, serialized request) pairs, each next one given the reply
# to the last. Made in the client process from a picklable factory (``spawn`` pickles it).
Requests = Generator[tuple[int, bytes], bot_pb2.DecisionReply, None]
# Decide on a channel, taking requests serialized (quoted: grpc's class is generic in its stubs)
_Decide: TypeAlias = "grpc.UnaryUnaryMultiCallable[bytes, bot_pb2.DecisionReply]"


def replayed(requests: Sequence[bytes], players: int) -> Requests:
    """The ceiling's calls: ready-made ``requests`` in a cycle, to the seats in turn; the
    replies are not looked at."""
    for i in itertools.count():
        yield i % players, requests[i % len(requests)]


def refereed(game: str, players: int, first_seed: int) -> Requests:
    """A minimal blocking referee: games from ``first_seed`` on, each request encoded from the
    state as the referee encodes it and each reply applied to the engine. Nothing else a match
    does: no trio, no clocks or checks of the reply, no StartGame, no storage."""
    encoder = DecisionEncoder(game)
    for seed in itertools.count(first_seed):
        state = get_game(game).new_game(players, seed)
        told = [0] * players  # each seat's position in the event log
        number = 0
        while (seat := state.current_seat) is not None:  # None once the game is over
            legal = state.legal_actions()
            request = encoder.request(
                f"bench-{seed}",
                number,
                state,
                seat,
                legal,
                TIME_CONTROL.move_seconds,
                0.0,
                told[seat],
            )
            told[seat] = len(state.event_log)
            reply = yield seat, request
            state.apply_index(reply.action_index)
            number += 1


def _blocking_decides(
    targets: Sequence[Target],
    requests: Callable[[], Requests],
    *,
    calls: int = 0,
    seconds: float = 0.0,
    barrier: Any = None,
) -> tuple[int, float, float]:
    """Blocking Decide calls to the targets (one per seat) as ``requests()`` says: ``calls`` of
    them, or as many as fit in ``seconds``, after a warm-up of ``WARM_UP_CALLS`` (and
    ``barrier.wait()`` if given). Returns (calls made, seconds taken, this process's CPU seconds
    over them)."""
    channels = [grpc.insecure_channel(address) for address, _ in targets]
    try:
        stubs: list[tuple[_Decide, tuple[tuple[str, str], ...]]] = [
            (
                channel.unary_unary(
                    DECIDE_METHOD,
                    request_serializer=None,
                    response_deserializer=bot_pb2.DecisionReply.FromString,
                ),
                ((TOKEN_METADATA_KEY, token),),
            )
            for channel, (_, token) in zip(channels, targets, strict=True)
        ]
        source = requests()
        seat, request = next(source)

        def call() -> None:
            nonlocal seat, request
            decide, metadata = stubs[seat]
            seat, request = source.send(decide(request, timeout=5.0, metadata=metadata))

        for _ in range(WARM_UP_CALLS):
            call()
        if barrier is not None:
            barrier.wait()
        began, cpu = time.perf_counter(), time.process_time()
        made = 0
        while (made < calls) if calls else (time.perf_counter() - began < seconds):
            call()
            made += 1
        return made, time.perf_counter() - began, time.process_time() - cpu
    finally:
        for channel in channels:
            channel.close()


def _blocking_client_process(
    targets: Sequence[Target],
    requests: Callable[[], Requests],
    seconds: float,
    barrier: Any,
    results: Any,
) -> None:
    """Body of one client process (module level: ``spawn`` imports it by name)."""
    results.put(_blocking_decides(targets, requests, seconds=seconds, barrier=barrier))


def _targets(bots: Sequence[RunningBot]) -> list[Target]:
    return [(bot.address, bot.token) for bot in bots]


async def bare_round_trip(
    spec: BotSpec, game: str, requests: list[bytes], calls: int, bots: int
) -> tuple[float, float]:
    """(a) wall seconds and this process's CPU seconds per call with one bot; with ``bots`` > 1,
    the calls go to that many bot processes in turn."""
    async with running_bots([spec] * bots, game) as running:
        made, seconds, cpu = await trio.to_thread.run_sync(
            lambda: _blocking_decides(
                _targets(running), partial(replayed, requests, bots), calls=calls
            )
        )
    return seconds / made, cpu / made


async def client_round_trip(
    spec: BotSpec, game: str, requests: list[bytes], calls: int, bots: int
) -> tuple[float, float]:
    """Wall seconds and this process's CPU seconds (all its threads) per call through the
    referee's client (``arena.referee.client``) from a thread of its own, as a match's decision
    thread calls, to ``bots`` bot processes in turn: the referee's transport without engine or
    encoding."""
    async with running_bots([spec] * bots, game) as running:
        clients = [BotClient(bot.address, bot.token) for bot in running]

        def call_in_turn() -> tuple[float, float]:
            for i in range(WARM_UP_CALLS + calls):
                if i == WARM_UP_CALLS:
                    began, cpu = time.perf_counter(), time.process_time()
                clients[i % bots].decide(requests[i % len(requests)], 5.0)
            return (time.perf_counter() - began) / calls, (time.process_time() - cpu) / calls

        try:
            return await trio.to_thread.run_sync(call_in_turn)
        finally:
            for client in clients:
                client.close()


async def transport_throughput(
    spec: BotSpec, game: str, requests: list[bytes], players: int, concurrent: int, seconds: float
) -> float:
    """Calls/s of ``concurrent`` threads of this process, each sending ready-made requests
    through the referee's client to its own ``players`` bots in turn, as matches' decision
    threads do: concurrent matches without the engine."""
    async with running_bots([spec] * (players * concurrent), game) as running:
        clients = [BotClient(bot.address, bot.token) for bot in running]
        counts = [0] * concurrent
        stop = threading.Event()

        def play(match: int) -> None:
            first = match * players
            for i in itertools.count():
                if stop.is_set():
                    return
                clients[first + i % players].decide(requests[i % len(requests)], 5.0)
                counts[match] += 1

        try:
            async with trio.open_nursery() as nursery:
                for match in range(concurrent):
                    nursery.start_soon(
                        partial(
                            trio.to_thread.run_sync, play, match, limiter=trio.CapacityLimiter(1)
                        )
                    )
                await trio.sleep(0.5)  # warm up
                counted, began = sum(counts), time.perf_counter()
                await trio.sleep(seconds)
                counted, ended = sum(counts) - counted, time.perf_counter()
                stop.set()
            return counted / (ended - began)
        finally:
            for client in clients:
                client.close()


@contextmanager
def grpc_defaults() -> Iterator[None]:
    """Processes started within inherit gRPC's default experiments, not the arena's
    (``arena.grpc_settings``): an empty ``GRPC_EXPERIMENTS``, which the entry points keep."""
    saved = os.environ.get(grpc_settings.VARIABLE)
    os.environ[grpc_settings.VARIABLE] = ""
    try:
        yield
    finally:
        if saved is None:
            del os.environ[grpc_settings.VARIABLE]
        else:
            os.environ[grpc_settings.VARIABLE] = saved


async def _transport_cpu(
    game: str, requests: list[bytes], calls: int, bots: int
) -> tuple[float, float, float, float]:
    spec = load_manifest(SAMPLE_BOTS / "random-python")
    bare = await bare_round_trip(spec, game, requests, calls, bots)
    through_client = await client_round_trip(spec, game, requests, calls, bots)
    return (*bare, *through_client)


def _transport_process(
    game: str, requests: list[bytes], calls: int, bots: int, results: Any
) -> None:
    """Body of the process measuring the previous transport (module level: ``spawn`` imports it
    by name)."""
    results.put(trio.run(_transport_cpu, game, requests, calls, bots))


async def previous_transport(
    game: str, requests: list[bytes], calls: int, bots: int
) -> tuple[float, float, float, float]:
    """The round trips of ``bare_round_trip`` and ``client_round_trip`` (wall and CPU seconds
    per call of each) with gRPC's default experiments, as the referee ran before
    ``arena.grpc_settings``: in a fresh process, as gRPC reads them when it is imported."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    process = context.Process(
        target=_transport_process, args=(game, requests, calls, bots, results), daemon=True
    )
    with grpc_defaults():
        process.start()
    outcome = await trio.to_thread.run_sync(results.get)
    await trio.to_thread.run_sync(process.join)
    return outcome


@dataclass
class ClientRun:
    """Decisions/s of blocking client processes calling bots, and what each call cost the
    machine in CPU time."""

    calls_per_second: float
    client_ms_per_call: float  # the client processes': gRPC's client (and what else they do)
    bots_ms_per_call: float  # the bots' (warm-up calls included, start-up not)

    @property
    def ms_per_call(self) -> float:
        return self.client_ms_per_call + self.bots_ms_per_call


async def client_processes(
    seats: Sequence[BotSpec],
    game: str,
    requests: Sequence[Callable[[], Requests]],
    seconds: float,
    pinned: int = 0,
) -> ClientRun:
    """Calls/s of one blocking client process per element of ``requests``, each calling its
    own process of each of the ``seats``' bots as its requests say, all at once for
    ``seconds``. With ``pinned`` = N, client m and its bots keep to share m % N of the cores
    (``arena.tournament.cpus``), as N pinned workers would keep them."""
    players, concurrent = len(seats), len(requests)
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: gRPC is fork-unsafe
    barrier = context.Barrier(concurrent)
    results = context.Queue()
    async with running_bots(list(seats) * concurrent, game) as running:
        targets = _targets(running)
        shares = cpus.worker_shares(pinned) if pinned else []
        for index, bot in enumerate(running):
            if shares:
                assert bot.process is not None, "the benches start their bots"
                cpus.keep_to(shares[index // players % pinned], bot.process.pid)
        clients = [
            context.Process(
                target=_blocking_client_process,
                daemon=True,
                args=(
                    targets[m * players : (m + 1) * players],
                    requests[m],
                    seconds,
                    barrier,
                    results,
                ),
            )
            for m in range(concurrent)
        ]
        bots_cpu = -sum(_bot_cpu_seconds(bot) for bot in running)
        with grpc_defaults():  # faster for these blocking clients (docs/scale.md): a true bound
            for m, client in enumerate(clients):
                client.start()
                if shares:
                    assert client.pid is not None, "started"
                    cpus.keep_to(shares[m % pinned], client.pid)
        outcomes = [await trio.to_thread.run_sync(results.get) for _ in clients]
        for client in clients:
            await trio.to_thread.run_sync(client.join)
        bots_cpu += sum(_bot_cpu_seconds(bot) for bot in running)
    made = sum(made for made, _, _ in outcomes)
    return ClientRun(
        calls_per_second=sum(made / taken for made, taken, _ in outcomes),
        client_ms_per_call=1000 * sum(cpu for _, _, cpu in outcomes) / made,
        bots_ms_per_call=1000 * bots_cpu / (made + WARM_UP_CALLS * concurrent),
    )


async def ceiling_throughput(
    seats: Sequence[BotSpec],
    game: str,
    requests: list[bytes],
    concurrent: int,
    seconds: float,
    pinned: int = 0,
) -> ClientRun:
    """Calls/s of ``concurrent`` blocking client processes, each calling its own process of each
    of the ``seats``' bots in turn with ready-made ``requests``, as a game does: no trio, no
    engine, no shared interpreter lock. No Python referee can beat it on the same bots and
    machine."""
    replay = partial(replayed, requests, len(seats))
    return await client_processes(seats, game, [replay] * concurrent, seconds, pinned)


async def minimal_referee_throughput(
    seats: Sequence[BotSpec], game: str, concurrent: int, seconds: float
) -> ClientRun:
    """Decisions/s of ``concurrent`` blocking client processes that each play games with its
    own bots as a minimal referee (``refereed``): the ceiling plus only the engine and the
    request encoding, the work any referee of these games does in Python."""
    games = [partial(refereed, game, len(seats), 1_000_000 * m) for m in range(concurrent)]
    return await client_processes(seats, game, games, seconds)


async def referee_per_decision(
    spec: BotSpec, game: str, players: int, matches: int
) -> tuple[float, float]:
    """Wall time and referee CPU time per decision during the play of sequential matches."""
    play_seconds, cpu_seconds, decisions = 0.0, 0.0, 0
    for seed in range(matches):
        timeline = _Timeline()
        record = await play_match(
            game, [spec] * players, seed, time_control=TIME_CONTROL, observer=timeline
        )
        assert not record.voided, record.void_reason
        play_seconds += timeline.decision_times[-1] - timeline.play_started
        cpu_seconds += timeline.cpu_ended - timeline.cpu_started
        decisions += len(timeline.decision_times)
    return play_seconds / decisions, cpu_seconds / decisions


@dataclass
class MatchesRun:
    """Decisions/s of concurrent matches, and what a decision cost in CPU time over whole
    rounds: the referee process's (all its threads) and the bots'."""

    decisions_per_second: float
    counted: int  # decisions while all matches were playing
    referee_ms_per_decision: float
    bots_ms_per_decision: float


async def concurrent_throughput(
    bots: Sequence[BotSpec], game: str, concurrent: int, rounds: int
) -> MatchesRun:
    """Decisions/s while ``concurrent`` matches of ``bots`` (one per seat) all play: from the
    moment they begin together until the first of them ends. As a tournament or ladder plays
    them by default: each match in a game slot of its own with bots that stay up
    (``arena.referee.pool``), warmed by one unmeasured game per slot as the ceiling's clients
    are by their first calls."""
    window_seconds, window_decisions = 0.0, 0
    async with BotPool(game, game_seed=1) as pool:
        async with trio.open_nursery() as nursery:
            for slot in range(concurrent):
                nursery.start_soon(
                    partial(
                        play_match,
                        game,
                        bots,
                        -1 - slot,
                        time_control=TIME_CONTROL,
                        lender=pool.lender(slot),
                    )
                )
        referee_cpu, bots_cpu, decisions = -time.process_time(), 0.0, 0
        for round_number in range(rounds):
            bots_cpu -= sum(_bot_cpu_seconds(leased.bot) for leased in pool.idle)
            barrier = _Barrier(concurrent)
            timelines = [_Timeline() for _ in range(concurrent)]
            async with trio.open_nursery() as nursery:
                for slot, timeline in enumerate(timelines):
                    nursery.start_soon(
                        partial(
                            play_match,
                            game,
                            bots,
                            round_number * concurrent + slot,
                            time_control=TIME_CONTROL,
                            observer=timeline,
                            ready_gate=barrier.wait,
                            lender=pool.lender(slot),
                        )
                    )
            window_end = min(t.decision_times[-1] for t in timelines)
            window_seconds += window_end - barrier.opened_at
            window_decisions += sum(
                1 for t in timelines for at in t.decision_times if at <= window_end
            )
            bots_cpu += sum(_bot_cpu_seconds(leased.bot) for leased in pool.idle)
            decisions += sum(len(t.decision_times) for t in timelines)
        referee_cpu += time.process_time()
    return MatchesRun(
        window_decisions / window_seconds,
        window_decisions,
        1000 * referee_cpu / decisions,
        1000 * bots_cpu / decisions,
    )


async def backend_throughput(
    bots: Sequence[BotSpec], game: str, concurrent: int, games: int, workers: int, pin_cpus: bool
) -> float:
    """Decisions/s of ``concurrent`` game slots each playing ``games`` games back to back with
    its kept-up bots on a tournament's backend (``arena.tournament.runner.backend``): this
    process (``workers`` = 1) or ``workers`` processes (``--workers``, ``pin_cpus`` as
    ``--pin-cpus``), after one unmeasured game per slot. Timed to the last game's end: the tail
    where fewer slots play counts against it."""
    settings = TournamentSettings(
        players=len(bots),
        concurrency=concurrent,
        move_time=TIME_CONTROL.move_seconds,
        sandbox=SandboxPolicy(tool="none"),
    )
    seats = tuple(range(len(bots)))
    decisions = 0
    async with backend(GameSetup(game, 1, list(bots), settings, None), workers, None, pin_cpus) as (
        player
    ):

        async def play(slot: int, seeds: Sequence[int]) -> None:
            nonlocal decisions
            for seed in seeds:
                record = await player.play(slot, seats, seed)
                assert not record.voided, record.void_reason
                decisions += len(record.actions)

        async with trio.open_nursery() as nursery:
            for slot in range(concurrent):
                nursery.start_soon(play, slot, [-1 - slot])
        decisions, began = 0, time.perf_counter()
        async with trio.open_nursery() as nursery:
            for slot in range(concurrent):
                nursery.start_soon(play, slot, range(slot * games, (slot + 1) * games))
        return decisions / (time.perf_counter() - began)


async def protocol(args: argparse.Namespace) -> None:
    python_bot = load_manifest(SAMPLE_BOTS / "random-python")
    node_bot = load_manifest(SAMPLE_BOTS / "random-node")
    us = 1e6
    sandboxes: list[tuple[SandboxPolicy | None, str]] = [(None, "")]
    if bwrap_problem() is None:
        sandboxes.append((SandboxPolicy(), " (sandboxed)"))
    for spec in (python_bot, node_bot):
        # Starts with and without the sandbox alternate, so that a busy machine slows both alike:
        # the sandbox's cost is the difference.
        samples: dict[str, tuple[list[float], list[float]]] = {
            label: ([], []) for _, label in sandboxes
        }
        for _ in range(args.starts):
            for sandbox, label in sandboxes:
                seconds, cpu = await start_to_ready(spec, args.game, 1, sandbox)
                samples[label][0].extend(seconds)
                samples[label][1].extend(cpu)
        for label, (seconds, cpu) in samples.items():
            print(
                f"start-to-ready {spec.name}{label}: median "
                f"{statistics.median(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms "
                f"over {len(seconds)} starts; the bot's CPU time to ready: median "
                f"{statistics.median(cpu) * 1000:.0f} ms"
            )
    requests = typical_requests(args.game, args.players, seed=12345)
    print(
        f"typical {args.game} decision request: "
        f"{statistics.mean(map(len, requests)):.0f} bytes on average, "
        f"{len(requests)} requests of one {args.players}-player game"
    )

    matches = await concurrent_throughput(
        [python_bot] * args.players, args.game, args.concurrent, args.rounds
    )
    rate = matches.decisions_per_second
    print(
        f"{args.concurrent} concurrent {args.game} matches ({args.players} random-python bots "
        f"each, kept up): {rate:.0f} decisions/s ({matches.counted} decisions while all were "
        f"playing); CPU per decision: referee {matches.referee_ms_per_decision * 1000:.0f} us, "
        f"bots {matches.bots_ms_per_decision * 1000:.0f} us"
    )
    transport = await transport_throughput(
        python_bot, args.game, requests, args.players, args.concurrent, args.seconds
    )
    print(
        f"  the referee's transport alone (a thread per match, its own bots, ready-made "
        f"requests): "
        f"{transport:.0f} calls/s"
    )
    ceiling = await ceiling_throughput(
        [python_bot] * args.players, args.game, requests, args.concurrent, args.seconds
    )
    print(
        f"  ceiling: {args.concurrent} blocking client processes, no referee: "
        f"{ceiling.calls_per_second:.0f} calls/s; CPU per call: clients "
        f"{ceiling.client_ms_per_call * 1000:.0f} us, bots {ceiling.bots_ms_per_call * 1000:.0f} us"
    )

    spread = {
        pin: await backend_throughput(
            [python_bot] * args.players,
            args.game,
            args.concurrent,
            args.slot_games,
            args.workers,
            pin,
        )
        for pin in (True, False)
    }
    pinned_ceiling = await ceiling_throughput(
        [python_bot] * args.players,
        args.game,
        requests,
        args.concurrent,
        args.seconds,
        pinned=args.workers,
    )
    print(
        f"the same {args.concurrent} matches in {args.workers} worker processes (arena "
        f"tournament --workers {args.workers}, {args.slot_games} games per slot): "
        f"{spread[True]:.0f} decisions/s, each worker and its bots on its own share of the "
        f"cores (--pin-cpus, the default); {spread[False]:.0f} with --no-pin-cpus"
    )
    print(
        f"  ceiling with each client process and its bots kept to a share of the cores as the "
        f"workers are: {pinned_ceiling.calls_per_second:.0f} calls/s; CPU per call: clients "
        f"{pinned_ceiling.client_ms_per_call * 1000:.0f} us, bots "
        f"{pinned_ceiling.bots_ms_per_call * 1000:.0f} us"
    )

    bare, _ = await bare_round_trip(python_bot, args.game, requests, args.calls, bots=1)
    rotating, rotating_cpu = await bare_round_trip(
        python_bot, args.game, requests, args.calls, bots=args.players
    )
    through_client, client_cpu = await client_round_trip(
        python_bot, args.game, requests, args.calls, bots=args.players
    )
    print(
        f"round trip, {args.players} bot processes in turn as in a match: bare "
        f"{rotating * us:.0f} us ({rotating_cpu * us:.0f} us of CPU), through the referee's "
        f"client {through_client * us:.0f} us ({client_cpu * us:.0f} us of CPU)"
    )
    before = await previous_transport(args.game, requests, args.calls, args.players)
    print(
        f"  the same with gRPC's default experiments (the EventEngine client, as before "
        f"arena.grpc_settings): bare {before[0] * us:.0f} us ({before[1] * us:.0f} us of CPU), "
        f"through the client {before[2] * us:.0f} us ({before[3] * us:.0f} us of CPU)"
    )
    for game in game_names():
        engine = get_game(game)
        players = min(max(args.players, engine.min_players), engine.max_players)
        cost = engine_and_encoding(
            game, players, games=args.encoding_games, warm_up=args.encoding_games
        )
        print(
            f"in process, CPU per decision of {players}-player {game}: engine "
            f"{cost.engine * us:.0f} us, request encoding {cost.encoding * us:.0f} us "
            f"(the previous encoder {cost.previous_encoding * us:.0f} us, "
            f"x{cost.previous_encoding / cost.encoding:.1f})"
        )
    referee, referee_cpu = await referee_per_decision(
        python_bot, args.game, args.players, args.matches
    )
    print(
        f"referee CPU time per decision (all its threads): {referee_cpu * us:.0f} us; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"protocol bare_grpc_round_trip_us={bare * us:.0f} "
        f"referee_per_decision_us={referee * us:.0f} ratio={referee / bare:.2f} "
        f"matches_per_s={rate:.0f} ceiling_per_s={ceiling.calls_per_second:.0f} "
        f"matches_over_ceiling={rate / ceiling.calls_per_second:.2f} "
        f"workers_per_s={spread[True]:.0f} "
        f"workers_over_ceiling={spread[True] / ceiling.calls_per_second:.2f} "
        f"workers_over_pinned_ceiling={spread[True] / pinned_ceiling.calls_per_second:.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("protocol", __doc__)
    parser.add_argument("--game", default="oregon")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=20, help="sequential matches for (b)")
    parser.add_argument("--calls", type=int, default=3000, help="round trips for (a)")
    parser.add_argument("--concurrent", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of concurrent matches")
    parser.add_argument(
        "--workers", type=int, default=2, help="worker processes for the matches in workers"
    )
    parser.add_argument(
        "--slot-games",
        type=int,
        default=10,
        help="games per slot for the matches in workers (timed to the last: the tail counts)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=4.0,
        help="length of the transport and ceiling throughput runs",
    )
    parser.add_argument("--starts", type=int, default=10, help="bot starts per sample bot")
    parser.add_argument(
        "--encoding-games",
        type=int,
        default=20,
        help="random games per game type for the in-process encoding measurement (after as "
        "many unmeasured ones, which fill the caches)",
    )
    args = parser.parse_args(argv)
    trio.run(protocol, args)


if __name__ == "__main__":
    main()
