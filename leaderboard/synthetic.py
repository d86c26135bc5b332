"""Synthetic round-robin results from known strengths (for the benchmark and the tests).

Every game's ranking is drawn from the Plackett-Luce model: seats are picked best-first with
probability proportional to 10 ** (rating / 400). Its pairwise marginals are exactly
Bradley-Terry on the Elo scale, so the batch fit must recover the ratings.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping

from leaderboard.results import GameResult, SeatResult


def plackett_luce_ranking(strengths: Mapping[str, float], players: tuple[str, ...],
                          rng: random.Random) -> list[str]:
    remaining = list(players)
    order: list[str] = []
    while remaining:
        weights = [10.0 ** (strengths[player] / 400.0) for player in remaining]
        pick = rng.choices(remaining, weights)[0]
        order.append(pick)
        remaining.remove(pick)
    return order


def round_robin(strengths: Mapping[str, float], seats: int, games: int,
                seed: int = 0) -> list[GameResult]:
    """``games`` games cycling over every pod of ``seats`` players, like a tournament: each run of
    ``seats`` consecutive games (a deal and its rotations) is one pod and one bootstrap group.
    Scores are seats - rank."""
    rng = random.Random(seed)
    pods = list(itertools.combinations(sorted(strengths), seats))
    results: list[GameResult] = []
    for number in range(games):
        deal = number // seats
        pod = pods[deal % len(pods)]
        order = plackett_luce_ranking(strengths, pod, rng)
        results.append(GameResult(
            tuple(SeatResult(p, order.index(p) + 1, float(seats - order.index(p))) for p in pod),
            group_key=f"{'+'.join(pod)}/{deal}",
        ))
    return results
