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

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from leaderboard.finishes import NO_PLACE, NO_SEAT, Finishes

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]

# Newton stops when no parameter moves by more than this (natural units; 1e-7 is ~2e-5 Elo).
TOLERANCE = 1e-7
MAX_ITERATIONS = 200
# Largest Newton step per parameter (natural units): a trust region, so a far start (a perfect
# record's MAP is several units out) cannot overshoot.
MAX_STEP = 2.0
# Up to this many players the information is a dense matrix product (``_derivatives``).
DENSE_PLAYERS = 40
# Bootstrap samples are fitted together; chunks keep the (samples, stages, players) array small.
CHUNK_ELEMENTS = 4_000_000


@dataclasses.dataclass(frozen=True, slots=True)
class Stages:
    """Distinct stages of a set of games and their weight in each group of games.

    A stage's set is stored as its seats (``members``), not as a (stages, players) matrix: a
    stage holds a few seats, so the fit costs in stages times seats, whatever the number of
    players. The weights are a sparse (groups, stages) matrix: a dense one would be mostly
    empty."""

    players: list[str]
    chosen: IntArray  # (stages,) index of the player picked at each stage
    members: IntArray  # (stages, width) the player of each seat in the set, ``len(players)`` past
    group_weights: sparse.csr_matrix  # (groups, stages)

    @property
    def counts(self) -> FloatArray:
        """(stages, players) seats each player holds in the stage's set."""
        counts = np.zeros((len(self.chosen), len(self.players) + 1))
        np.add.at(counts, (np.arange(len(self.chosen))[:, None], self.members), 1.0)
        return counts[:, :-1]

    @property
    def weights(self) -> FloatArray:
        """Total weight of each stage over all groups."""
        return np.asarray(self.group_weights.sum(axis=0), dtype=np.float64).reshape(-1)

    def resampled(self, group_counts: FloatArray) -> FloatArray:
        """(samples, stages) stage weights when group g is drawn ``group_counts[b, g]`` times."""
        # (stages, groups) sparse times (groups, samples) dense: the cost is in the stored cells
        return np.asarray(self.group_weights.T @ group_counts.T, dtype=np.float64).T


def finishing_orders(finishes: Finishes) -> tuple[IntArray, FloatArray, IntArray]:
    """Every way to break each game's ties: (orders, weights, games). ``orders[r]`` lists player
    indices best first (NO_SEAT past the game's seats), ``games[r]`` is its game; a game with k
    tied seats has k! orders of weight 1/k! each, weights of one game summing to 1."""
    by = np.argsort(finishes.place, axis=1, kind="stable")
    place = np.take_along_axis(finishes.place, by, axis=1)
    order = np.take_along_axis(finishes.seat_player, by, axis=1)
    tied = ((place[:, 1:] == place[:, :-1]) & (place[:, 1:] != NO_PLACE)).any(axis=1)
    orders, weights, games = [order[~tied]], [np.ones(int((~tied).sum()))], [np.flatnonzero(~tied)]
    for game in np.flatnonzero(tied):  # rare: ties and several forfeits of one rank
        blocks = np.split(order[game], np.flatnonzero(np.diff(place[game])) + 1)
        choices = [
            itertools.permutations(block) if block[0] != NO_SEAT else [tuple(block)]
            for block in blocks
        ]
        broken = np.array([np.concatenate(parts) for parts in itertools.product(*choices)])
        orders.append(broken)
        weights.append(np.full(len(broken), 1.0 / len(broken)))
        games.append(np.full(len(broken), game))
    return np.concatenate(orders), np.concatenate(weights), np.concatenate(games)


def build_stages(finishes: Finishes) -> Stages:
    """Aggregate the stages of the games, by group (``finishes.group``)."""
    players = len(finishes.players)
    orders, order_weight, order_game = finishing_orders(finishes)
    order_weight = order_weight * finishes.weight[order_game]
    orders = np.where(orders == NO_SEAT, players, orders)  # missing seats sort last
    width = orders.shape[1]
    keys, weights, groups = [], [], []
    for place in range(width - 1):
        remaining = np.sort(orders[:, place:], axis=1)
        # informative: at least two different players still hold seats
        informative = ((remaining != remaining[:, :1]) & (remaining != players)).any(axis=1)
        key = np.full((int(informative.sum()), width + 1), players, dtype=np.int64)
        key[:, 0] = orders[informative, place]
        key[:, 1 : width - place + 1] = remaining[informative]
        keys.append(key)
        weights.append(order_weight[informative])
        groups.append(finishes.group[order_game[informative]])
    # (chosen, sorted remaining seats): numbered in sorted order, so the fit does not depend on
    # the order of the games
    unique, stage_of = _unique_rows(
        np.concatenate(keys) if keys else np.zeros((0, width + 1), np.int64)
    )
    group_weights = sparse.csr_matrix(
        (
            np.concatenate(weights) if weights else np.zeros(0),
            (np.concatenate(groups) if groups else np.zeros(0, np.int64), stage_of),
        ),
        shape=(len(finishes.group_keys), len(unique)),
    )
    group_weights.sum_duplicates()
    return Stages(finishes.players, unique[:, 0].copy(), unique[:, 1:].copy(), group_weights)


