"""SPRT on paired games: is NEW stronger than BASE? The pentanomial model, as fishtest uses it.

Games come in *pairs*: one deal played twice, with the two bots' seats swapped. The deal's luck is
shared by both games, so the two results of a pair are correlated and a pair, not a game, is the
independent unit. A pair's outcome is NEW's points over its two games (win 1, draw 1/2, loss 0):
one of 0, 1/2, 1, 3/2, 2, counted in ``SPRT.counts``. (The trinomial model, counting games as
independent wins, draws and losses, misjudges the variance when the two games of a pair are
correlated: if a deal favours one seat the games tend to split, the trinomial overstates the
variance and the test runs longer than needed; if a deal favours one bot they tend to agree, it
understates the variance and the error rates exceed alpha and beta. Without correlation the two
models agree.)

Hypotheses are in **logistic Elo**, the Elo of the ratings: H0 is ``elo = elo0`` and H1 is
``elo = elo1`` where ``elo = -400 log10(1 / s - 1)`` and s is NEW's expected score per game.
(Fishtest's newer tests use normalised Elo, which makes the test length independent of the draw
rate; here the Elo of a leaderboard is the more familiar scale, and bot games rarely draw.)

The statistic is the generalised log-likelihood ratio (GLR): for each hypothesis, the pentanomial
distribution closest in likelihood to the observed frequencies among those with expected score
s0 (resp. s1); ``llr = sum_i n_i log(p1_i / p0_i)``. The maximiser under a mean constraint is
``p_i = f_i / (1 + lam (a_i - s))``, with lam the root of ``sum_i f_i (a_i - s) / (1 + lam (a_i -
s)) = 0`` (f: observed frequencies, a_i: the per-game score of outcome i). Outcomes not seen yet
count 0.001 of a pair, so that the maximiser stays strictly inside the simplex (as in fishtest).

Wald's bounds: accept H1 when ``llr >= log((1 - beta) / alpha)``, accept H0 when ``llr <=
log(beta / (1 - alpha))``; alpha is the chance of accepting H1 when H0 holds, beta of accepting H0
when H1 holds. Multiplayer SPRT is not covered.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from leaderboard.results import GameResult, pair_score

FloatArray = NDArray[np.float64]
Status = Literal["continue", "H0", "H1"]

PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)  # NEW's points over a pair, index = 2 * points
PER_GAME_SCORE = np.array(PAIR_POINTS) / 2.0  # the a_i of the module docstring
UNSEEN_OUTCOME = 1e-3
_MAX_ITERATIONS = 100  # Newton converges in about 5; bisection fallbacks need more
Z_95 = 1.959964
TAIL_95 = 0.025  # chance outside each end of a 95% interval


def score_of_elo(elo: float) -> float:
    """Expected score per game of a player ``elo`` logistic Elo points stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def llr_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper): accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _constrained_multiplier(frequencies: FloatArray, score: float) -> FloatArray:
    """lam for each row of ``frequencies`` (..., 5), all entries > 0, such that the distribution
    ``f / (1 + lam (a - score))`` has mean ``score``.

    The equation's left side decreases in lam, and lam must keep every 1 + lam (a - score)
    positive, which brackets the root; Newton steps that leave the bracket are replaced by
    bisection, and the bracket shrinks on every step. Only unconverged rows are iterated."""
    shifted = PER_GAME_SCORE - score
    rows = frequencies.reshape(-1, 5)
    lam = np.zeros(len(rows))
    low = np.full(len(rows), -1.0 / shifted.max())
    high = np.full(len(rows), -1.0 / shifted.min())
    active = np.arange(len(rows))
    for _ in range(_MAX_ITERATIONS):
        if not active.size:
            break
        current = lam[active]
        ratio = shifted / (1.0 + current[:, None] * shifted)
        value = (rows[active] * ratio).sum(axis=1)
        slope = -(rows[active] * ratio**2).sum(axis=1)
        below = value > 0.0  # the root is above current
        low[active] = np.where(below, current, low[active])
        high[active] = np.where(below, high[active], current)
        newton = current - value / slope
        bracketed = (newton > low[active]) & (newton < high[active])
        following = np.where(bracketed, newton, (low[active] + high[active]) / 2.0)
        lam[active] = following
        active = active[np.abs(following - current) > 1e-13]
    return lam.reshape(frequencies.shape[:-1])


def log_likelihood_ratio(counts: ArrayLike, elo0: float, elo1: float) -> FloatArray:
    """The GLR of H1 against H0 for pentanomial ``counts`` (..., 5); vectorised over rows.
    No pairs, no evidence: 0."""
    regularised = np.asarray(counts, dtype=np.float64)
    regularised = np.where(regularised > 0.0, regularised, UNSEEN_OUTCOME)
    frequencies = regularised / regularised.sum(axis=-1, keepdims=True)
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    lam0 = _constrained_multiplier(frequencies, s0)
    lam1 = _constrained_multiplier(frequencies, s1)
    # log(p1 / p0) = log(1 + lam0 (a - s0)) - log(1 + lam1 (a - s1))
    jumps = np.log1p(lam0[..., None] * (PER_GAME_SCORE - s0)) - np.log1p(
        lam1[..., None] * (PER_GAME_SCORE - s1)
    )
    observed = np.asarray(counts, dtype=np.float64).sum(axis=-1)
    result: FloatArray = np.where(observed > 0, (regularised * jumps).sum(axis=-1), 0.0)
    return result


@dataclasses.dataclass(frozen=True, slots=True)
class EloEstimate:
    elo: float
    low: float  # 95% interval, from the pentanomial variance of a pair
    high: float
    # "lower": a perfect record, only ``low`` is known (``elo`` and ``high`` are infinite);
    # "upper": a record without a point, only ``high``
    bound: Literal["", "lower", "upper"] = ""


