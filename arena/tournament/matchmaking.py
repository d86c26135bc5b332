"""Who plays whom next on a ladder: a pure rule, driven alike by ``arena ladder`` and by the
simulated ladder of ``python -m arena.bench ladder``.

A round gives every entrant at most one pod (of ``players`` seats). Pods are formed one at a time:

1. the *anchor* is the free entrant with the fewest games, ties broken by the widest rating
   interval, then at random: a newcomer plays at once, and nobody falls behind;
2. each other seat goes to a free entrant drawn at random with weight
   ``explore + exp(-d^2 / (2 (closeness^2 + s_anchor^2 + s_other^2)))``, where ``d`` is the
   rating difference to the anchor and ``s`` the ratings' standard deviations: opponents near
   the anchor's rating are preferred (their games tell most about the order), more loosely while
   the ratings are uncertain, and the ``explore`` floor lets every pair meet now and then.

Everyone plays every round (but fewer than a pod's worth left over), so the last pods of a round
take whoever is left: the price of equal games for all.

The ratings are the batch Plackett-Luce fit without bootstrap (``standings``): its point rating
and its Laplace standard deviation, cheap enough to recompute every round.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from leaderboard.batch import PRIOR_SD, Z_95, fit_batch
from leaderboard.elo import INITIAL_RATING
from leaderboard.results import GameResult


@dataclass(frozen=True, slots=True)
class Standing:
    """What matchmaking knows of one entrant."""

    player: str
    rating: float = INITIAL_RATING
    spread: float = PRIOR_SD  # standard deviation of ``rating``, Elo points
    games: int = 0


def standings(results: Sequence[GameResult], players: Iterable[str]) -> list[Standing]:
    """Each of ``players`` as rated by ``results``. A player outside the largest pool (its rating
    is on another scale) or without games stands at 1500 with the prior's spread, so the rule
    pairs it widely and joins it to the pool."""
    fit = fit_batch(results, bootstrap=0) if results else {}
    found = []
    for player in players:
        rating = fit.get(player)
        if rating is None or rating.pool != 1:
            found.append(Standing(player, games=rating.games if rating else 0))
        else:
            spread = (rating.high - rating.low) / (2 * Z_95)
            found.append(Standing(player, rating.rating, spread, rating.games))
    return found


@dataclass(frozen=True)
class Matchmaking:
    players: int  # seats per pod
    closeness: float = 100.0  # Elo: how near the anchor an opponent is sought, at best
    explore: float = 0.02  # weight of the least fitting opponent, relative to a perfect one

    def affinity(self, anchor: Standing, other: Standing) -> float:
        scale = self.closeness**2 + anchor.spread**2 + other.spread**2
        return self.explore + math.exp(-((other.rating - anchor.rating) ** 2) / (2 * scale))

    def round(self, entrants: Sequence[Standing], rng: random.Random) -> list[tuple[str, ...]]:
        """The pods of one round among ``entrants`` (those free to play), anchor first in each;
        entrants left over (fewer than a pod) sit this round out."""
        free = sorted(entrants, key=lambda s: (s.games, -s.spread, rng.random()))
        pods: list[tuple[str, ...]] = []
        while len(free) >= self.players:
            anchor = free.pop(0)
            pod = [anchor]
            for _ in range(self.players - 1):
                weights = [self.affinity(anchor, other) for other in free]
                pod.append(free.pop(rng.choices(range(len(free)), weights)[0]))
            pods.append(tuple(standing.player for standing in pod))
        return pods


def rotations(pod: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The seatings of one pod's deal, as a tournament plays it: once per rotation of the seats,
    so every member sits in every seat on the same deal."""
    return [pod[turn:] + pod[:turn] for turn in range(len(pod))]
