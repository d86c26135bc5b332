"""One-sided bounds from the chance of the record that makes them one-sided.

A group of players that nobody outside ever finished ahead of (a "lower" strongly connected
component, ``leaderboard.pools``) has no finite likelihood maximum: its distance above the rest is
set by the prior, and so is any interval computed around the posterior mode. With several seats
the group's centred ratings also move with the prior-set ratings of the rest (a bot that finished
last in every game drags the mean down, and the others' ratings up), and the mode's intervals
missed the truth in up to 29% of small 4-player boards.

The bound here uses the games, not the prior: shift the group's ratings together by delta from
the mode and find the delta at which the record "every seat of the group finished ahead of every
other seat, in every game it played" has a chance of ``TAIL`` (an exact test inversion, as
``leaderboard.sprt`` bounds a perfect SPRT record). The group's lower bound is its members'
centred ratings at that shift, less the 95% Laplace spread of each member against its group's
mean (the differences inside the group are measured by the games, with their own uncertainty).
The mirror ("upper": every other seat ahead of the group) gives upper bounds. The fit keeps the
lower of this bound and its intervals' low end.

Why ``TAIL`` is 0.1%, not 2.5%: a "> x" is shown only when such a record happened, and under a
fixed truth that is often a rare event (a bot a little stronger than the rest winning all of 12
four-player games: a chance of 0.07%). At 2.5% the bound then excludes the truth every time it is
shown: shown bounds held the truth in 92% of rows on 4-player boards of 4 bots and 12 games
(``python -m leaderboard.coverage``, README's table). At 0.1% they hold it in 97%, and a 4-0
record's bound moves from 1413 to 1367.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from leaderboard.finishes import NO_SEAT, Finishes
from leaderboard.plackett_luce import FloatArray, IntArray

TAIL = 0.001  # chance of the record at the bound (README: why so small)
Z_95 = 1.959964
_SHIFT_RANGE = 40.0  # natural units searched either way (about 7,000 Elo)
_BISECTIONS = 60


def _ahead_chance(first: list[float], then: list[float]) -> float:
    """Plackett-Luce chance that all seats of weights ``first`` finish ahead of all of ``then``:
    the first places are picked among ``first`` in some order, every order summed."""
    rest = sum(then)
    total = 0.0
    for order in itertools.permutations(first):
        left, chance = sum(order) + rest, 1.0
        for weight in order:
            chance *= weight / left
            left -= weight
        total += chance
    return total


def _records(finishes: Finishes, members: set[int]) -> Counter[tuple[tuple[int, ...], ...]]:
    """(group's seats, other seats) as player indices, counted over the games with both."""
    found: Counter[tuple[tuple[int, ...], ...]] = Counter()
    played = np.isin(finishes.seat_player, list(members)).any(axis=1)
    for seats in finishes.seat_player[played].tolist():
        mine = tuple(sorted(p for p in seats if p in members))
        others = tuple(sorted(p for p in seats if p != NO_SEAT and p not in members))
        if mine and others:
            found[mine, others] += 1
    return found


def _shift(theta: FloatArray, finishes: Finishes, members: set[int], ahead: bool) -> float:
    """The shift of the group's ratings at which its record has chance ``TAIL``: the lowest
    plausible one when the group was ahead in every game (``ahead``), else the highest."""
    records = _records(finishes, members)
    weight = np.exp(theta - theta.max())

    def log_chance(delta: float) -> float:
        scale = math.exp(delta)
        total = 0.0
        for (mine, others), count in records.items():
            group = [float(weight[p]) * scale for p in mine]
            rest = [float(weight[p]) for p in others]
            chance = _ahead_chance(group, rest) if ahead else _ahead_chance(rest, group)
            total += count * math.log(max(chance, 1e-300))
        return total

    low, high = -_SHIFT_RANGE, _SHIFT_RANGE
    for _ in range(_BISECTIONS):  # the chance rises with delta when ahead, falls otherwise
        middle = (low + high) / 2.0
        if (log_chance(middle) < math.log(TAIL)) == ahead:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def one_sided_bounds(
    finishes: Finishes,
    component: IntArray,
    sides: Sequence[str],
    theta: FloatArray,
    covariance: FloatArray,
    weights: FloatArray | None = None,
) -> FloatArray:
    """For each player with a one-sided bound (``sides[i]`` "lower" or "upper"), that bound on
    its centred rating (natural units); NaN for the others. ``theta`` is the pool's MAP (not
    centred), ``covariance`` its Laplace covariance, ``component`` the players' strongly
    connected components, ``weights`` those of the mean the ratings are centred on (default:
    every player's alike)."""
    players = len(theta)
    if weights is None:
        weights = np.full(players, 1.0 / players)
    bounds = np.full(players, np.nan)
    for label in sorted({int(component[i]) for i in range(players) if sides[i]}):
        indices = np.flatnonzero(component == label)
        side = sides[int(indices[0])]
        delta = _shift(theta, finishes, set(indices.tolist()), ahead=side == "lower")
        shifted = theta.copy()
        shifted[indices] += delta
        centred = shifted - weights @ shifted
        for i in indices:
            against_group = np.zeros(players)
            against_group[indices] = -1.0 / len(indices)
            against_group[i] += 1.0
            spread = Z_95 * math.sqrt(max(float(against_group @ covariance @ against_group), 0.0))
            bounds[i] = centred[i] - spread if side == "lower" else centred[i] + spread
    return bounds