def estimate_elo(counts: Sequence[float]) -> EloEstimate:
    """NEW's Elo over BASE from pentanomial ``counts``, with a 95% normal-approximation interval
    on the mean score (pairs are the independent unit).

    A perfect record (every pair 2 points) has no variance to measure, and its estimate is
    infinite; its lower bound is exact instead: a pair scores 2 points with probability at most
    the per-game score s (the mean over the pair), so n perfect pairs have probability at most
    s ** n, and the bound is the s where that is 2.5% (the low end of a 95% interval). The
    mirror for a record of no points."""
    n = float(sum(counts))
    if n == 0:
        return EloEstimate(0.0, -math.inf, math.inf)
    one_sided = TAIL_95 ** (1.0 / n)  # the s with s ** n = 2.5%
    if counts[-1] == n:
        return EloEstimate(math.inf, elo_of_score(one_sided), math.inf, "lower")
    if counts[0] == n:
        return EloEstimate(-math.inf, -math.inf, elo_of_score(1.0 - one_sided), "upper")
    frequencies = np.asarray(counts, dtype=np.float64) / n
    mean = float(frequencies @ PER_GAME_SCORE)
    variance = float(frequencies @ (PER_GAME_SCORE - mean) ** 2)
    margin = Z_95 * math.sqrt(variance / n)
    return EloEstimate(elo_of_score(mean), elo_of_score(mean - margin), elo_of_score(mean + margin))


def pair_index(first: float, second: float) -> int:
    """Index in ``SPRT.counts`` of a pair where NEW scored ``first`` then ``second`` (1, 1/2 or 0
    each)."""
    points = first + second
    index = round(2.0 * points)
    if not 0 <= index <= 4 or not math.isclose(index, 2.0 * points):
        raise ValueError(f"not a pair of game scores in {{0, 1/2, 1}}: {first}, {second}")
    return index


def game_score(game: GameResult, new: str, base: str) -> float:
    """NEW's score against BASE in one game of the test, for ``SPRT.add_pair``: 1 win, 1/2 draw,
    0 loss, by rank; a forfeit loses to a finisher (``leaderboard.results.pair_score``)."""
    seats = {seat.player: seat for seat in game.seats}
    if new not in seats or base not in seats:
        raise ValueError(f"{new!r} and {base!r} did not both play this game")
    return pair_score(seats[new], seats[base])


@dataclasses.dataclass
class SPRT:
    """A running test: feed pairs with ``add_pair`` and stop when ``status`` is not "continue"."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    counts: list[int] = dataclasses.field(default_factory=lambda: [0] * 5)

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        if not (0.0 < self.alpha < 1.0 and 0.0 < self.beta < 1.0 and self.alpha + self.beta < 1.0):
            raise ValueError(
                f"need 0 < alpha, beta and alpha + beta < 1: {self.alpha}, {self.beta}"
            )
        if len(self.counts) != 5:
            raise ValueError(f"pentanomial counts have 5 entries, not {len(self.counts)}")

    def add_pair(self, first: float, second: float) -> None:
        """One pair: NEW's score in each of its two games (1 win, 1/2 draw, 0 loss)."""
        self.counts[pair_index(first, second)] += 1

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def llr(self) -> float:
        return float(log_likelihood_ratio(self.counts, self.elo0, self.elo1))

    @property
    def bounds(self) -> tuple[float, float]:
        return llr_bounds(self.alpha, self.beta)

    @property
    def status(self) -> Status:
        lower, upper = self.bounds
        llr = self.llr
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return "continue"

    def elo(self) -> EloEstimate:
        return estimate_elo(self.counts)


@dataclasses.dataclass(frozen=True, slots=True)
class Expectation:
    """What theory expects of a test when pairs follow a known distribution."""

    drift: float  # mean LLR step per pair
    accept_h1: float  # probability that the test accepts H1
    pairs: float  # expected number of pairs until a decision


def expected_behaviour(
    probabilities: Sequence[float], elo0: float, elo1: float, alpha: float, beta: float
) -> Expectation:
    """Wald's approximations, treating the LLR as a random walk whose steps are those of the
    limiting statistic, ``log(p1_i / p0_i)`` with p0, p1 the mean-constrained maximisers for the
    true pair distribution; overshoot of the bounds is ignored (the walk is replaced by a Brownian
    motion of the same drift and variance), so actual tests run slightly longer."""
    truth = np.asarray(probabilities, dtype=np.float64)
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    lam0 = _constrained_multiplier(truth, s0)
    lam1 = _constrained_multiplier(truth, s1)
    steps = np.log1p(lam0 * (PER_GAME_SCORE - s0)) - np.log1p(lam1 * (PER_GAME_SCORE - s1))
    drift = float(truth @ steps)
    variance = float(truth @ (steps - drift) ** 2)
    lower, upper = llr_bounds(alpha, beta)
    if abs(drift) < 1e-12:
        return Expectation(drift, -lower / (upper - lower), -lower * upper / variance)
    # Brownian motion: P(hit upper) = (1 - e^{-2 drift lower / var}) / (e^{-2 drift upper / var}
    # - e^{-2 drift lower / var}); E[T] = (P upper + (1 - P) lower) / drift
    theta = -2.0 * drift / variance
    accept_h1 = -math.expm1(theta * lower) / (math.exp(theta * upper) - math.exp(theta * lower))
    pairs = (accept_h1 * upper + (1.0 - accept_h1) * lower) / drift
    return Expectation(drift, accept_h1, pairs)
