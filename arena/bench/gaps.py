"""Bot CPU by gap: what a call costs a bot in CPU time, by the time between its calls.

    python -m arena.bench gaps [--game oregon] [--calls 1000] [--gaps 0,1,3,6]

For each sample bot (random-python, random-node), one process started beforehand gets the
decision requests of a random game from a blocking client, with a pause of each ``--gaps``
milliseconds after each call (first with none, to warm it up). The bot's CPU time per call is
read from /proc. A bot idle between calls wakes on cold caches, so the slower its referee, the
more each call costs it: the reason a referee's own work costs a tournament more than its CPU
time (docs/scale.md, "What they say").
"""

from __future__ import annotations

import argparse
import time

import grpc
import trio

from arena.bench import bench_parser
from arena.bench.protocol import (
    SAMPLE_BOTS,
    _bot_cpu_seconds,
    running_bots,
    typical_requests,
)
from arena.bot.v1 import bot_pb2
from arena.manifest import load_manifest
from arena.protocol import DECIDE_METHOD, TOKEN_METADATA_KEY

BOTS = ("random-python", "random-node")


def _calls(address: str, token: str, requests: list[bytes], calls: int, gap: float) -> None:
    with grpc.insecure_channel(address) as channel:
        decide = channel.unary_unary(
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
        async with running_bots([load_manifest(SAMPLE_BOTS / name)], args.game) as (bot,):
            await trio.to_thread.run_sync(_calls, bot.address, bot.token, requests, args.calls, 0)
            costs = []
            for pause in pauses:
                before = _bot_cpu_seconds(bot)
                await trio.to_thread.run_sync(
                    _calls, bot.address, bot.token, requests, args.calls, pause
                )
                per_call = (_bot_cpu_seconds(bot) - before) / args.calls
                costs.append(f"{pause * 1000:g} ms: {per_call * 1000:.2f}")
        print(f"{name}: CPU ms per call, by the pause between calls: {'; '.join(costs)}")


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("gaps", __doc__)
    parser.add_argument("--game", default="oregon")
    parser.add_argument("--calls", type=int, default=1000, help="calls per pause length")
    parser.add_argument(
        "--gaps", default="0,1,3,6", help="comma-separated pauses between calls, in ms"
    )
    args = parser.parse_args(argv)
    trio.run(gaps, args)


if __name__ == "__main__":
    main()
