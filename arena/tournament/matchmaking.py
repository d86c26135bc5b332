"""Who plays whom next on a ladder: a pure rule, driven alike by ``arena ladder`` and by the
simulated ladder of ``python -m arena.bench ladder``.

The rule aims at the ranking itself. The ratings are the batch Plackett-Luce fit of the board's
games without bootstrap (``leaderboard.batch.fit_posterior``): point ratings and their posterior
covariance, so the uncertainty of every *difference*. Two entrants whose true difference is
``delta`` are ranked the wrong way round with probability ``Phi(-|delta| / sd)`` (``sd``: of the
estimated difference); summed over the pairs whose difference may be near zero (density ``f``
of "delta = 0": the estimated difference against ``sqrt(sd^2 + closeness^2)``), the expected
number of misordered pairs is about ``sum f * sd``. A deal between i and j (Fisher information
``w = p(1 - p)`` per game) narrows every pair's ``sd`` that the games link to them, a rank-one
update of the covariance; its *gain* is the resulting drop of ``sum f * sd``. Each round:

1. if the entrants do not fill whole pods, those left out are the ones with the most games
   (a newcomer plays at once, and nobody falls behind);
2. pods are taken greedily, the largest gain first (times a little noise, so near-equal choices
   vary), among the entrants still free (a pod of more seats grows by the entrant adding most);
3. a pod whose gain is under ``worth`` times the round's best sits the round out, unless it
   seats an entrant with fewer than ``share`` of the mean games (nobody starves); now and then
   (``explore``) an entrant is paired at random instead, so every pair meets eventually.

A newcomer's rating is the prior's (wide): its games gain most, against the middle of the
ranking. Then games go where the order is in doubt: between near-equal entrants whose difference
is little known, not to a pair already sure of its order (the ends of the ranking play less).
On a board of more than ``exact_up_to`` entrants the exact gains (O(n^4)) are replaced by local
ones (``local_gains``, O(n near^2)): deals only between entrants ``near`` places apart in the
rating order, each counting the pairs of its own two entrants.
Why this rule, and the rules it replaced, with their measurements: docs/ladder.md.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.batch import PRIOR_SD, Z_95
from leaderboard.elo import INITIAL_RATING
from leaderboard.plackett_luce import FloatArray
from leaderboard.tally import FinishTally

# Pairs whose order is this sure (density of a zero difference) weigh nothing.
NEGLIGIBLE = 1e-4
# Candidate pods x target pairs evaluated at once (memory, not speed).
BLOCK = 4_000_000


@dataclass(frozen=True)
class Ratings:
    """What matchmaking knows of the entrants of one board."""

    players: list[str]
    rating: FloatArray  # Elo
    covariance: FloatArray  # Elo^2
    games: list[int]

    def spread(self, index: int) -> float:
        """Standard deviation of one entrant's rating."""
        return math.sqrt(max(float(self.covariance[index, index]), 0.0))

    def width(self, index: int) -> float:
        """One entrant's 95% interval width (Laplace)."""
        return 2 * Z_95 * self.spread(index)

    def after(self, pods: Iterable[tuple[str, ...]], seats: int) -> Ratings:
        """As if ``pods`` had played their deals (``seats`` games each): the covariance narrowed
        by their information, their games counted, the ratings unchanged (no results yet).
        Rounds planned together, before any result, then spread out instead of repeating."""
        covariance, games = self.covariance.copy(), list(self.games)
        index = {player: i for i, player in enumerate(self.players)}
        for pod in pods:
            members = [index[player] for player in pod]
            for a, b in itertools.combinations(members, 2):
                moved = covariance[:, a] - covariance[:, b]
                information = deal_information(self.rating[a] - self.rating[b], seats)
                covariance -= np.outer(moved, moved) * (
                    information / (1.0 + information * (moved[a] - moved[b]))
                )
            for member in members:
                games[member] += seats
        return Ratings(self.players, self.rating, covariance, games)

    def select(self, indices: Sequence[int]) -> Ratings:
        chosen = np.asarray(indices, dtype=np.int64)
        return Ratings(
            [self.players[i] for i in indices],
            self.rating[chosen],
            self.covariance[np.ix_(chosen, chosen)],
            [self.games[i] for i in indices],
        )


def ratings(tally: FinishTally, players: Iterable[str]) -> Ratings:
    """``players`` as rated by the games of ``tally``. A player outside the largest pool (its
    rating is on another scale) or without games stands at 1500 with the prior's spread,
    independent of the rest, so its games gain most and join it to the pool."""
    fit = tally.fit()
    index = {player: i for i, player in enumerate(fit.players)}
    wanted = list(players)
    rated = [index.get(player, -1) for player in wanted]
    inside = np.array([i >= 0 for i in rated], dtype=bool)
    where = np.array([max(i, 0) for i in rated], dtype=np.int64)
    rating = np.where(inside, fit.rating[where] if len(fit.players) else 0.0, INITIAL_RATING)
    covariance = np.diag(np.full(len(wanted), PRIOR_SD**2))
    if inside.any():
        known = np.flatnonzero(inside)
        covariance[np.ix_(known, known)] = fit.covariance[np.ix_(where[known], where[known])]
    played = {player: int(fit.games[i]) for player, i in index.items()}
    return Ratings(wanted, rating.astype(float), covariance, [played.get(p, 0) for p in wanted])


