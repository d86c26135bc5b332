"""Results are rated per player count: boards, and Elo per board."""

import pytest

from leaderboard.boards import EloBoards
from leaderboard.results import GameResult, SeatResult


def game(*players: str) -> GameResult:
    return GameResult(tuple(SeatResult(p, i + 1, 0) for i, p in enumerate(players)))


def test_elo_is_kept_per_player_count():
    boards = EloBoards()
    boards.apply("oregon", game("a", "b"))
    boards.apply("oregon", game("b", "a", "c"))
    # two-player board: a beat b (+16); three-player board: b first, a second, c third
    assert {count: table.ratings for (_, count), table in boards.tables.items()} == {
        2: {"a": 1516.0, "b": 1484.0},
        3: pytest.approx({"b": 1516.0, "a": 1500.0, "c": 1484.0}),
    }


def test_elo_boards_report_history_per_game_type_and_player_count():
    boards = EloBoards()
    assert boards.apply("oregon", game("a", "b")) == {"a": (1500, 1516), "b": (1500, 1484)}
    assert boards.apply("merkator", game("a", "b")) == {"a": (1500, 1516), "b": (1500, 1484)}
    assert boards.apply("oregon", game("b", "a")) == {
        "b": (1484, pytest.approx(1484 + 32 * (1 - 1 / (1 + 10 ** (32 / 400))))),
        "a": (1516, pytest.approx(1516 - 32 * (1 - 1 / (1 + 10 ** (32 / 400))))),
    }
    assert sorted(boards.tables) == [("merkator", 2), ("oregon", 2)]
