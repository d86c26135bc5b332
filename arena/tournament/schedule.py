"""The schedule of a round robin follows from its settings and seed alone.

For B entrants and P seats, every combination of P entrants is a pod; each pod plays K deals;
each deal (one seed) is played once per rotation of the seats, so every entrant of the pod sits in
every seat on the same deal. Order: deal by deal, so ratings are meaningful early; within a deal,
rotation by rotation, then pod by pod, so a pod's rotations of a deal are played one after
another rather than at once: a game is shown live only once the other rotations of its deal are
played (``arena.storage.running``), and this way the last rotation of each deal can be watched.
Each game has a stable key, which is how a resumed tournament knows what is done.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from math import comb


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    key: str  # stable identity within the tournament, e.g. "pod 0+1+2 deal 3 rotation 1"
    pod: str  # "0+1+2": entrant positions of the pod
    deal: int
    seed: int  # the deal's seed, shared by the pod's rotations of this deal
    seats: tuple[int, ...]  # entrant position in each seat


def deal_seed(tournament_seed: int, pod: str, deal: int) -> int:
    """A 63-bit seed derived from the tournament seed, the pod and the deal number."""
    digest = hashlib.blake2b(
        f"{tournament_seed}/{pod}/{deal}".encode(), person=b"arena-deal", digest_size=8
    ).digest()
    return int.from_bytes(digest, "big") >> 1


def schedule_size(entrants: int, players: int, deals: int) -> int:
    return comb(entrants, players) * deals * players


def build_schedule(entrants: int, players: int, deals: int, seed: int) -> list[ScheduledGame]:
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
                        deal_seed_value,
                        seats,
                    )
                )
    return games
