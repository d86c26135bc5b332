"""Batch rating: a Plackett-Luce fit of whole finishing orders under a weak prior, on the Elo scale.

The model, the prior and the limits are documented in ``leaderboard/README.md``; in short:

- Each game's finishing order is a Plackett-Luce draw (``leaderboard.plackett_luce``); for two
  players that is Bradley-Terry. ``rating = 1500 + 400 / ln(10) * theta``: 200 points between two
  players mean 76% chance to finish ahead of the other.
- Prior: every rating is independently normal around 1500 with a standard deviation of
  ``PRIOR_SD`` Elo points; the rating is the posterior mode (MAP). The prior keeps a perfect record
  finite without inventing precision, and barely moves a rating backed by tens of games.
- Each pool of players connected by games (``leaderboard.pools``) is fitted on its own; ratings of
  different pools are not comparable. A pool is measured on its main component
  (``pools.record_shapes``: players bounded on both sides against each other): its well-measured
  players (``PROVISIONAL_GAMES`` games or more) have mean 1500 (all of it where fewer than two
  are; every player where no component is the main one): a player whose rating the prior sets,
  such as a bot that always forfeits, moves nobody's number or interval.
- The 95% interval is the union of two: the bootstrap over groups of correlated games
  (``GameResult.group_key``: whole groups are drawn with replacement, which captures the shared luck
  of a deal's seat rotations) and the posterior's Gaussian (Laplace) interval, which keeps its
  width where the bootstrap cannot see any variation (a perfect record, or very few games). Both
  are on ratings centred as shown.
- A player whose record is perfect against the rest of its pool is only bounded on one side
  (``bound``): the table prints "> low" (or "< high"); the point rating is then set by the prior.
- Fewer than ``PROVISIONAL_GAMES`` games: provisional.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import zlib
from collections.abc import Callable, Sequence
from typing import ParamSpec, TypeVar

import numpy as np
from threadpoolctl import threadpool_limits

from leaderboard.bounds import one_sided_bounds
from leaderboard.elo import INITIAL_RATING
from leaderboard.finishes import NO_SEAT, Finishes, IntArray, encode
from leaderboard.plackett_luce import FloatArray, build_stages, fit_map, posterior_covariance
from leaderboard.pools import Bound, find_pools, record_shapes, strong_components
from leaderboard.results import GameResult

P = ParamSpec("P")
R = TypeVar("R")

ELO_PER_NATURAL_UNIT = 400.0 / math.log(10.0)
# Prior standard deviation of every rating: wide against the differences between bots met in
# practice (a few hundred points), so only data-poor ratings (perfect records, a handful of
# games) feel it.
PRIOR_SD = 500.0
PROVISIONAL_GAMES = 20
BOOTSTRAP_SAMPLES = 400
Z_95 = 1.959964


@dataclasses.dataclass(frozen=True, slots=True)
class BatchRating:
    rating: float
    low: float  # 95% interval
    high: float
    bound: Bound = ""  # "lower": only ``low`` bounds the rating ("> low"); "upper": only ``high``
    games: int = 0  # games with at least one other player, in this player's pool
    provisional: bool = False  # fewer than PROVISIONAL_GAMES games
    # numbered from 1, the main pool first (``pools.find_pools``); two pools' ratings don't compare
    pool: int = 1
    pools: int = 1  # how many pools the fitted games form
    # bounded on both sides only through players of other components (always behind one, always
    # ahead of another; ``pools.record_shapes``), or no games with others: the interval is the
    # prior's, not the games'
    prior_set: bool = False
    # one of the players whose mean is 1500 in its pool: every rating of the pool is measured
    # against that mean (a simulation centres its truth on the same players)
    anchor: bool = False


def anchor_weights(anchored: Sequence[bool]) -> FloatArray:
    """The weights of the mean a pool is centred on: its anchored players' (well measured), or
    every player's where fewer than two are anchored."""
    anchors = np.asarray(anchored, dtype=np.float64)
    if anchors.sum() < 2:
        anchors = np.ones(len(anchors))
    return anchors / anchors.sum()


