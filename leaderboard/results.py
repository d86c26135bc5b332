"""Plain game results, the only input of the rating code."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator, Sequence


@dataclasses.dataclass(frozen=True, slots=True)
class SeatResult:
    player: str  # the rated identity, e.g. one bot version
    rank: int  # 1 is best; tied seats share a rank
    score: float
    forfeit: str = ""  # "" when the seat finished the game, else the reason kind, e.g. "TIMEOUT"


@dataclasses.dataclass(frozen=True, slots=True)
class GameResult:
    seats: tuple[SeatResult, ...]
    # Games with correlated outcomes (in a tournament: the seat rotations of one deal, which
    # share its luck); the batch fit's bootstrap resamples whole groups, never single games.
    group_key: str = ""


def player_name(identity: int) -> str:
    """``identity`` (a bot version's id) as a rated identity: one string object for all the
    seats it holds (a ladder keeps every game's seats in memory for as long as it runs)."""
    return sys.intern(str(identity))


def pair_score(a: SeatResult, b: SeatResult) -> float:
    """Score of ``a`` against ``b`` in one game: 1 win, 0.5 draw, 0 loss.

    A forfeiting seat loses to every seat that finished (whatever ranks say) and draws with
    other forfeiting seats of the same rank; otherwise the lower rank wins."""
    if bool(a.forfeit) != bool(b.forfeit):
        return 0.0 if a.forfeit else 1.0
    if a.rank == b.rank:
        return 0.5
    return 1.0 if a.rank < b.rank else 0.0


def seat_pairs(seats: Sequence[SeatResult]) -> Iterator[tuple[int, int, float]]:
    """(i, j, score of seat i against seat j) for every pair of seats i < j held by different
    players (a player meeting itself tells nothing about its strength)."""
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if seats[i].player != seats[j].player:
                yield i, j, pair_score(seats[i], seats[j])
