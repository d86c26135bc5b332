"""How often the batch fit's 95% intervals contain the true strengths, over synthetic tournaments.

    python -m leaderboard.coverage --tournaments 100 --games 3000 --seats 2

Each tournament is a round robin (``leaderboard.synthetic.round_robin``) among players of known
strengths, centred on 1500 as the fit's ratings are. The last line is machine-readable:
``coverage tournaments=... games=... seats=... intervals=... covered=... share=...
mean_width=... seconds=...``. A one-sided interval ("> low") covers when the truth is above low.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping

from leaderboard.batch import BOOTSTRAP_SAMPLES, BatchRating, fit_batch
from leaderboard.synthetic import round_robin

STRENGTHS = {"a": 1200.0, "b": 1400.0, "c": 1450.0, "d": 1600.0, "e": 1850.0}


def covers(rating: BatchRating, truth: float) -> bool:
    if rating.bound == "lower":
        return rating.low <= truth
    if rating.bound == "upper":
        return truth <= rating.high
    return rating.low <= truth <= rating.high


def centred(strengths: Mapping[str, float]) -> dict[str, float]:
    mean = sum(strengths.values()) / len(strengths)
    return {player: 1500.0 + value - mean for player, value in strengths.items()}


def coverage(
    tournaments: int,
    games: int,
    seats: int,
    bootstrap: int = BOOTSTRAP_SAMPLES,
    strengths: Mapping[str, float] = STRENGTHS,
    first_seed: int = 0,
) -> tuple[int, int, float]:
    """(intervals, intervals covering the truth, mean two-sided width) over ``tournaments``."""
    truth = centred(strengths)
    covered = intervals = 0
    widths: list[float] = []
    for seed in range(first_seed, first_seed + tournaments):
        fitted = fit_batch(
            round_robin(strengths, seats, games, seed=seed), bootstrap=bootstrap, seed=seed
        )
        for player, rating in fitted.items():
            intervals += 1
            covered += covers(rating, truth[player])
            if not rating.bound:
                widths.append(rating.high - rating.low)
    return intervals, covered, sum(widths) / max(1, len(widths))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m leaderboard.coverage",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--bootstrap", type=int, default=BOOTSTRAP_SAMPLES)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    intervals, covered, width = coverage(
        args.tournaments, args.games, args.seats, args.bootstrap, first_seed=args.first_seed
    )
    print(
        f"coverage tournaments={args.tournaments} games={args.games} seats={args.seats} "
        f"intervals={intervals} covered={covered} share={covered / intervals:.3f} "
        f"mean_width={width:.1f} seconds={time.perf_counter() - start:.1f}"
    )


if __name__ == "__main__":
    main()
