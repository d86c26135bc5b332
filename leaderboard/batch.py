"""Batch rating: a maximum-likelihood Bradley-Terry fit over all games, on the Elo scale.

Every game is split into its weighted pairwise results exactly as for Elo (weight 1/(P-1), ties
count half a win each way, a forfeit loses to every finisher). The fit is choix's iterative Luce
spectral ranking on the matrix of weighted wins, so it does not depend on the order of the games.
A small regularisation (``ALPHA``) keeps a perfect record finite. Ratings are centred on 1500:
``rating = 1500 + 400 / ln(10) * theta`` with mean theta 0, so 200 points between two players mean
a 76% expected score, as in Elo.

The 95% interval comes from a bootstrap over pods: games of one pod (same entrants, same deals)
are correlated, so whole pods are drawn with replacement; the interval is the 2.5 and 97.5
percentiles of the bootstrap ratings.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import choix
import numpy as np

from leaderboard.elo import INITIAL_RATING
from leaderboard.results import GameResult, seat_pairs

ALPHA = 0.01
BOOTSTRAP_SAMPLES = 400
ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)


@dataclasses.dataclass(frozen=True, slots=True)
class BatchRating:
    rating: float
    low: float  # 95% interval
    high: float


@dataclasses.dataclass(frozen=True, slots=True)
class _PairTable:
    """All weighted pairwise results: winner index, loser index, weight, pod index."""

    players: list[str]
    winner: np.ndarray
    loser: np.ndarray
    weight: np.ndarray
    pod: np.ndarray
    num_pods: int


def _pair_table(games: Sequence[GameResult]) -> _PairTable:
    players = sorted({seat.player for game in games for seat in game.seats})
    index = {player: i for i, player in enumerate(players)}
    pods = {pod: i for i, pod in enumerate(sorted({game.pod for game in games}))}
    winner: list[int] = []
    loser: list[int] = []
    weight: list[float] = []
    pod: list[int] = []
    for game in games:
        share = 1.0 / (len(game.seats) - 1) if len(game.seats) > 1 else 0.0
        for i, j, score in seat_pairs(game.seats):
            a, b = index[game.seats[i].player], index[game.seats[j].player]
            # a draw is half a win for each side
            for first, second, part in ((a, b, score), (b, a, 1.0 - score)):
                if part:
                    winner.append(first)
                    loser.append(second)
                    weight.append(share * part)
                    pod.append(pods[game.pod])
    return _PairTable(
        players,
        np.asarray(winner, dtype=np.intp),
        np.asarray(loser, dtype=np.intp),
        np.asarray(weight, dtype=float),
        np.asarray(pod, dtype=np.intp),
        len(pods),
    )


def _fit(table: _PairTable, pair_weight: np.ndarray, start: np.ndarray | None) -> np.ndarray:
    n = len(table.players)
    wins = np.bincount(table.winner * n + table.loser, weights=pair_weight, minlength=n * n)
    theta = choix.ilsr_pairwise_dense(
        wins.reshape(n, n), alpha=ALPHA, initial_params=start, max_iter=500
    )
    return INITIAL_RATING + ELO_PER_NATURAL_UNIT * (theta - theta.mean())


def fit_batch(
    games: Sequence[GameResult], bootstrap: int = BOOTSTRAP_SAMPLES, seed: int = 0
) -> dict[str, BatchRating]:
    """Batch ratings with 95% intervals for every player of ``games``.

    ``seed`` fixes the bootstrap draws, so the same games always give the same table."""
    table = _pair_table(games)
    if not table.players:
        return {}
    point = _fit(table, table.weight, None)
    start = (point - INITIAL_RATING) / ELO_PER_NATURAL_UNIT
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(table.num_pods, np.full(table.num_pods, 1.0 / table.num_pods),
                            size=bootstrap)
    samples = np.array([_fit(table, table.weight * draw[table.pod], start) for draw in draws])
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return {
        player: BatchRating(float(point[i]), float(low[i]), float(high[i]))
        for i, player in enumerate(table.players)
    }
