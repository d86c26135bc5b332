"""Boards: results are rated per (game type, player count), never across player counts.

A bot's strength at two players says little about its strength at four (other tactics, other
luck), and one pooled scale lets a rating move without its player playing. So every board, the
games of one game type with one number of seats, gets its own batch fit and its own Elo. This
package does not know game types (the arena fits one game type at a time): it splits a game
type's results by player count, the number of seats of the game.
"""

from __future__ import annotations

from collections.abc import Iterable

from leaderboard.elo import K_FACTOR, EloTable
from leaderboard.results import GameResult

BoardKey = tuple[str, int]  # (game type, player count)


def player_count(game: GameResult) -> int:
    return len(game.seats)


def by_player_count(games: Iterable[GameResult]) -> dict[int, list[GameResult]]:
    """The games of one game type split by player count (ascending), each in the given order."""
    boards: dict[int, list[GameResult]] = {}
    for game in games:
        boards.setdefault(player_count(game), []).append(game)
    return dict(sorted(boards.items()))


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


def elo_by_player_count(
    games: Iterable[GameResult], k: float = K_FACTOR
) -> dict[int, dict[str, float]]:
    """Elo of every player of one game type per player count, rating ``games`` in order."""
    boards = EloBoards(k)
    for game in games:
        boards.apply("", game)
    return {count: table.ratings for (_, count), table in sorted(boards.tables.items())}
