"""Bot CPU by gap: what a call costs a bot in CPU time, by the time between its calls.

    python -m arena.bench gaps [--game oregon] [--calls 500] [--rounds 3] [--gaps 0,1,3,6]

For each sample bot (random-python, random-node), one process started beforehand gets the
decision requests of a random game from a blocking client, with a pause of each ``--gaps``
milliseconds after each call: after a warm-up, in ``--rounds`` turns over the pauses. The bot's
CPU time per call is read from /proc. A bot idle between calls may wake on cold caches: then the
slower its referee, the more each call costs it, and a referee's own work costs a tournament
more than its CPU time (docs/scale.md, "What they say").
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from functools import partial

import grpc
import trio

from arena.bench import bench_parser
from arena.bench.bots import SAMPLE_BOTS, bot_cpu_seconds, running_bots, typical_requests
from arena.bot.v1 import bot_pb2
from arena.manifest import load_manifest
from arena.protocol import DECIDE_METHOD, TOKEN_METADATA_KEY

BOTS = ("random-python", "random-node")


def _calls(address: str, token: str, requests: list[bytes], calls: int, gap: float) -> None:
    with grpc.insecure_channel(address) as channel:
        decide: grpc.UnaryUnaryMultiCallable[bytes, bot_pb2.DecisionReply] = channel.unary_unary(
            DECIDE_METHOD,
            request_serializer=None,
            response_deserializer=bot_pb2.DecisionReply.FromString,
        )
        for i in range(calls):
            decide(
                requests[i % len(requests)], timeout=5.0, metadata=((TOKEN_METADATA_KEY, token),)
            )
            if gap:
                time.sleep(gap)


async def gaps(args: argparse.Namespace) -> None:
    requests = typical_requests(args.game, 2, seed=12345)
    pauses = [float(ms) / 1000 for ms in args.gaps.split(",")]
    for name in BOTS:
        per_call: dict[float, list[float]] = {pause: [] for pause in pauses}
        async with running_bots([load_manifest(SAMPLE_BOTS / name)], args.game) as (bot,):
            # Node's JIT is still warming up after a thousand calls: warm up well, then measure
            # the pauses in turns, in alternating order, so neither warm-up nor load favours one.
            calls = partial(_calls, bot.address, bot.token, requests)
            await trio.to_thread.run_sync(calls, args.warm_up, 0)
            for turn in range(args.rounds):
                for pause in pauses if turn % 2 == 0 else reversed(pauses):
                    before = bot_cpu_seconds(bot)
                    await trio.to_thread.run_sync(calls, args.calls, pause)
                    per_call[pause].append((bot_cpu_seconds(bot) - before) / args.calls)
        costs = "; ".join(
            f"{pause * 1000:g} ms: {statistics.median(cpu) * 1000:.2f}"
            for pause, cpu in per_call.items()
        )
        print(
            f"{name}: CPU ms per call (median of {args.rounds}), by the pause after each: {costs}"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("gaps", __doc__)
    parser.add_argument("--game", default="oregon")
    parser.add_argument("--calls", type=int, default=500, help="calls per pause and round")
    parser.add_argument("--rounds", type=int, default=3, help="turns over the pauses")
    parser.add_argument("--warm-up", type=int, default=3000, help="calls before measuring")
    parser.add_argument(
        "--gaps", default="0,1,3,6", help="comma-separated pauses between calls, in ms"
    )
    args = parser.parse_args(argv)
    trio.run(gaps, args)


if __name__ == "__main__":
    main()
