"""Who plays whom next on a ladder: a pure rule, driven alike by ``arena ladder`` and by the
simulated ladder of ``python -m arena.bench ladder``.

A round gives every entrant at most one pod (of ``players`` seats), Swiss-style:

1. if the entrants do not fill whole pods, those left out are the ones with the most games
   (a newcomer plays at once, and nobody falls behind);
2. the others are sorted by their rating plus noise of standard deviation
   ``sqrt(noise^2 + spread^2)`` (``spread``: the rating's standard deviation), and each run of
   ``players`` consecutive entrants is a pod. Neighbours in the ranking meet: a game between
   near-equal players tells most (its outcome is least predictable), and the noise, wide while
   ratings are uncertain, makes each meet several different neighbours, which ties the ranking
   together. Now and then (``explore``) an entrant is placed anywhere in the range instead, so
   every pair meets eventually.

Why this rule, and the rules it replaced, with their measurements: docs/ladder.md.

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
    noise: float = 50.0  # Elo: how far from its rating an entrant is placed, at least
    explore: float = 0.01  # chance that an entrant is placed anywhere in the range

    def round(self, entrants: Sequence[Standing], rng: random.Random) -> list[tuple[str, ...]]:
        """The pods of one round among ``entrants`` (those free to play), the entrant with the
        fewest games first in each; entrants left over (fewer than a pod) sit this round out."""
        by_games = sorted(entrants, key=lambda s: (s.games, -s.spread, rng.random()))
        seated = by_games[: len(by_games) - len(by_games) % self.players]
        if not seated:
            return []
        low = min(s.rating for s in seated)
        high = max(s.rating for s in seated)

        def place(standing: Standing) -> float:
            if rng.random() < self.explore:
                return rng.uniform(low, high)
            return standing.rating + rng.gauss(0.0, math.hypot(self.noise, standing.spread))

        ordered = sorted(seated, key=place)
        pods = [ordered[i : i + self.players] for i in range(0, len(ordered), self.players)]
        return [
            tuple(s.player for s in sorted(pod, key=lambda s: (s.games, -s.spread))) for pod in pods
        ]


def rotations(pod: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The seatings of one pod's deal, as a tournament plays it: once per rotation of the seats,
    so every member sits in every seat on the same deal."""
    return [pod[turn:] + pod[:turn] for turn in range(len(pod))]
