"""The referee's CPU per decision, by thread: what the game costs it and what the transport does.

    python -m arena.bench threads [--game oregon] [--players 4] [--matches 30]

Sequential matches of random-python bots that stay up (a bot pool: no bot starts while measured,
after a few unmeasured games), unconfined as in the protocol bench. The referee process's CPU
time is split by thread (Linux ``/proc/self/task``): the match's decision thread (engine,
encoding, the Decide calls: ``arena.referee.match``), the trio thread (the match's start and end,
trio's loop), the bridge's worker threads (``arena.referee.client``: the calls made once a game)
and gRPC's own threads, by their names. Then the same matches with every Decide answered at once
in process (the request still encoded and parsed, a random legal index for reply): the
referee's own work without the transport. Last, the decision thread's CPU in the matches over
gRPC split into its parts (thread CPU time around each request's encoding and each Decide call),
beside the encoding's cost in process (``arena.bench.encoding``'s tight loop): between two
decisions the bot's run and the call evict the encoder's memos and the state from the CPU's
caches, so a request costs more in a match than in the loop (docs/scale.md, seventh pass).
"""

from __future__ import annotations

import argparse
import os
import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import trio

from arena.bench import bench_parser
from arena.bench.bots import SAMPLE_BOTS, TIME_CONTROL
from arena.bench.encoding import engine_and_encoding
from arena.bot.v1 import bot_pb2
from arena.manifest import BotSpec, load_manifest
from arena.records import LogSlice
from arena.referee.client import BotClient
from arena.referee.match import MatchObserver, play_match
from arena.referee.pool import BotPool, LeasedBot, PoolLender
from arena.wire.requests import DecisionEncoder

_WORKER_PREFIX = "arena-bot-client"  # the bridge's worker threads' names (arena.referee.client)
# A match's decision thread (arena.referee.match) as the kernel names it while it plays; trio's
# thread cache, which runs it, names it back after the game (its other jobs here are rare).
_DECISIONS, _TRIO_CACHE = "arena-decisions", "Trio thread"


def thread_cpu() -> dict[int, tuple[str, float]]:
    """Each thread of this process: its kernel name and its CPU seconds (user and system)."""
    ticks = os.sysconf("SC_CLK_TCK")
    threads = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            stat = Path(f"/proc/self/task/{tid}/stat").read_text()
        except OSError:  # ended meanwhile
            continue
        name, fields = stat[stat.index("(") + 1 : stat.rindex(")")], stat.rsplit(")", 1)[1].split()
        threads[int(tid)] = (name, (int(fields[11]) + int(fields[12])) / ticks)
    return threads


def _kind(tid: int, kernel_name: str, trio_thread: int, python_names: dict[int, str]) -> str:
    if tid == trio_thread:
        return "trio thread"
    if kernel_name == _DECISIONS or kernel_name.startswith(_TRIO_CACHE):
        return "decision threads"
    if python_names.get(tid, "").startswith(_WORKER_PREFIX):
        return "bridge workers"
    return f"gRPC's {kernel_name} threads" if kernel_name != "python" else "other threads"


class _Counter(MatchObserver):
    def __init__(self) -> None:
        self.decisions = 0

    def decision_made(self, *args: object) -> None:
        self.decisions += 1


class _InstantClient(BotClient):
    """A leased bot's client whose Decide is answered in process (StartGame and EndGame still go
    to the bot)."""

    def __init__(self, real: BotClient, seed: int) -> None:  # no channel or worker of its own
        self.real, self.rng = real, random.Random(seed)

    def decide(self, request: bytes, timeout: float) -> bot_pb2.DecisionReply:
        asked = bot_pb2.DecisionRequest.FromString(request)
        index = self.rng.randrange(len(asked.legal_actions))
        return bot_pb2.DecisionReply(decision_number=asked.decision_number, action_index=index)

    async def start_game(
        self, request: bot_pb2.StartGameRequest, timeout: float
    ) -> bot_pb2.StartGameReply:
        return await self.real.start_game(request, timeout)

    async def end_game(
        self, request: bot_pb2.EndGameRequest, timeout: float
    ) -> bot_pb2.EndGameReply:
        return await self.real.end_game(request, timeout)

    @property
    def closed(self) -> bool:
        return self.real.closed

    def close(self) -> None:
        self.real.close()


