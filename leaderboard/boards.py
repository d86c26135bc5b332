"""Boards: results are rated per (game type, player count), never across player counts.

A bot's strength at two players says little about its strength at four (other tactics, other
luck), and one pooled scale lets a rating move without its player playing. So every board, the
games of one game type with one number of seats, gets its own batch fit and its own Elo. The
arena selects each board's games when it reads them (``arena.storage.games``); ``EloBoards``
rates a stream of games of every board, as the arena's schema migration does.
"""

from __future__ import annotations

from leaderboard.elo import K_FACTOR, EloTable
from leaderboard.results import GameResult

BoardKey = tuple[str, int]  # (game type, player count)


def player_count(game: GameResult) -> int:
    return len(game.seats)


class EloBoards:
    """Incremental Elo per board: ``apply`` rates one game on the board of its game type and
    player count, and returns the history entries {player: (before, after)}."""

    def __init__(self, k: float = K_FACTOR) -> None:
        self.tables: dict[BoardKey, EloTable] = {}
        self.k = k

    def table(self, key: BoardKey) -> EloTable:
        return self.tables.setdefault(key, EloTable(k=self.k))

    def apply(self, game_type: str, game: GameResult) -> dict[str, tuple[float, float]]:
        return self.table((game_type, player_count(game))).apply(game)
