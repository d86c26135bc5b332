"""Blocking gRPC clients without the arena's referee: bare Decide round trips, the ceiling's client
processes (one per match, no trio, no shared interpreter lock), the minimal referee (the same
processes also running the engine and encoding each request) and the referee's transport alone
(its client, ready-made requests)."""

from __future__ import annotations

import itertools
import multiprocessing
import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeAlias

import grpc
import trio

from arena.bench.bots import TIME_CONTROL, bot_cpu_seconds, running_bots
from arena.bot.v1 import bot_pb2
from arena.manifest import BotSpec
from arena.protocol import DECIDE_METHOD, TOKEN_METADATA_KEY
from arena.referee.botprocess import RunningBot
from arena.referee.client import BotClient
from arena.tournament import cpus
from arena.wire.requests import DecisionEncoder
from engine.registry import get_game

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
        bots_cpu = -sum(bot_cpu_seconds(bot) for bot in running)
        for m, client in enumerate(clients):
            client.start()
            if shares:
                assert client.pid is not None, "started"
                cpus.keep_to(shares[m % pinned], client.pid)
        outcomes = [await trio.to_thread.run_sync(results.get) for _ in clients]
        for client in clients:
            await trio.to_thread.run_sync(client.join)
        bots_cpu += sum(bot_cpu_seconds(bot) for bot in running)
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
