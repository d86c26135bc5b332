"""Benchmark of the batch fit (with its bootstrap) over synthetic games.

    python -m leaderboard.bench --games 10000 --players 10 --seats 4

The last line is machine-readable: ``batch_fit games=... players=... seats=... groups=...
bootstrap=... seconds=... cpu_seconds=... load_average=...``: on a busy machine the wall
time exceeds the CPU time, so both are shown with the load average. The same fit over games
stored in SQLite, loading included, is measured by ``python -m arena.bench storage``.
"""

from __future__ import annotations

import argparse
import os
import time

from leaderboard.batch import BOOTSTRAP_SAMPLES, fit_batch
from leaderboard.synthetic import round_robin


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m leaderboard.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--bootstrap", type=int, default=BOOTSTRAP_SAMPLES)
    args = parser.parse_args(argv)
    strengths = {
        f"bot{i:02d}": 1300.0 + 400.0 * i / max(1, args.players - 1) for i in range(args.players)
    }
    games = round_robin(strengths, args.seats, args.games, seed=1)
    start, cpu_start = time.perf_counter(), time.process_time()
    fit_batch(games, bootstrap=args.bootstrap)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    groups = len({game.group_key for game in games})
    print(
        f"batch_fit games={args.games} players={args.players} seats={args.seats} groups={groups} "
        f"bootstrap={args.bootstrap} seconds={seconds:.3f} cpu_seconds={cpu:.3f} "
        f"load_average={os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
