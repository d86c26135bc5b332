"""Pools of comparable players, and which players' records leave a rating unbounded.

Ratings are only comparable through chains of games: if A and B only ever played each other, and C
and D each other, nothing in the data says whether A is stronger than C. A *pool* is a connected
component of the graph whose edges join two players who sat in one game; each pool is rated on
its own scale (mean 1500), and its ratings say nothing about another pool's.

Inside a pool, a player (or a set of players) that finished ahead of everyone else in every game
they shared has no finite maximum-likelihood rating: the data only bound it from below. These are
found as the strongly connected components of the directed graph "i finished ahead of or tied
with j at least once": a component that nobody outside ever beat or tied is bounded only from below,
one that never beat or tied anybody outside only from above.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from leaderboard.finishes import Finishes, IntArray

Bound = Literal["", "lower", "upper"]


def _graph(finishes: Finishes, tail: IntArray, head: IntArray) -> sparse.csr_matrix:
    players = len(finishes.players)
    return sparse.csr_matrix(
        (np.ones(len(tail), dtype=np.int8), (tail, head)), shape=(players, players)
    )


def find_pools(finishes: Finishes) -> list[list[str]]:
    """Players grouped into pools (each sorted), largest pool first, ties by the first name.

    A player who only ever met its own other seats forms a pool of its own."""
    first = np.repeat(finishes.seat_player[:, :1], finishes.seat_player.shape[1], axis=1)
    joined = finishes.real
    _, label = connected_components(
        _graph(finishes, first[joined], finishes.seat_player[joined]), directed=False
    )
    pools: dict[int, list[str]] = {}
    for player, number in zip(finishes.players, label.tolist()):
        pools.setdefault(number, []).append(player)
    return sorted(pools.values(), key=lambda pool: (-len(pool), pool[0]))


def unbounded_sides(finishes: Finishes) -> dict[str, Bound]:
    """For the players of one pool: "lower" if only a lower bound on the rating follows from the
    games (a perfect record against the rest), "upper" if only an upper bound, else ""."""
    tails, heads = [], []
    seats = finishes.seat_player.shape[1]
    for a in range(seats):  # edge a -> b: a finished ahead of or tied with b
        for b in range(seats):
            ahead = finishes.real[:, a] & finishes.real[:, b]
            ahead &= finishes.place[:, a] <= finishes.place[:, b]
            tails.append(finishes.seat_player[ahead, a])
            heads.append(finishes.seat_player[ahead, b])
    tail, head = np.concatenate(tails), np.concatenate(heads)
    _, component = connected_components(_graph(finishes, tail, head), connection="strong")
    # a chain from outside into a component enters it by an edge from outside
    crossing = component[tail] != component[head]
    entered = np.zeros(len(finishes.players), dtype=bool)
    left = np.zeros(len(finishes.players), dtype=bool)
    entered[component[head[crossing]]] = True
    left[component[tail[crossing]]] = True

    def side(i: int) -> Bound:
        beaten_from_outside, beats_outside = entered[component[i]], left[component[i]]
        if not beaten_from_outside and beats_outside:
            return "lower"
        if not beats_outside and beaten_from_outside:
            return "upper"
        return ""

    return {player: side(i) for i, player in enumerate(finishes.players)}
