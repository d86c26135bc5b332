"""The Elo table's own K factor, worked out by hand (test_elo.py covers the formula itself)."""

import pytest

from leaderboard.elo import EloTable
from leaderboard.results import GameResult, SeatResult


def test_a_table_rates_with_its_own_k():
    # Two equal players, K = 10: the winner gains 10 * (1 - 0.5) = 5.
    table = EloTable(k=10.0)
    game = GameResult((SeatResult("A", 1, 0.0), SeatResult("B", 2, 0.0)))
    assert table.apply(game) == {"A": (1500, pytest.approx(1505)), "B": (1500, pytest.approx(1495))}


def test_a_table_starts_from_the_ratings_it_is_given():
    # A at 1700 beats B at 1500: 32 * (1 - E(1700, 1500)) = 32 * (1 - 0.759747) = 7.688.
    table = EloTable({"A": 1700.0})
    game = GameResult((SeatResult("A", 1, 0.0), SeatResult("B", 2, 0.0)))
    after = table.apply(game)
    assert after["A"] == (1700, pytest.approx(1707.688, abs=1e-3))
    assert after["B"] == (1500, pytest.approx(1492.312, abs=1e-3))