def _unique_rows(rows: IntArray) -> tuple[IntArray, IntArray]:
    """The distinct rows in lexicographic order, and the index of each row among them
    (``np.unique(axis=0)``, which sorts rows as opaque bytes, is ten times slower)."""
    order = np.lexsort(rows.T[::-1])
    ordered = rows[order]
    new = np.ones(len(rows), dtype=bool)
    new[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    inverse = np.empty(len(rows), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    return ordered[new], inverse


def _seat_mass(stages: Stages, theta: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(samples, stages, width) ``exp(theta - shift)`` of each seat of each stage's set (0 past
    its seats), and the shift (samples, 1) that keeps it finite."""
    shift = theta.max(axis=1, keepdims=True)
    strength = np.concatenate([np.exp(theta - shift), np.zeros((len(theta), 1))], axis=1)
    return strength[:, stages.members], shift


def _log_posterior(
    stages: Stages, weights: FloatArray, theta: FloatArray, precision: float
) -> FloatArray:
    """Log-posterior (up to a constant) of each row of ``theta`` (samples, players) under the
    matching row of ``weights`` (samples, stages)."""
    mass, shift = _seat_mass(stages, theta)
    log_z = np.log(mass.sum(axis=2)) + shift
    chosen = theta[:, stages.chosen]
    return np.einsum("bs,bs->b", weights, chosen - log_z) - 0.5 * precision * (theta**2).sum(1)


def _per_player(index: IntArray, values: FloatArray, bins: int) -> FloatArray:
    """Sums of ``values`` (samples, ...) by ``index`` (same trailing shape, each < ``bins``),
    per sample: (samples, bins)."""
    samples = len(values)
    offset = (np.arange(samples) * bins).reshape((samples,) + (1,) * index.ndim)
    flat = np.bincount((index[None] + offset).ravel(), values.ravel(), minlength=samples * bins)
    return flat.astype(np.float64, copy=False).reshape(samples, bins)  # int64 when empty


def _derivatives(
    stages: Stages, weights: FloatArray, theta: FloatArray, precision: float
) -> tuple[FloatArray, FloatArray]:
    """Gradient (samples, players) and negated Hessian (samples, players, players).

    Per stage, the chosen player gains 1 and every seat loses its share; the information is
    the weighted covariance of the shares. With few players it is one dense matrix product
    per sample (fast in BLAS); with many, gathered seat pair by seat pair, which costs in
    stages times seats squared instead of stages times players squared."""
    samples, players = theta.shape
    mass, _ = _seat_mass(stages, theta)
    share = mass / mass.sum(axis=2, keepdims=True)  # (samples, stages, width)
    weighted = weights[:, :, None] * share
    expected = _per_player(stages.members, weighted, players + 1)[:, :players]
    won = _per_player(stages.chosen, weights, players)
    gradient = won - expected - precision * theta
    if players <= DENSE_PLAYERS:
        counts = stages.counts
        dense = counts[None, :, :] * np.exp(theta - theta.max(axis=1, keepdims=True))[:, None, :]
        dense /= dense.sum(axis=2, keepdims=True)  # (samples, stages, players) shares
        information = -np.matmul((weights[:, :, None] * dense).transpose(0, 2, 1), dense)
    else:
        pairs = stages.members[:, :, None] * (players + 1) + stages.members[:, None, :]
        products = weighted[:, :, :, None] * share[:, :, None, :]
        information = -_per_player(pairs, products, (players + 1) ** 2).reshape(
            samples, players + 1, players + 1
        )[:, :players, :players]
    diagonal = np.arange(players)
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
    width = stages.members.shape[1]
    per_sample = len(stages.chosen) * (players if players <= DENSE_PLAYERS else width**2)
    rows = max(1, CHUNK_ELEMENTS // max(1, per_sample + players**2))
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