def deal_information(difference: FloatArray | float, seats: int) -> FloatArray:
    """Fisher information (per Elo^2) on a rating difference from one deal of ``seats`` games
    between two players that far apart: ``p(1 - p)`` per game."""
    win = 1.0 / (1.0 + 10.0 ** (-np.asarray(difference) / 400.0))
    information: FloatArray = seats * win * (1.0 - win) * (math.log(10.0) / 400.0) ** 2
    return information


def pair_gains(rated: Ratings, seats: int, closeness: float, near: int = 0) -> FloatArray:
    """(n, n): the expected drop of misordered pairs from one deal (``seats`` games, one per
    rotation) between each two entrants, at first order (module docstring). With ``near``, only
    for the entrants at most ``near`` places apart in the rating order, counting the drop on
    their own pairs (``local_gains``); 0 elsewhere."""
    if near:
        return local_gains(rated, seats, closeness, near)
    n = len(rated.players)
    rating, covariance = rated.rating, rated.covariance
    difference_var = _difference_variance(covariance)
    # the pairs that may be misordered (targets) and their weights f * sd
    upper, lower = np.triu_indices(n, 1)
    weights = _doubt_weights(rating, difference_var, closeness)
    doubtful = weights[upper, lower] > 0
    upper, lower = upper[doubtful], lower[doubtful]
    target_var = difference_var[upper, lower]
    weight = weights[upper, lower]
    # the candidate deals: the rank-one update w u u^T / (1 + w var_ij), u = cov (e_i - e_j)
    i, j = np.triu_indices(n, 1)
    shrink = _shrink(rating, difference_var, i, j, seats)
    gains = np.zeros(len(i))
    step = max(1, BLOCK // max(1, len(upper)))
    for start in range(0, len(i), step):
        part = slice(start, start + step)
        moved = covariance[:, i[part]] - covariance[:, j[part]]  # (n, block)
        narrowed = (moved[upper] - moved[lower]) ** 2 * shrink[part] / target_var[:, None]
        gains[part] = weight @ (1.0 - np.sqrt(1.0 - np.clip(narrowed, 0.0, 1.0)))
    matrix = np.zeros((n, n))
    matrix[i, j] = matrix[j, i] = gains
    return matrix


def local_gains(rated: Ratings, seats: int, closeness: float, near: int) -> FloatArray:
    """``pair_gains`` for many entrants, in O(n near^2) instead of O(n^4): the candidate deals
    are the pairs at most ``near`` places apart in the rating order, and a deal's gain counts
    the pairs of its two entrants with those within ``near`` places of them (where a game
    narrows a difference most; the drop it brings to the other pairs, through the covariance,
    is left out)."""
    n = len(rated.players)
    rating, covariance = rated.rating, rated.covariance
    difference_var = _difference_variance(covariance)
    weights = _doubt_weights(rating, difference_var, closeness)
    order = np.argsort(rating, kind="stable")
    place = np.empty(n, dtype=np.int64)
    place[order] = np.arange(n)
    # each entrant's window: the entrants up to ``near`` places either side (-1 pads the ends)
    offsets = np.arange(-near, near + 1)
    offsets = offsets[offsets != 0]
    around = place[:, None] + offsets[None, :]
    window = np.where((around >= 0) & (around < n), order[np.clip(around, 0, n - 1)], -1)
    # the candidate deals: each entrant with those up to ``near`` places above it
    above = window[:, near:]
    i = np.repeat(np.arange(n), near)
    j = above.ravel()
    i, j = i[j >= 0], j[j >= 0]
    shrink = _shrink(rating, difference_var, i, j, seats)

    def drop(member: np.ndarray, skip: np.ndarray | None) -> FloatArray:
        """The drop on the pairs of ``member`` (each deal's one side) with its window but
        ``skip`` (the deal's own pair, counted on one side only)."""
        partners = window[member]  # (deals, 2 near)
        valid = partners >= 0
        if skip is not None:
            valid &= partners != skip[:, None]
        safe = np.where(valid, partners, 0)
        moved_member = covariance[member, i] - covariance[member, j]
        moved_partner = covariance[safe, i[:, None]] - covariance[safe, j[:, None]]
        target_var = difference_var[member[:, None], safe]
        narrowed = (moved_member[:, None] - moved_partner) ** 2 * shrink[:, None] / target_var
        weight = np.where(valid, weights[member[:, None], safe], 0.0)
        return (weight * (1.0 - np.sqrt(1.0 - np.clip(narrowed, 0.0, 1.0)))).sum(axis=1)

    matrix = np.zeros((n, n))
    matrix[i, j] = matrix[j, i] = drop(i, None) + drop(j, i)
    return matrix


def _difference_variance(covariance: FloatArray) -> FloatArray:
    """(n, n): the variance of each two entrants' rating difference."""
    variance = np.diag(covariance)
    return np.maximum(variance[:, None] + variance[None, :] - 2 * covariance, 1e-9)


def _doubt_weights(rating: FloatArray, difference_var: FloatArray, closeness: float) -> FloatArray:
    """(n, n): each pair's weight ``f * sd`` in the expected misordered pairs, 0 for the pairs
    sure of their order."""
    smoothed = np.sqrt(difference_var + closeness**2)
    density = np.exp(-0.5 * ((rating[:, None] - rating[None, :]) / smoothed) ** 2) / smoothed
    weight: FloatArray = np.where(
        density * closeness > NEGLIGIBLE, density * np.sqrt(difference_var), 0.0
    )
    np.fill_diagonal(weight, 0.0)
    return weight


def _shrink(
    rating: FloatArray, difference_var: FloatArray, i: np.ndarray, j: np.ndarray, seats: int
) -> FloatArray:
    """The rank-one update's factor ``w / (1 + w var_ij)`` of the deals between ``i`` and ``j``."""
    information = deal_information(rating[i] - rating[j], seats)
    shrink: FloatArray = information / (1.0 + information * difference_var[i, j])
    return shrink


@dataclass(frozen=True)
class Matchmaking:
    players: int  # seats per pod
    explore: float = 0.01  # chance that an entrant is paired at random
    jitter: float = 0.1  # sd of the log-normal noise on each pod's gain
    closeness: float = 150.0  # Elo: how near two ratings count as "maybe misordered"
    worth: float = 0.3  # a pod plays if its gain is at least this share of the round's best...
    share: float = 0.5  # ... or it seats an entrant with fewer games than this share of the mean
    # Above ``exact_up_to`` entrants, the gains are ``local_gains`` within ``near`` places: the
    # exact gains cost O(n^4) (0.6 s of CPU for 100 entrants, 40 s for 300; local gains 0.2 s
    # for 300, 0.7 s for 1,000). Below it the exact gains are kept: on 50 bots the local ones
    # needed a little more games in the benchmark (docs/ladder.md).
    exact_up_to: int = 100
    near: int = 30

    def round(self, entrants: Ratings, rng: random.Random) -> list[tuple[str, ...]]:
        """The pods of one round among ``entrants`` (those free to play), the entrant with the
        fewest games first in each; entrants left over (fewer than a pod) sit this round out."""
        n = len(entrants.players)
        by_games = sorted(
            range(n), key=lambda e: (entrants.games[e], -entrants.spread(e), rng.random())
        )
        seated = sorted(by_games[: n - n % self.players])
        if not seated:
            return []
        rated = entrants.select(seated)
        near = 0 if len(seated) <= self.exact_up_to else self.near
        gains = pair_gains(rated, self.players, self.closeness, near)
        noise = np.random.default_rng(rng.getrandbits(64))
        scored = gains * np.exp(self.jitter * noise.standard_normal(gains.shape))
        mean_games = sum(rated.games) / len(seated)
        due = {m for m in range(len(seated)) if rated.games[m] < self.share * mean_games}
        free = set(range(len(seated)))
        pods = []
        for member in rng.sample(sorted(free), len(free)):
            if member in free and len(free) > self.players and rng.random() < self.explore:
                others = rng.sample(sorted(free - {member}), self.players - 1)
                pods.append([member, *others])
                free -= set(pods[-1])
        i, j = np.triu_indices(len(seated), 1)
        order = np.argsort(-scored[i, j], kind="stable")
        best = scored[i[order[0]], j[order[0]]] if len(order) else 0.0
        for pair in order:
            a, b = int(i[pair]), int(j[pair])
            if len(free) < self.players:
                break
            if a not in free or b not in free:
                continue
            if scored[a, b] < self.worth * best and not {a, b} & due:
                continue
            pod = [a, b]
            while len(pod) < self.players:
                pod.append(max(free - set(pod), key=lambda x: gains[x, pod].sum()))
            pods.append(pod)
            free -= set(pod)
        return [
            tuple(
                rated.players[m]
                for m in sorted(pod, key=lambda m: (rated.games[m], -rated.spread(m)))
            )
            for pod in pods
        ]


def rotations(pod: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The seatings of one pod's deal, as a tournament plays it: once per rotation of the seats,
    so every member sits in every seat on the same deal."""
    return [pod[turn:] + pod[:turn] for turn in range(len(pod))]
