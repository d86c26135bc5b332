"""Batch rating: a maximum-likelihood Bradley-Terry fit over all games, on the Elo scale.

Every game is split into its weighted pairwise results exactly as for Elo (weight 1/(P-1), ties
count half a win each way, a forfeit loses to every finisher). The fit is choix's iterative Luce
spectral ranking on the matrix of weighted wins, so it does not depend on the order of the games.
A small regularisation (``ALPHA``) keeps a perfect record finite. Ratings are centred on 1500:
``rating = 1500 + 400 / ln(10) * theta`` with mean theta 0, so 200 points between two players mean
a 76% expected score, as in Elo.

The 95% interval comes from a bootstrap over groups of correlated games (``GameResult.group_key``;
the arena groups the seat rotations of one deal of one pod, which share the deal's luck): whole
groups are drawn with replacement, never single games; the interval is the 2.5 and 97.5
percentiles of the bootstrap ratings.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence

import choix
import numpy as np

from leaderboard.elo import INITIAL_RATING
from leaderboard.results import GameResult

ALPHA = 0.01
BOOTSTRAP_SAMPLES = 400
# Convergence: L1 change of the natural-scale parameters between iterations; 1e-6 is far below
# 0.01 Elo points, and half the iterations of choix's default.
TOLERANCE = 1e-6
ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)


@dataclasses.dataclass(frozen=True, slots=True)
class BatchRating:
    rating: float
    low: float  # 95% interval
    high: float


@dataclasses.dataclass(frozen=True, slots=True)
class _GroupWins:
    """Weighted wins per group: ``wins[g, i * n + j]`` is what player i won against j in group g."""

    players: list[str]
    wins: np.ndarray  # shape (groups, n * n)


def _pair_scores(rank_a: np.ndarray, rank_b: np.ndarray, forfeit_a: np.ndarray,
                 forfeit_b: np.ndarray) -> np.ndarray:
    """``leaderboard.results.pair_score`` over arrays of seat pairs."""
    by_rank = np.where(rank_a == rank_b, 0.5, (rank_a < rank_b).astype(float))
    return np.where(forfeit_a == forfeit_b, by_rank, forfeit_b.astype(float))


def _group_wins(games: Sequence[GameResult]) -> _GroupWins:
    players = sorted({seat.player for game in games for seat in game.seats})
    index = {player: i for i, player in enumerate(players)}
    groups = {key: i for i, key in enumerate(sorted({game.group_key for game in games}))}
    n = len(players)
    keys: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    for size in sorted({len(game.seats) for game in games} - {0, 1}):
        same_size = [game for game in games if len(game.seats) == size]
        who = np.array([[index[seat.player] for seat in game.seats] for game in same_size])
        rank = np.array([[seat.rank for seat in game.seats] for game in same_size])
        forfeit = np.array([[bool(seat.forfeit) for seat in game.seats] for game in same_size])
        base = np.array([groups[game.group_key] for game in same_size]) * n * n
        for i, j in itertools.combinations(range(size), 2):
            # a player meeting itself (two seats) tells nothing about its strength
            share = (who[:, i] != who[:, j]) / (size - 1)
            score = _pair_scores(rank[:, i], rank[:, j], forfeit[:, i], forfeit[:, j])
            keys += [base + who[:, i] * n + who[:, j], base + who[:, j] * n + who[:, i]]
            weights += [share * score, share * (1.0 - score)]  # a draw: half a win each way
    flat = np.bincount(np.concatenate(keys), weights=np.concatenate(weights),
                       minlength=len(groups) * n * n) if keys else np.zeros(len(groups) * n * n)
    return _GroupWins(players, flat.reshape(len(groups), n * n))


def _fit(wins: np.ndarray, start: np.ndarray | None) -> np.ndarray:
    """Elo-scale ratings from a flat n * n matrix of weighted wins."""
    n = math.isqrt(wins.size)
    theta: np.ndarray = choix.ilsr_pairwise_dense(wins.reshape(n, n), alpha=ALPHA,
                                                  initial_params=start, max_iter=500,
                                                  tol=TOLERANCE)
    centred: np.ndarray = theta - theta.mean()
    return INITIAL_RATING + ELO_PER_NATURAL_UNIT * centred


def fit_batch(
    games: Sequence[GameResult], bootstrap: int = BOOTSTRAP_SAMPLES, seed: int = 0
) -> dict[str, BatchRating]:
    """Batch ratings with 95% intervals for every player of ``games``.

    ``seed`` fixes the bootstrap draws, so the same games always give the same table."""
    table = _group_wins(games)
    if not table.players:
        return {}
    groups = table.wins.shape[0]
    point = _fit(table.wins.sum(axis=0), None)
    start = (point - INITIAL_RATING) / ELO_PER_NATURAL_UNIT
    draws = np.random.default_rng(seed).multinomial(groups, np.full(groups, 1.0 / groups),
                                                    size=bootstrap)
    samples = np.array([_fit(wins, start) for wins in draws @ table.wins])
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return {
        player: BatchRating(float(point[i]), float(low[i]), float(high[i]))
        for i, player in enumerate(table.players)
    }
