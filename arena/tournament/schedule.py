"""The schedule of a round robin follows from its settings and seed alone.

For B entrants and P seats, every combination of P entrants is a pod; each pod plays K deals;
each deal (one seed) is played once per rotation of the seats, so every entrant of the pod sits in
every seat on the same deal. Order: deal by deal, so ratings are meaningful early; within a deal,
rotation by rotation, then pod by pod, so a pod's rotations of a deal are played one after
another rather than at once: a game is shown live only once the other rotations of its deal are
played (``arena.storage.running``), and this way the last rotation of each deal can be watched.
Each game has a stable key, which is how a resumed tournament knows what is done.

A pod that seats a remote bot (``NAME@HOST:PORT``) plays each rotation on a deal of its own
(``rotation_deal``): the arena keeps a process from playing two rotations of one deal (it would
know the other seats' cards from the rotation before, ``arena.referee.pool``) by replacing it,
and a remote bot is one process that it cannot replace.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Set
from dataclasses import dataclass
from math import comb


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    key: str  # stable identity within the tournament, e.g. "pod 0+1+2 deal 3 rotation 1"
    pod: str  # "0+1+2": entrant positions of the pod
    deal: int
    seed: int  # the deal's seed, shared by the pod's rotations of it (``rotation_seed``)
    seats: tuple[int, ...]  # entrant position in each seat


def deal_seed(tournament_seed: int, pod: str, deal: int) -> int:
    """A 63-bit seed derived from the tournament seed, the pod and the deal number."""
    digest = hashlib.blake2b(
        f"{tournament_seed}/{pod}/{deal}".encode(), person=b"arena-deal", digest_size=8
    ).digest()
    return int.from_bytes(digest, "big") >> 1


def rotation_deal(seed: int, rotation: int) -> int:
    """The seed of rotation ``rotation`` of the deal ``seed`` played on a deal of its own."""
    digest = hashlib.blake2b(
        f"{seed}/{rotation}".encode(), person=b"arena-rotation", digest_size=8
    ).digest()
    return int.from_bytes(digest, "big") >> 1


def rotation_seed(seed: int, rotation: int, members: tuple[int, ...], remote: Set[int]) -> int:
    """The seed of rotation ``rotation`` of the pod ``members``' deal ``seed``: the deal itself,
    unless a member is a remote bot (positions ``remote``; the module's docstring says why)."""
    return seed if remote.isdisjoint(members) else rotation_deal(seed, rotation)


def schedule_size(entrants: int, players: int, deals: int) -> int:
    return comb(entrants, players) * deals * players


def build_schedule(
    entrants: int, players: int, deals: int, seed: int, remote: Set[int] = frozenset()
) -> list[ScheduledGame]:
    """The round robin's games, in order; ``remote``: the positions of remote bots."""
    games: list[ScheduledGame] = []
    pods = list(itertools.combinations(range(entrants), players))
    for deal in range(deals):
        for rotation in range(players):
            for members in pods:
                pod = "+".join(map(str, members))
                deal_seed_value = deal_seed(seed, pod, deal)
                seats = members[rotation:] + members[:rotation]
                games.append(
                    ScheduledGame(
                        f"pod {pod} deal {deal} rotation {rotation}",
                        pod,
                        deal,
                        rotation_seed(deal_seed_value, rotation, members, remote),
                        seats,
                    )
                )
    return games