class _InstantLender(PoolLender):
    """Lends the pool's bots with their Decide answered in process; gives back the real ones."""

    async def lease(
        self, spec: BotSpec, occurrence: int, ready_seconds: float, deal: int | None = None
    ) -> LeasedBot:
        leased = await super().lease(spec, occurrence, ready_seconds, deal)
        leased.client = _InstantClient(leased.client, occurrence)
        return leased

    async def give_back(self, leased: LeasedBot, replaced_because: str = "") -> LogSlice | None:
        assert isinstance(leased.client, _InstantClient)
        leased.client = leased.client.real
        return await super().give_back(leased, replaced_because)


async def by_thread(
    bots: Sequence[BotSpec], game: str, seeds: range, lender: PoolLender
) -> tuple[int, dict[str, float]]:
    """Decisions played in the matches of ``seeds``, and the CPU seconds of each kind of thread."""
    counter, trio_thread, before = _Counter(), threading.get_native_id(), thread_cpu()
    for seed in seeds:
        await play_match(
            game, bots, seed, time_control=TIME_CONTROL, lender=lender, observer=counter
        )
    seconds: dict[str, float] = defaultdict(float)
    python_names = {
        thread.native_id: thread.name
        for thread in threading.enumerate()
        if thread.native_id is not None
    }
    for tid, (name, cpu) in thread_cpu().items():
        kind = _kind(tid, name, trio_thread, python_names)
        seconds[kind] += cpu - before.get(tid, (name, 0.0))[1]
    return counter.decisions, seconds


@contextmanager
def timed_parts() -> Iterator[dict[str, float]]:
    """Thread CPU seconds spent in each request's encoding and each Decide call, summed while
    the block runs (the classes' methods wrapped, and restored after)."""
    seconds = {"encoding": 0.0, "Decide calls": 0.0}
    wrapped = {"encoding": (DecisionEncoder, "request"), "Decide calls": (BotClient, "decide")}
    originals = {part: getattr(owner, name) for part, (owner, name) in wrapped.items()}

    def timer(part: str, method: Callable[..., object]) -> Callable[..., object]:
        def timed(*args: object) -> object:
            began = time.thread_time()
            try:
                return method(*args)
            finally:
                seconds[part] += time.thread_time() - began

        return timed

    for part, (owner, name) in wrapped.items():
        setattr(owner, name, timer(part, originals[part]))
    try:
        yield seconds
    finally:
        for part, (owner, name) in wrapped.items():
            setattr(owner, name, originals[part])


async def threads(args: argparse.Namespace) -> None:
    bots = [load_manifest(SAMPLE_BOTS / "random-python")] * args.players
    # Each pass its own deals: the pool replaces a bot lent for a deal it played (a new process).
    first = args.warm_up
    passes = [range(first + n * args.matches, first + (n + 1) * args.matches) for n in range(3)]
    async with BotPool(args.game, game_seed=1) as pool:
        await by_thread(bots, args.game, range(args.warm_up), pool.lender(0))
        for label, lender, measured in (
            ("bots answering over gRPC", pool.lender(0), passes[0]),
            ("Decide answered in process", _InstantLender(pool, 0), passes[1]),
        ):
            began = time.perf_counter()
            decisions, seconds = await by_thread(bots, args.game, measured, lender)
            by_kind = ", ".join(
                f"{kind} {cpu / decisions * 1e6:.0f}"
                for kind, cpu in sorted(seconds.items(), key=lambda item: -item[1])
            )
            print(
                f"{label}: {sum(seconds.values()) / decisions * 1e6:.0f} us of referee CPU per "
                f"decision ({by_kind}); {decisions} decisions in "
                f"{time.perf_counter() - began:.1f} s"
            )
        with timed_parts() as parts:
            decisions, seconds = await by_thread(bots, args.game, passes[2], pool.lender(0))
    thread = seconds["decision threads"]
    split = ", ".join(f"{part} {cpu / decisions * 1e6:.0f}" for part, cpu in parts.items())
    in_process = engine_and_encoding(args.game, args.players, 30, warm_up=3)
    print(
        f"the decision thread over gRPC: {thread / decisions * 1e6:.0f} us per decision "
        f"({split}, the rest {(thread - sum(parts.values())) / decisions * 1e6:.0f}); "
        f"encoding in a tight loop in process: {in_process.encoding * 1e6:.0f} us"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("threads", __doc__)
    parser.add_argument("--game", default="oregon")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=30, help="measured matches, each way")
    parser.add_argument("--warm-up", type=int, default=3, help="unmeasured matches first")
    trio.run(threads, parser.parse_args(argv))


if __name__ == "__main__":
    main()
