"""The referee's CPU per call of each kind, to one bot that stays up.

    python -m arena.bench calls [--calls 300] [--rounds 3]

One random-python bot (unconfined, past its handshake) is called ``--calls`` times per kind and
round, the kinds alternating so that a busy machine slows them alike: StartGame and EndGame as
the referee makes them (through its trio bridge, ``arena.referee.client``), StartGame read with
grpcio's default for a response-streaming call (a polling thread started for it, as before the
``SingleThreadedUnaryStream`` channel option), and Decide as the decision thread makes it (a
blocking call). Prints the wall time and this process's CPU time per call, the range over rounds.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import trio

from arena.bench import bench_parser
from arena.bench.bots import SAMPLE_BOTS, typical_requests
from arena.bot.v1 import bot_pb2
from arena.manifest import load_manifest
from arena.referee.botprocess import connect, run_bot
from arena.referee.client import CHANNEL_OPTIONS, BotClient

_SINGLE_THREADED = grpc.experimental.ChannelOptions.SingleThreadedUnaryStream


# The referee's channel options but the one under test: StartGame read as grpcio reads a stream
# by default.
GRPC_DEFAULT_STREAM = tuple(option for option in CHANNEL_OPTIONS if option[0] != _SINGLE_THREADED)


async def calls(args: argparse.Namespace) -> None:
    spec = load_manifest(SAMPLE_BOTS / "random-python")
    request = typical_requests("oregon", 4, 1)[5]
    start = bot_pb2.StartGameRequest(game="oregon", num_players=4, game_id="bench")
    end = bot_pb2.EndGameRequest(game_id="bench")
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as workdir:
        async with run_bot(spec, 0, 1, Path(workdir)) as bot:
            handshaken, _ = await connect(bot, "oregon", timeout=10.0)
            handshaken.close()
            arena = BotClient(bot.address, bot.token)
            default = BotClient(bot.address, bot.token, GRPC_DEFAULT_STREAM)

            async def decide() -> None:
                arena.decide(request, 5.0)

            kinds: dict[str, Callable[[], Awaitable[object]]] = {
                "StartGame (the arena's client)": lambda: arena.start_game(start, 5.0),
                "StartGame (grpcio's default stream)": lambda: default.start_game(start, 5.0),
                "EndGame": lambda: arena.end_game(end, 5.0),
                "Decide (blocking, as the decision thread)": decide,
            }
            measured: dict[str, list[tuple[float, float]]] = defaultdict(list)
            for _ in range(args.rounds):
                for label, call in kinds.items():
                    for _ in range(20):  # warm-up
                        await call()
                    wall, cpu = time.perf_counter(), time.process_time()
                    for _ in range(args.calls):
                        await call()
                    measured[label].append(
                        (
                            (time.perf_counter() - wall) / args.calls * 1e6,
                            (time.process_time() - cpu) / args.calls * 1e6,
                        )
                    )
            arena.close()
            default.close()
    for label, runs in measured.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"{label}: wall {min(walls):.0f}-{max(walls):.0f} us, referee CPU "
            f"{min(cpus):.0f}-{max(cpus):.0f} us per call"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("calls", __doc__)
    parser.add_argument("--calls", type=int, default=300, help="calls per kind and round")
    parser.add_argument("--rounds", type=int, default=3)
    trio.run(calls, parser.parse_args(argv))


if __name__ == "__main__":
    main()
