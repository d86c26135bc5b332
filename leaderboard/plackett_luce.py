"""The Plackett-Luce model of whole finishing orders, fitted by weighted MAP under a Gaussian prior.

A finishing order is a sequence of choices: the winner is picked among all seats with probability
proportional to ``exp(theta)``, then second place among the rest, and so on. Each choice is a
*stage* ``(chosen player, set of remaining seats)``; the log-likelihood of a game is the sum over
its stages of ``theta[chosen] - log(sum over the set of exp(theta))``. Under this model the chance
that one player finishes ahead of another is ``1 / (1 + exp(theta_j - theta_i))`` whatever the
other seats, so on the Elo scale (``theta * 400 / ln 10``) 200 points mean 76%, as in Elo.

Treatment of results the model does not describe, documented in ``leaderboard/README.md``:

- **forfeits**: a forfeiting seat finishes behind every seat that finished the game (as in Elo);
  forfeiting seats of the same rank are tied.
- **ties** (equal rank): the game counts as every order of the tied seats, each with an equal share
  of its weight (k tied seats: k! orders, weight 1/k! each). For two players a draw is then half a
  win each way, as in Elo.
- **one player in several seats**: a stage's set counts the player once per seat it still holds, so
  beating its own other seat tells nothing, and a stage among one player's seats only is dropped.

Stages are aggregated over games: identical stages add their weights, so the fit costs in the
number of distinct stages, not games, and a bootstrap sample is just another weight vector.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import NDArray

from leaderboard.results import GameResult, SeatResult

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

# Newton stops when no parameter moves by more than this (natural units; 1e-7 is ~2e-5 Elo).
TOLERANCE = 1e-7
MAX_ITERATIONS = 200
# Largest Newton step per parameter (natural units): a trust region, so a far start (a perfect
# record's MAP is several units out) cannot overshoot.
MAX_STEP = 2.0
# Bootstrap samples are fitted together; chunks keep the (samples, stages, players) array small.
CHUNK_ELEMENTS = 4_000_000


@dataclasses.dataclass(frozen=True, slots=True)
class Stages:
    """Distinct stages of a set of games and their weight in each group of games.

    The weights are kept as cells (group, stage, weight) sorted by stage, each stage's cells
    starting at ``stage_starts[stage]``: a table groups x stages would be mostly empty."""

    players: list[str]
    chosen: IntArray  # (stages,) index of the player picked at each stage
    counts: FloatArray  # (stages, players) seats each player holds in the stage's set
    cell_group: IntArray  # (cells,)
    cell_weight: FloatArray  # (cells,)
    stage_starts: IntArray  # (stages,)

    @property
    def winners(self) -> FloatArray:
        """(stages, players) one-hot matrix of the player picked at each stage."""
        return np.eye(len(self.players))[self.chosen]

    @property
    def weights(self) -> FloatArray:
        """Total weight of each stage over all groups."""
        if not self.chosen.size:
            return np.zeros(0)
        return np.add.reduceat(self.cell_weight, self.stage_starts)

    def resampled(self, group_counts: FloatArray) -> FloatArray:
        """(samples, stages) stage weights when group g is drawn ``group_counts[b, g]`` times."""
        if not self.chosen.size:
            return np.zeros((group_counts.shape[0], 0))
        rows = max(1, CHUNK_ELEMENTS // max(1, self.cell_group.size))
        return np.concatenate(
            [
                np.add.reduceat(
                    chunk[:, self.cell_group] * self.cell_weight, self.stage_starts, axis=1
                )
                for chunk in np.array_split(group_counts, range(rows, len(group_counts), rows))
            ]
        )


def finishing_blocks(seats: Sequence[SeatResult]) -> list[list[str]]:
    """Players by finishing place, best first: finishers by rank, then forfeiting seats by rank;
    seats of one place (a tie) share a block."""
    ordered = sorted(seats, key=lambda seat: (bool(seat.forfeit), seat.rank))
    return [
        [seat.player for seat in block]
        for _, block in itertools.groupby(ordered, key=lambda s: (bool(s.forfeit), s.rank))
    ]


def finishing_orders(seats: Sequence[SeatResult]) -> Iterator[tuple[tuple[str, ...], float]]:
    """(order of players, weight) for every way to break the game's ties, weights summing to 1."""
    blocks = finishing_blocks(seats)
    weight = 1.0 / math.prod(math.factorial(len(block)) for block in blocks)
    for parts in itertools.product(*(itertools.permutations(block) for block in blocks)):
        yield tuple(player for part in parts for player in part), weight


