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

from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from leaderboard.plackett_luce import finishing_blocks
from leaderboard.results import GameResult

Bound = Literal["", "lower", "upper"]


def find_pools(games: Sequence[GameResult]) -> list[list[str]]:
    """Players grouped into pools (each sorted), largest pool first, ties by the first name.

    A player who only ever met its own other seats forms a pool of its own."""
    root = {seat.player: seat.player for game in games for seat in game.seats}

    def find(player: str) -> str:
        while root[player] != player:
            root[player] = root[root[player]]
            player = root[player]
        return player

    for game in games:
        first = find(game.seats[0].player)
        for seat in game.seats[1:]:
            root[find(seat.player)] = first
            first = find(first)
    pools: dict[str, list[str]] = {}
    for player in sorted(root):
        pools.setdefault(find(player), []).append(player)
    return sorted(pools.values(), key=lambda pool: (-len(pool), pool[0]))


def unbounded_sides(games: Sequence[GameResult], players: Sequence[str]) -> dict[str, Bound]:
    """For the players of one pool: "lower" if only a lower bound on the rating follows from the
    games (a perfect record against the rest), "upper" if only an upper bound, else ""."""
    index = {player: i for i, player in enumerate(players)}
    # reach[i, j]: a chain "finished ahead of or tied with" leads from i to j
    reach: NDArray[np.bool_] = np.eye(len(players), dtype=bool)
    for game in games:
        blocks = finishing_blocks(game.seats)
        for place, block in enumerate(blocks):
            behind = [index[p] for later in blocks[place:] for p in later]
            for player in block:
                reach[index[player], behind] = True
    for k in range(len(players)):  # transitive closure (Warshall)
        reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
    # i and j share a strongly connected component when each reaches the other
    same = reach & reach.T
    outside: NDArray[np.bool_] = reach & ~same
    beaten_from_outside = [bool(column.any()) for column in outside.T]
    beats_outside = [bool(row.any()) for row in outside]

    def side(i: int) -> Bound:
        if not beaten_from_outside[i] and beats_outside[i]:
            return "lower"
        if not beats_outside[i] and beaten_from_outside[i]:
            return "upper"
        return ""

    return {player: side(i) for player, i in index.items()}
