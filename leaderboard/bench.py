"""Benchmark of the batch fit (with its bootstrap) over synthetic games.

    python -m leaderboard.bench --games 10000 --players 10 --seats 4

The last line is machine-readable: ``batch_fit games=... players=... seats=... groups=...
bootstrap=... seconds=... cpu_seconds=... load_average=...``: on a busy machine the wall
time exceeds the CPU time, so both are shown with the load average. The same fit over games
stored in SQLite, loading included, is measured by ``python -m arena.bench storage``.

    python -m leaderboard.bench --ladder --games 100000 --players 10 --seats 2

measures instead what a ladder does before each round: the fit without bootstrap of the board's
games, kept as a list of results (as the ladder did until December 7) and as a tally of how
they finished (``leaderboard.tally``, as it does now), with the memory each holds (tracemalloc).
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc
from collections.abc import Callable

from leaderboard.batch import BOOTSTRAP_SAMPLES, fit_batch, fit_posterior
from leaderboard.results import GameResult, SeatResult
from leaderboard.synthetic import round_robin
from leaderboard.tally import FinishTally


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
    parser.add_argument(
        "--ladder", action="store_true", help="the ladder's fit before each round (no bootstrap)"
    )
    args = parser.parse_args(argv)
    strengths = {
        f"bot{i:02d}": 1300.0 + 400.0 * i / max(1, args.players - 1) for i in range(args.players)
    }
    games = round_robin(strengths, args.seats, args.games, seed=1)
    if args.ladder:
        _ladder_fit(games, args)
        return
    start, cpu_start = time.perf_counter(), time.process_time()
    fit_batch(games, bootstrap=args.bootstrap)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    groups = len({game.group_key for game in games})
    print(
        f"batch_fit games={args.games} players={args.players} seats={args.seats} groups={groups} "
        f"bootstrap={args.bootstrap} seconds={seconds:.3f} cpu_seconds={cpu:.3f} "
        f"load_average={os.getloadavg()[0]:.1f}"
    )


def _held(make: Callable[[], object]) -> tuple[object, int]:
    """What ``make()`` returns, and the bytes it allocated and kept."""
    tracemalloc.start()
    try:
        made = make()
        return made, tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()


def _ladder_fit(games: list[GameResult], args: argparse.Namespace) -> None:
    kept, list_bytes = _held(lambda: [_copy(game) for game in games])
    tally, tally_bytes = _held(lambda: FinishTally(games))
    assert isinstance(kept, list) and isinstance(tally, FinishTally)
    start = time.perf_counter()
    fit_posterior(kept)
    list_seconds = time.perf_counter() - start
    start = time.perf_counter()
    tally.fit()
    tally_seconds = time.perf_counter() - start
    print(
        f"ladder_fit games={args.games} players={args.players} seats={args.seats} "
        f"list_seconds={list_seconds:.3f} list_kib_per_game={list_bytes / 1024 / len(games):.3f} "
        f"tally_entries={len(tally)} tally_seconds={tally_seconds:.3f} "
        f"tally_kib_per_game={tally_bytes / 1024 / len(games):.3f} "
        f"load_average={os.getloadavg()[0]:.1f}"
    )


def _copy(game: GameResult) -> GameResult:
    """``game`` as the ladder kept it: a result built per game (its own group key string)."""
    return GameResult(
        tuple(SeatResult(s.player, s.rank, s.score, s.forfeit) for s in game.seats),
        group_key="".join(game.group_key),  # a new string, as the ladder made one per game
    )


if __name__ == "__main__":
    main()
