"""How often the batch fit's 95% intervals and one-sided bounds contain the true strengths, over
synthetic tournaments.

    python -m leaderboard.coverage --tournaments 100 --games 3000 --seats 2
    python -m leaderboard.coverage --table          # the table of leaderboard/README.md

Each tournament is a round robin (``leaderboard.synthetic.round_robin``) among the first
``--bots`` players of known strengths, centred on 1500 as the fit's ratings are; ``--deal-luck``
correlates the games of a deal. A one-sided bound ("> low") covers when the truth is above low.
Each setting prints one machine-readable line: ``coverage tournaments=... games=... seats=...
bots=... deal_luck=... intervals=... covered=... share=... one_sided=... one_sided_covered=...
one_sided_share=... mean_width=... seconds=...`` (shares of two-sided intervals and of one-sided
bounds apart: the issue was the one-sided ones).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Mapping

from leaderboard.batch import BOOTSTRAP_SAMPLES, BatchRating, fit_batch
from leaderboard.synthetic import round_robin

STRENGTHS = {"a": 1200.0, "b": 1400.0, "c": 1450.0, "d": 1600.0, "e": 1850.0}

# (seats, bots, games, deal luck, tournaments): small boards of 10-20 games (the first bots of
# STRENGTHS), where one-sided bounds are shown after records that are rare under these fixed
# strengths, so it takes thousands of boards to see a hundred; 4- and 2-player boards whose
# deals favour seats in every rotation; and long 4-player boards. About six minutes on a loaded
# 2-core machine.
Setting = tuple[int, int, int, float, int]
TABLE: list[Setting] = [
    (2, 3, 10, 0.0, 500),
    (2, 5, 20, 0.0, 300),
    (3, 4, 12, 0.0, 1000),
    (3, 5, 20, 0.0, 500),
    (4, 4, 12, 0.0, 2000),
    (4, 5, 20, 0.0, 1000),
    (4, 5, 400, 1.0, 300),
    (2, 5, 400, 1.0, 300),
    (4, 5, 3000, 0.0, 100),
]


@dataclasses.dataclass(frozen=True, slots=True)
class Coverage:
    intervals: int  # two-sided
    covered: int
    one_sided: int
    one_sided_covered: int
    mean_width: float  # of the two-sided intervals

    @staticmethod
    def share(covered: int, total: int) -> float:
        return covered / total if total else float("nan")


def covers(rating: BatchRating, truth: float) -> bool:
    if rating.bound == "lower":
        return rating.low <= truth
    if rating.bound == "upper":
        return truth <= rating.high
    return rating.low <= truth <= rating.high


def centred(
    strengths: Mapping[str, float], fitted: Mapping[str, BatchRating] | None = None
) -> dict[str, float]:
    """The true strengths on the fit's scale: 1500 at the mean of the players each pool is
    centred on (``BatchRating.anchor``; all of them without a fit). Centred on every player,
    a board measured on some of its players (the others' ratings set by the prior) was judged
    against another scale than it shows."""
    if fitted is None:
        mean = sum(strengths.values()) / len(strengths)
        return {player: 1500.0 + value - mean for player, value in strengths.items()}
    truth = {}
    for pool in {rating.pool for rating in fitted.values()}:
        members = [player for player, rating in fitted.items() if rating.pool == pool]
        anchors = [strengths[p] for p in members if fitted[p].anchor]
        mean = sum(anchors) / len(anchors)
        truth.update({p: 1500.0 + strengths[p] - mean for p in members})
    return truth


def coverage(
    tournaments: int,
    games: int,
    seats: int,
    bootstrap: int = BOOTSTRAP_SAMPLES,
    strengths: Mapping[str, float] = STRENGTHS,
    first_seed: int = 0,
    deal_luck: float = 0.0,
) -> Coverage:
    """Coverage of the two-sided intervals and of the one-sided bounds over ``tournaments``."""
    counts = {"": [0, 0], "one": [0, 0]}
    widths: list[float] = []
    for seed in range(first_seed, first_seed + tournaments):
        results = round_robin(strengths, seats, games, seed=seed, deal_luck=deal_luck)
        fitted = fit_batch(results, bootstrap=bootstrap, seed=seed)
        truth = centred(strengths, fitted)
        for player, rating in fitted.items():
            kind = counts["one" if rating.bound else ""]
            kind[0] += 1
            kind[1] += covers(rating, truth[player])
            if not rating.bound:
                widths.append(rating.high - rating.low)
    (intervals, covered), (one_sided, one_sided_covered) = counts[""], counts["one"]
    return Coverage(
        intervals, covered, one_sided, one_sided_covered, sum(widths) / max(1, len(widths))
    )


def line(args: Setting, result: Coverage, seconds: float) -> str:
    seats, bots, games, luck, tournaments = args
    return (
        f"coverage tournaments={tournaments} games={games} seats={seats} bots={bots} "
        f"deal_luck={luck:g} intervals={result.intervals} "
        f"covered={result.covered} "
        f"share={Coverage.share(result.covered, result.intervals):.3f} "
        f"one_sided={result.one_sided} one_sided_covered={result.one_sided_covered} "
        f"one_sided_share={Coverage.share(result.one_sided_covered, result.one_sided):.3f} "
        f"mean_width={result.mean_width:.1f} seconds={seconds:.1f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m leaderboard.coverage",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--bots", type=int, default=len(STRENGTHS), choices=range(2, 6))
    parser.add_argument(
        "--deal-luck", type=float, default=0.0, help="0-1: how often a seat keeps its deal's luck"
    )
    parser.add_argument("--bootstrap", type=int, default=BOOTSTRAP_SAMPLES)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--table", action="store_true", help="every setting of the README table")
    args = parser.parse_args(argv)
    if args.seats > args.bots:
        parser.error(f"--seats {args.seats} needs at least as many --bots")
    settings = (
        TABLE
        if args.table
        else [(args.seats, args.bots, args.games, args.deal_luck, args.tournaments)]
    )
    for setting in settings:
        seats, bots, games, luck, tournaments = setting
        start = time.perf_counter()
        result = coverage(
            tournaments,
            games,
            seats,
            args.bootstrap,
            dict(list(STRENGTHS.items())[:bots]),
            args.first_seed,
            luck,
        )
        print(line(setting, result, time.perf_counter() - start), flush=True)


if __name__ == "__main__":
    main()
