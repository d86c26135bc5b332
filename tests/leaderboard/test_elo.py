"""Elo on hand-computed cases. E(a, b) = 1 / (1 + 10 ** ((b - a) / 400)); K = 32; weight 1/(P-1)."""

import pytest

from leaderboard.elo import EloTable, expected_score, replay_elo, seat_deltas
from leaderboard.results import GameResult, SeatResult


def seats(*ranks: int, forfeits: tuple[str, ...] = ()) -> tuple[SeatResult, ...]:
    names = "ABCDE"
    return tuple(
        SeatResult(names[i], rank, 0.0, forfeits[i] if i < len(forfeits) else "")
        for i, rank in enumerate(ranks)
    )


def test_expected_score_of_200_points_is_76_percent():
    assert expected_score(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    assert expected_score(1500, 1500) == 0.5


def test_two_players_equal_ratings_winner_gains_half_k():
    assert seat_deltas([1500, 1500], seats(1, 2)) == [16.0, -16.0]


def test_two_players_draw_moves_the_favourite_down():
    # 32 * (0.5 - 0.759747) = -8.3119
    a, b = seat_deltas([1600, 1400], seats(1, 1))
    assert a == pytest.approx(-8.3119, abs=1e-4)
    assert b == pytest.approx(8.3119, abs=1e-4)


def test_four_players_equal_ratings():
    # A beats 3: 32/3 * 3 * 0.5 = 16; B: 32/3 * (-0.5 + 0.5 + 0.5) = 5.333
    assert seat_deltas([1500] * 4, seats(1, 2, 3, 4)) == pytest.approx([16, 16 / 3, -16 / 3, -16])


def test_four_players_with_a_tie():
    # B and C draw each other: B = 32/3 * (-0.5 + 0 + 0.5) = 0
    assert seat_deltas([1500] * 4, seats(1, 2, 2, 4)) == pytest.approx([16, 0, 0, -16])


def test_four_players_unequal_ratings():
    # A=1600 last: -32/3 * (0.640065 + 0.640065 + 0.759747) = -21.7587
    # B=1500 first: 32/3 * ((1 - 0.359935) + (1 - 0.5) + (1 - 0.640065)) = 16
    # C=1500 second: 32/3 * (0.640065 - 0.5 + (1 - 0.640065)) = 5.3333
    # D=1400 third: beats A (1 - 0.240253), loses to B and C (0 - 0.359935 each): 32/3 * 0.039877
    deltas = seat_deltas([1600, 1500, 1500, 1400], seats(4, 1, 2, 3))
    assert deltas == pytest.approx([-21.7587, 16.0, 5.3333, 0.42535], abs=1e-4)
    assert sum(deltas) == pytest.approx(0.0)


def test_forfeit_loses_to_every_finisher_even_if_ranked_higher():
    # B forfeited; whatever its rank says it loses to A and C: B = 32/2 * (-0.5 - 0.5) = -16
    deltas = seat_deltas([1500] * 3, seats(1, 2, 3, forfeits=("", "TIMEOUT", "")))
    assert deltas == pytest.approx([16, -16, 0])


def test_two_forfeits_of_equal_rank_draw_each_other():
    deltas = seat_deltas([1500] * 3, seats(1, 3, 3, forfeits=("", "CRASH", "ILLEGAL")))
    assert deltas == pytest.approx([16, -8, -8])


def test_table_updates_from_pre_game_ratings_and_reports_history():
    table = EloTable()
    first = table.apply(GameResult(seats(1, 2)))
    assert first == {"A": (1500, 1516), "B": (1500, 1484)}
    second = table.apply(GameResult(seats(2, 1)))
    # B (1484) beats A (1516): 32 * (1 - E(1484, 1516))
    gain = 32 * (1 - expected_score(1484, 1516))
    assert second["B"] == (1484, pytest.approx(1484 + gain))
    assert replay_elo([GameResult(seats(1, 2)), GameResult(seats(2, 1))]) == table.ratings


def test_same_player_in_two_seats_is_not_rated_against_itself():
    game = (SeatResult("A", 1, 0), SeatResult("A", 2, 0), SeatResult("B", 3, 0))
    assert EloTable().apply(GameResult(game)) == {"A": (1500, 1516), "B": (1500, 1484)}