def order_stages(order: Sequence[str]) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(chosen player, sorted players of the remaining seats) for each informative stage."""
    for place in range(len(order) - 1):
        remaining = order[place:]
        if len(set(remaining)) > 1:
            yield order[place], tuple(sorted(remaining))


def build_stages(games: Sequence[GameResult], group_of: Sequence[int]) -> Stages:
    """Aggregate the stages of ``games``; ``group_of[k]`` is the group index of ``games[k]``."""
    players = sorted({seat.player for game in games for seat in game.seats})
    index = {player: i for i, player in enumerate(players)}
    found: dict[tuple[int, tuple[str, tuple[str, ...]]], float] = {}
    for game, group in zip(games, group_of):
        for order, weight in finishing_orders(game.seats):
            for stage in order_stages(order):
                found[group, stage] = found.get((group, stage), 0.0) + weight
    # numbered in sorted order, so the fit does not depend on the order of the games
    stage_ids = {stage: i for i, stage in enumerate(sorted({stage for _, stage in found}))}
    cells = {(group, stage_ids[stage]): weight for (group, stage), weight in found.items()}
    chosen = np.array([index[chosen] for chosen, _ in stage_ids], dtype=np.int64)
    counts = np.zeros((len(stage_ids), len(players)))
    for stage_id, (_, remaining) in enumerate(stage_ids):
        for player in remaining:
            counts[stage_id, index[player]] += 1.0
    ordered = sorted(cells.items(), key=lambda cell: (cell[0][1], cell[0][0]))
    stage_of = np.array([stage for (_, stage), _ in ordered], dtype=np.int64)
    return Stages(
        players,
        chosen,
        counts,
        cell_group=np.array([group for (group, _), _ in ordered], dtype=np.int64),
        cell_weight=np.array([weight for _, weight in ordered], dtype=np.float64),
        stage_starts=np.searchsorted(stage_of, np.arange(len(stage_ids))),
    )


def _log_posterior(
    stages: Stages, weights: FloatArray, theta: FloatArray, precision: float
) -> FloatArray:
    """Log-posterior (up to a constant) of each row of ``theta`` (samples, players) under the
    matching row of ``weights`` (samples, stages)."""
    shift = theta.max(axis=1, keepdims=True)
    totals = np.einsum("sp,bp->bs", stages.counts, np.exp(theta - shift))
    log_z = np.log(totals) + shift
    chosen = theta[:, stages.chosen]
    return np.einsum("bs,bs->b", weights, chosen - log_z) - 0.5 * precision * (theta**2).sum(1)


def _derivatives(
    stages: Stages, weights: FloatArray, theta: FloatArray, precision: float
) -> tuple[FloatArray, FloatArray]:
    """Gradient (samples, players) and negated Hessian (samples, players, players)."""
    shift = theta.max(axis=1, keepdims=True)
    mass = stages.counts[None, :, :] * np.exp(theta - shift)[:, None, :]
    share = mass / mass.sum(axis=2, keepdims=True)  # (samples, stages, players)
    weighted = weights[:, :, None] * share
    expected = weighted.sum(axis=1)
    gradient = weights @ stages.winners - expected - precision * theta
    information = -np.matmul(weighted.transpose(0, 2, 1), share)
    diagonal = np.arange(theta.shape[1])
    information[:, diagonal, diagonal] += expected + precision
    return gradient, information


def fit_map(
    stages: Stages, weights: FloatArray, precision: float, start: FloatArray | None = None
) -> FloatArray:
    """MAP parameters (samples, players) for each row of ``weights`` (samples, stages), under an
    independent Gaussian prior of mean 0 and the given precision (1 / variance) on every player.

    Damped Newton: the log-posterior is strictly concave, each step is capped at ``MAX_STEP`` per
    parameter and halved until the log-posterior does not decrease."""
    samples, players = weights.shape[0], len(stages.players)
    if samples == 0 or players == 0:
        return np.zeros((samples, players))
    rows = max(1, CHUNK_ELEMENTS // max(1, stages.counts.size))
    if samples > rows:
        return np.concatenate(
            [
                fit_map(stages, weights[i : i + rows], precision, start)
                for i in range(0, samples, rows)
            ]
        )
    theta = np.zeros((samples, players)) if start is None else np.tile(start, (samples, 1))
    current = _log_posterior(stages, weights, theta, precision)
    for _ in range(MAX_ITERATIONS):
        gradient, information = _derivatives(stages, weights, theta, precision)
        step = np.linalg.solve(information, gradient[:, :, None])[:, :, 0]
        largest = np.abs(step).max(axis=1, keepdims=True)
        step *= np.minimum(1.0, MAX_STEP / np.maximum(largest, 1e-300))
        for _ in range(30):
            trial = theta + step
            value = _log_posterior(stages, weights, trial, precision)
            worse = value < current - 1e-12 * np.abs(current)
            if not worse.any():
                break
            step[worse] /= 2.0
        theta, current = trial, value
        if np.abs(step).max() < TOLERANCE:
            break
    return theta


def posterior_covariance(stages: Stages, theta: FloatArray, precision: float) -> FloatArray:
    """Laplace approximation of the posterior covariance at the MAP ``theta`` (players,), using
    all the games (every group at weight 1)."""
    _, information = _derivatives(stages, stages.weights[None, :], theta[None, :], precision)
    covariance: FloatArray = np.linalg.inv(information[0])
    return covariance
