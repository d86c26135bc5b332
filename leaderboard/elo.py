"""Incremental per-game Elo.

Every rated game updates the ratings of its players at once, from their ratings before the game.
A game of P seats counts as the P*(P-1)/2 pairwise results between its seats by final rank
(ties are draws, a forfeit loses to every seat that finished), each weighted 1/(P-1), so a seat's
whole game weighs as much as one two-player game:

    delta_i = K / (P - 1) * sum_j (S_ij - E_ij),   E_ij = 1 / (1 + 10 ** ((R_j - R_i) / 400))

K = 32 (the common choice for players with few games: fast to move away from the start of
1500, and the batch fit is there for the order-independent estimate).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from leaderboard.results import GameResult, SeatResult, seat_pairs

INITIAL_RATING = 1500.0
K_FACTOR = 32.0


def expected_score(rating: float, opponent: float) -> float:
    """Expected score of a player rated ``rating`` against one rated ``opponent``."""
    # math.pow, not **: float ** float may be complex, so mypy types it Any.
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def seat_deltas(
    ratings: Sequence[float], seats: Sequence[SeatResult], k: float = K_FACTOR
) -> list[float]:
    """Rating change of every seat of one game, given each seat's rating before it."""
    deltas = [0.0] * len(seats)
    if len(seats) < 2:
        return deltas
    weight = k / (len(seats) - 1)
    for i, j, score in seat_pairs(seats):
        change = weight * (score - expected_score(ratings[i], ratings[j]))
        deltas[i] += change
        deltas[j] -= change
    return deltas


class EloTable:
    """Current Elo of every player of one game type; ``apply`` rates one game."""

    def __init__(self, ratings: Mapping[str, float] | None = None, k: float = K_FACTOR) -> None:
        self.ratings: dict[str, float] = dict(ratings or {})
        self.k = k

    def rating(self, player: str) -> float:
        return self.ratings.get(player, INITIAL_RATING)

    def apply(self, game: GameResult) -> dict[str, tuple[float, float]]:
        """Rate one game; return {player: (before, after)} for its players."""
        before = {seat.player: self.rating(seat.player) for seat in game.seats}
        deltas = seat_deltas([before[seat.player] for seat in game.seats], game.seats, self.k)
        after = dict(before)
        for seat, delta in zip(game.seats, deltas):
            after[seat.player] += delta
        self.ratings.update(after)
        return {player: (before[player], after[player]) for player in before}


def replay_elo(games: Iterable[GameResult], k: float = K_FACTOR) -> dict[str, float]:
    """Ratings after rating ``games`` in the given order, everyone starting at 1500."""
    table = EloTable(k=k)
    for game in games:
        table.apply(game)
    return table.ratings
