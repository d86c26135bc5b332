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

from leaderboard.finishes import Finishes, FloatArray, IntArray

Bound = Literal["", "lower", "upper"]


def _graph(finishes: Finishes, tail: IntArray, head: IntArray) -> sparse.csr_matrix:
    players = len(finishes.players)
    return sparse.csr_matrix(
        (np.ones(len(tail), dtype=np.int8), (tail, head)), shape=(players, players)
    )


def find_pools(finishes: Finishes) -> list[list[str]]:
    """Players grouped into pools (each sorted), the main pool first: the one whose players
    finished the most games (played to the end, not forfeited), then the largest, then by the
    first name. By players alone, a bot paired with a forfeiter made a pool as large as the
    ladder's other two bots', and being first by its name it was the one matchmaking read: the
    two others played 148 games, it none (a test's ladder).

    A player who only ever met its own other seats forms a pool of its own."""
    first = np.repeat(finishes.seat_player[:, :1], finishes.seat_player.shape[1], axis=1)
    joined = finishes.real
    _, label = connected_components(
        _graph(finishes, first[joined], finishes.seat_player[joined]), directed=False
    )
    label = np.asarray(label, dtype=np.int64)
    played = _finished_games(finishes, label)
    pools: dict[int, list[str]] = {}
    for player, number in zip(finishes.players, label.tolist()):
        pools.setdefault(number, []).append(player)
    return [
        pools[number]
        for number in sorted(pools, key=lambda n: (-played[n], -len(pools[n]), pools[n][0]))
    ]


def _finished_games(finishes: Finishes, group: IntArray) -> FloatArray:
    """Per group (``group``: a label per player): the games its players finished, one per seat
    played to the end (a forfeit counts nothing)."""
    finished = finishes.real & ~finishes.forfeit
    played: FloatArray = np.bincount(
        group[finishes.seat_player[finished]],
        np.broadcast_to(finishes.weight[:, None], finished.shape)[finished],
        minlength=int(group.max(initial=-1)) + 1,
    ).astype(np.float64)
    return played


def _ahead(finishes: Finishes) -> tuple[IntArray, IntArray]:
    """Edges (tail, head) of "tail finished ahead of or tied with head" in some game."""
    tails, heads = [], []
    seats = finishes.seat_player.shape[1]
    for a in range(seats):
        for b in range(seats):
            ahead = finishes.real[:, a] & finishes.real[:, b]
            ahead &= finishes.place[:, a] <= finishes.place[:, b]
            tails.append(finishes.seat_player[ahead, a])
            heads.append(finishes.seat_player[ahead, b])
    return np.concatenate(tails), np.concatenate(heads)


def _strong_components(finishes: Finishes, tail: IntArray, head: IntArray) -> IntArray:
    _, component = connected_components(_graph(finishes, tail, head), connection="strong")
    return np.asarray(component, dtype=np.int64)


def strong_components(finishes: Finishes) -> IntArray:
    """Component label per player: players who finished ahead of each other, through chains."""
    return _strong_components(finishes, *_ahead(finishes))


def record_shapes(finishes: Finishes) -> dict[str, tuple[Bound, bool]]:
    """For the players of one pool: (bound, prior_set).

    bound: "lower" if only a lower bound on the rating follows from the games (nobody outside
    its strongly connected component ever finished ahead of or tied with it), "upper" if only an
    upper bound, else "". prior_set: bounded on both sides, but only through players of other
    components (e.g. always behind one player and always ahead of another): between
    components every record is perfect, so the games fix its rating only relative to its own
    component, and how far that sits from the others is the prior's. The pool's ratings are
    measured against its main component (``_main_component``: where most games were played to
    the end), whose players are bounded on both sides, against each other."""
    tail, head = _ahead(finishes)
    component = _strong_components(finishes, tail, head)
    # a chain from outside into a component enters it by an edge from outside
    crossing = component[tail] != component[head]
    entered = np.zeros(len(finishes.players), dtype=bool)
    left = np.zeros(len(finishes.players), dtype=bool)
    entered[component[head[crossing]]] = True
    left[component[tail[crossing]]] = True
    main = _main_component(finishes, component)

    def shape(i: int) -> tuple[Bound, bool]:
        if component[i] == main:
            return "", False
        beaten_from_outside, beats_outside = entered[component[i]], left[component[i]]
        if not beaten_from_outside and beats_outside:
            return "lower", False
        if not beats_outside and beaten_from_outside:
            return "upper", False
        return "", bool(beaten_from_outside and component[i] != main)

    return {player: shape(i) for i, player in enumerate(finishes.players)}


def _main_component(finishes: Finishes, component: IntArray) -> int:
    """The component the board is measured on: of those of more than one player, the one whose
    players finished the most games (seats played to the end, not forfeited), else -1 (two alike
    leave no main one: which the board is measured on is not the games' to say).

    Finished games, not players, and one-sided or not: bots that always forfeit tie with each
    other when they meet, which makes them a component of their own, bounded on both sides; as
    the largest they took the board over, every real bot one-sided around them, and a board's
    main component one-sided as a whole (every real bot above one that always forfeits) is still
    measured inside (outside reviews)."""
    sizes = np.bincount(component)
    played = _finished_games(finishes, component)
    played[sizes < 2] = 0
    most = played.max(initial=0)
    return int(np.argmax(played)) if most > 0 and np.sum(played == most) == 1 else -1


def unbounded_sides(finishes: Finishes) -> dict[str, Bound]:
    """For the players of one pool: the ``bound`` of ``record_shapes``."""
    return {player: bound for player, (bound, _) in record_shapes(finishes).items()}
