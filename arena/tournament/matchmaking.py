"""Who plays whom next on a ladder: a pure rule, driven alike by ``arena ladder`` and by the
simulated ladder of ``python -m arena.bench ladder``.

The rule aims at the ranking itself. The ratings are the batch Plackett-Luce fit of the
board's games (``leaderboard.batch.fit_posterior``: point ratings and the posterior covariance,
so the uncertainty of every *difference*). Near the truth, the expected number of pairs ranked
the wrong way round is about ``sum over pairs of phi(z) * (1 - sd_after / sd_now)`` lost per
game, where ``z`` is the pair's difference over its standard deviation (the density of "they are
equal", up to the part the game removes) and ``sd_after`` the standard deviation of the pair's
difference once the game is played (a rank-one update of the covariance: a game between i and j
of Fisher information ``w = p(1 - p)`` tells about every pair linked to them). Each round:

1. if the entrants do not fill whole pods, those left out are the ones with the most games
   (a newcomer plays at once, and nobody falls behind);
2. every candidate pod's gain is that expected reduction of misordered pairs (a pod of more
   seats: the sum over its pairs), times a little noise so near-equal choices vary;
3. pods are taken greedily, the best first, among the entrants still free, so everyone seated
   plays (no one starves). Now and then (``explore``) an entrant is paired at random instead,
   so every pair meets eventually.

A newcomer's rating is the prior's (wide): its games gain most and it meets the middle of the
ranking at once; then games go where the ranking is in doubt, between near-equal entrants whose
difference is little known. Why this rule, and the rules it replaced, with their measurements:
docs/ladder.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from leaderboard.batch import PRIOR_SD, Z_95, fit_posterior
from leaderboard.elo import INITIAL_RATING
from leaderboard.plackett_luce import FloatArray
from leaderboard.results import GameResult

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

    def select(self, indices: Sequence[int]) -> Ratings:
        chosen = np.asarray(indices, dtype=np.int64)
        return Ratings(
            [self.players[i] for i in indices],
            self.rating[chosen],
            self.covariance[np.ix_(chosen, chosen)],
            [self.games[i] for i in indices],
        )


def ratings(results: Sequence[GameResult], players: Iterable[str]) -> Ratings:
    """``players`` as rated by ``results``. A player outside the largest pool (its rating is on
    another scale) or without games stands at 1500 with the prior's spread, independent of the
    rest, so its games gain most and join it to the pool."""
    fit = fit_posterior(results)
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


def pair_gains(rated: Ratings, seats: int, closeness: float) -> FloatArray:
    """(n, n): the expected reduction of misordered pairs by one deal (``seats`` games, one per
    rotation) between each two entrants, at first order (module docstring)."""
    n = len(rated.players)
    rating, covariance = rated.rating, rated.covariance
    variance = np.diag(covariance)
    difference_var = np.maximum(variance[:, None] + variance[None, :] - 2 * covariance, 1e-9)
    k, l = np.triu_indices(n, 1)
    smoothed = np.sqrt(difference_var[k, l] + closeness**2)
    weight = np.exp(-0.5 * ((rating[k] - rating[l]) / smoothed) ** 2) / smoothed
    targets = weight * closeness > NEGLIGIBLE
    k, l, weight, target_var = (
        k[targets],
        l[targets],
        weight[targets],
        difference_var[k, l][targets],
    )
    i, j = np.triu_indices(n, 1)
    win = 1.0 / (1.0 + 10.0 ** (-(rating[i] - rating[j]) / 400.0))
    information = seats * win * (1.0 - win) * (math.log(10.0) / 400.0) ** 2  # per Elo^2
    shrink = information / (1.0 + information * difference_var[i, j])
    gains = np.zeros(len(i))
    step = max(1, BLOCK // max(1, len(k)))
    for start in range(0, len(i), step):
        part = slice(start, start + step)
        moved = covariance[:, i[part]] - covariance[:, j[part]]  # (n, block)
        reduced = (moved[k] - moved[l]) ** 2 * shrink[part] / target_var[:, None]
        gains[part] = (weight * np.sqrt(target_var)) @ (
            1.0 - np.sqrt(1.0 - np.clip(reduced, 0.0, 1.0))
        )
    matrix = np.zeros((n, n))
    matrix[i, j] = matrix[j, i] = gains
    return matrix


@dataclass(frozen=True)
class Matchmaking:
    players: int  # seats per pod
    explore: float = 0.01  # chance that an entrant is paired at random
    jitter: float = 0.1  # sd of the log-normal noise on each pod's gain
    closeness: float = 150.0  # Elo: how near two ratings count as "maybe misordered"
    worth: float = 0.3  # a pod plays if its gain is at least this share of the round's best...
    share: float = 0.5  # ... or it seats an entrant with fewer games than this share of the mean

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
        gains = pair_gains(rated, self.players, self.closeness)
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