def _fit_pool(
    finishes: Finishes,
    sides: Sequence[Bound],
    anchored: Sequence[bool],
    bootstrap: int,
    rng: np.random.Generator,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """MAP, 95% low and 95% high of the players of one pool, in natural units, centred on the
    mean of the ``anchored`` players (``anchor_weights``); a one-sided rating's bound from its
    record (``leaderboard.bounds``)."""
    stages = build_stages(finishes)
    precision = (ELO_PER_NATURAL_UNIT / PRIOR_SD) ** 2
    point = fit_map(stages, stages.weights[None, :], precision)[0]
    n = len(stages.players)
    weights = anchor_weights(anchored)
    centring = np.eye(n) - np.outer(np.ones(n), weights)
    covariance = centring @ posterior_covariance(stages, point, precision) @ centring.T
    spread = Z_95 * np.sqrt(np.maximum(np.diag(covariance), 0.0))
    mode, point = point, point - weights @ point
    low, high = point - spread, point + spread
    if bootstrap > 0:
        samples = fit_map(
            stages, stages.resampled(_group_draws(finishes, bootstrap, rng)), precision, point
        )
        samples -= (samples @ weights)[:, None]
        boot_low, boot_high = np.percentile(samples, [2.5, 97.5], axis=0)
        low, high = np.minimum(low, boot_low), np.maximum(high, boot_high)
    if any(sides):
        honest = one_sided_bounds(
            finishes, strong_components(finishes), sides, mode, covariance, weights
        )
        lower, upper = np.array(sides) == "lower", np.array(sides) == "upper"
        low = np.where(lower, np.minimum(low, honest), low)
        high = np.where(upper, np.maximum(high, honest), high)
    return point, low, high


def _group_draws(finishes: Finishes, samples: int, rng: np.random.Generator) -> FloatArray:
    """(samples, groups): how often each group is drawn in each bootstrap sample, as many draws
    as groups, with replacement."""
    groups = len(finishes.group_keys)
    drawn = rng.integers(0, groups, size=(samples, groups))
    drawn += np.arange(samples)[:, None] * groups
    counts = np.bincount(drawn.ravel(), minlength=samples * groups)
    return counts.reshape(samples, groups).astype(np.float64)


def _games_with_others(finishes: Finishes) -> IntArray:
    """Per player: games in which at least one other player sat."""
    seats = np.sort(finishes.seat_player, axis=1)  # missing seats (-1) first
    first = (seats != NO_SEAT) & np.concatenate(
        [np.ones((len(seats), 1), dtype=bool), seats[:, 1:] != seats[:, :-1]], axis=1
    )  # each player's first seat in its game
    others = first.sum(axis=1) > 1
    counted = first & others[:, None]
    weight = np.broadcast_to(finishes.weight[:, None], seats.shape)[counted]
    games = np.bincount(seats[counted], weight, minlength=len(finishes.players))
    return np.rint(games).astype(np.int64)


def _one_blas_thread(fit: Callable[P, R]) -> Callable[P, R]:
    """``fit`` run with one BLAS thread. The fits solve many small systems (a bootstrap's samples
    x players x players): BLAS's own threads gain nothing there and, on cores that bots and
    other processes share, spin while they wait: a 127-bot board's fit took 37 s at load 9-15
    instead of about 1 s (outside review K). Every BLAS loaded is limited (numpy and scipy each
    bring one) for the call only; about a millisecond."""

    @functools.wraps(fit)
    def limited(*args: P.args, **kwargs: P.kwargs) -> R:
        with threadpool_limits(limits=1, user_api="blas"):
            return fit(*args, **kwargs)

    return limited


def fit_batch(
    games: Sequence[GameResult], bootstrap: int = BOOTSTRAP_SAMPLES, seed: int = 0
) -> dict[str, BatchRating]:
    """Batch ratings with 95% intervals for every player of ``games``, pool by pool.

    Games of different player counts should be fitted separately (``leaderboard.boards``).
    ``seed`` fixes the bootstrap draws, so the same games always give the same table."""
    return fit_finishes(encode(games), bootstrap, seed)


@_one_blas_thread
def fit_finishes(
    finishes: Finishes, bootstrap: int = BOOTSTRAP_SAMPLES, seed: int = 0
) -> dict[str, BatchRating]:
    """``fit_batch`` of the games of ``finishes``. Without bootstrap, each interval is the
    posterior's alone, never wider than with it: a ladder's tally (which has no deals to
    resample) tells from it cheaply that an interval is still too wide."""
    pools = find_pools(finishes)
    pool_of = np.zeros(len(finishes.players), dtype=np.int64)
    index = {player: i for i, player in enumerate(finishes.players)}
    for number, pool in enumerate(pools, 1):
        pool_of[[index[player] for player in pool]] = number
    ratings: dict[str, BatchRating] = {}
    for number, pool in enumerate(pools, 1):
        part = finishes.select(pool_of[finishes.seat_player[:, 0]] == number)
        # seeded by the pool's players: a pool's interval does not change when another pool
        # appears
        rng = np.random.default_rng([seed, zlib.crc32("\n".join(pool).encode())])
        shapes = record_shapes(part)
        played = _games_with_others(part)
        # the anchors: ratings the games set on both sides, not the prior (a handful of games,
        # a perfect record); centred on all, a few paused forfeiters of 2-3 games each kept
        # every interval of a ladder 10 times too wide (outside review)
        # main: the component the board is measured on (``record_shapes``); its well-measured
        # players where two are, else all of it (a young board), else every player
        main = [shapes[player] == ("", False) for player in part.players]
        anchored = [main[i] and int(played[i]) >= PROVISIONAL_GAMES for i in range(len(main))]
        if sum(anchored) < 2:
            anchored = main
        point, low, high = _fit_pool(
            part, [shapes[player][0] for player in part.players], anchored, bootstrap, rng
        )
        anchors = anchor_weights(anchored) > 0
        for i, player in enumerate(part.players):
            # a player that only ever met its own other seats: nothing to rate, and its pool's
            # centring would show the prior's guess as a certain 1500 [1500, 1500] (review H)
            unmeasured = 0.0 if played[i] else Z_95 * PRIOR_SD
            ratings[player] = BatchRating(
                rating=INITIAL_RATING + ELO_PER_NATURAL_UNIT * float(point[i]),
                low=INITIAL_RATING + ELO_PER_NATURAL_UNIT * float(low[i]) - unmeasured,
                high=INITIAL_RATING + ELO_PER_NATURAL_UNIT * float(high[i]) + unmeasured,
                bound=shapes[player][0],
                prior_set=shapes[player][1] or not played[i],
                games=int(played[i]),
                provisional=int(played[i]) < PROVISIONAL_GAMES,
                pool=number,
                pools=len(pools),
                anchor=bool(anchors[i]),
            )
    return dict(sorted(ratings.items()))


@dataclasses.dataclass(frozen=True)
class Posterior:
    """The main pool's (``pools.find_pools``) MAP ratings (Elo, centred on 1500) and their
    posterior (Laplace) covariance (Elo^2): the uncertainty of every difference, not only of
    every rating."""

    players: list[str]
    rating: FloatArray
    covariance: FloatArray
    games: IntArray


def fit_posterior(games: Sequence[GameResult]) -> Posterior:
    """The main pool of ``games`` fitted without bootstrap (cheap enough for every round of a
    ladder's matchmaking; a ladder fits a tally of its games instead, ``leaderboard.tally``)."""
    return posterior_of(encode(games))


@_one_blas_thread
def posterior_of(finishes: Finishes) -> Posterior:
    """``fit_posterior`` of the games of ``finishes`` (a row stands for ``finishes.weight``
    games)."""
    if not len(finishes.weight):
        empty = np.zeros(0)
        return Posterior([], empty, empty.reshape(0, 0), np.zeros(0, dtype=np.int64))
    largest = np.isin(finishes.players, find_pools(finishes)[0])
    part = finishes.select(largest[finishes.seat_player[:, 0]])
    stages = build_stages(part)
    precision = (ELO_PER_NATURAL_UNIT / PRIOR_SD) ** 2
    point = fit_map(stages, stages.weights[None, :], precision)[0]
    covariance = posterior_covariance(stages, point, precision)
    return Posterior(
        list(part.players),
        INITIAL_RATING + ELO_PER_NATURAL_UNIT * (point - point.mean()),
        ELO_PER_NATURAL_UNIT**2 * covariance,
        _games_with_others(part),
    )
