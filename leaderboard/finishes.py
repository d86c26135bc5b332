"""Games as arrays: who sat in each seat and in which finishing place; what the batch fit reads.

Every batch computation (stages, pools, one-sided bounds, games per player) works on these arrays
instead of looping over ``GameResult`` objects: 100,000 four-player games are 400,000 seats, and
a Python loop over them costs seconds where numpy costs milliseconds.

Finishing places follow the rules of ``leaderboard/README.md``: finishers by rank, then
forfeiting seats by rank (a forfeit finishes behind every finisher, whatever its rank); seats of
equal place are tied.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from leaderboard.results import GameResult

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

NO_SEAT = -1  # ``seat_player`` of the missing seats of a game with fewer seats than the widest
NO_PLACE = np.iinfo(np.int64).max  # ``place`` of a missing seat: behind everyone


@dataclasses.dataclass(frozen=True, slots=True)
class Finishes:
    players: list[str]  # sorted; player i is players[i]
    seat_player: IntArray  # (games, seats) player index per seat, NO_SEAT past a game's seats
    place: IntArray  # (games, seats) smaller is better, equal is tied, NO_PLACE past the seats
    group: IntArray  # (games,) index into ``group_keys``
    group_keys: list[str]  # sorted: games of one group share their luck (``GameResult``)
    # (games,) how many games each row stands for: 1, but for a tally's finishing patterns
    # (``leaderboard.tally``), each the games that ended so
    weight: FloatArray
    # (games, seats) whether the seat forfeited (its place is behind every finisher's); False
    # past a game's seats
    forfeit: BoolArray

    @property
    def real(self) -> BoolArray:
        """(games, seats) whether the seat exists."""
        return self.seat_player != NO_SEAT

    def select(self, rows: BoolArray) -> Finishes:
        """The games where ``rows`` is true, players and groups renumbered among them."""
        seat_player, group = self.seat_player[rows], self.group[rows]
        used, inverse = np.unique(seat_player[seat_player != NO_SEAT], return_inverse=True)
        renumbered = np.full_like(seat_player, NO_SEAT)
        renumbered[seat_player != NO_SEAT] = inverse
        groups, group_index = np.unique(group, return_inverse=True)
        return Finishes(
            [self.players[i] for i in used],
            renumbered,
            self.place[rows],
            group_index.astype(np.int64),
            [self.group_keys[i] for i in groups],
            self.weight[rows],
            self.forfeit[rows],
        )


def encode(games: Sequence[GameResult]) -> Finishes:
    """The arrays of ``games`` (one row per game, in their order)."""
    seats = [seat for game in games for seat in game.seats]
    players = sorted({seat.player for seat in seats})
    index = {player: i for i, player in enumerate(players)}
    group_keys = sorted({game.group_key for game in games})
    group_index = {key: i for i, key in enumerate(group_keys)}
    return from_seats(
        players,
        np.fromiter((len(game.seats) for game in games), np.int64, len(games)),
        np.fromiter((index[seat.player] for seat in seats), np.int64, len(seats)),
        np.fromiter((seat.rank for seat in seats), np.int64, len(seats)),
        np.fromiter((bool(seat.forfeit) for seat in seats), np.bool_, len(seats)),
        np.fromiter((group_index[game.group_key] for game in games), np.int64, len(games)),
        group_keys,
        np.ones(len(games)),
    )


def from_seats(
    players: list[str],
    sizes: IntArray,
    player: IntArray,
    rank: IntArray,
    forfeit: BoolArray,
    group: IntArray,
    group_keys: list[str],
    weight: FloatArray,
) -> Finishes:
    """The arrays of games given seat by seat: game g holds ``sizes[g]`` seats, the next ones of
    ``player`` (an index into ``players``, sorted), ``rank`` and ``forfeit``."""
    width = int(sizes.max()) if len(sizes) else 0
    # forfeits after every finisher, in their own rank order
    place = rank - rank.min(initial=0) + forfeit * (np.ptp(rank) + 1 if len(rank) else 0)
    rows = np.repeat(np.arange(len(sizes)), sizes)
    columns = np.arange(len(player)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    seat_player = np.full((len(sizes), width), NO_SEAT, dtype=np.int64)
    seat_place = np.full((len(sizes), width), NO_PLACE, dtype=np.int64)
    seat_forfeit = np.zeros((len(sizes), width), dtype=np.bool_)
    seat_player[rows, columns] = player
    seat_place[rows, columns] = place
    seat_forfeit[rows, columns] = forfeit
    return Finishes(players, seat_player, seat_place, group, group_keys, weight, seat_forfeit)
