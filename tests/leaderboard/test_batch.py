"""The batch fit recovers known strengths, ignores game order, and bootstraps over groups of
correlated games."""

import random

import pytest

from leaderboard.batch import fit_batch
from leaderboard.results import GameResult, SeatResult
from leaderboard.synthetic import round_robin

STRENGTHS = {"a": 1200.0, "b": 1400.0, "c": 1450.0, "d": 1600.0, "e": 1850.0}


def centred(strengths: dict[str, float]) -> dict[str, float]:
    mean = sum(strengths.values()) / len(strengths)
    return {player: 1500 + value - mean for player, value in strengths.items()}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_recovers_known_strengths_within_intervals(seats: int):
    fitted = fit_batch(round_robin(STRENGTHS, seats, 3000, seed=seats), bootstrap=200)
    truth = centred(STRENGTHS)
    inside = [fitted[p].low <= truth[p] <= fitted[p].high for p in STRENGTHS]
    assert sum(inside) >= len(STRENGTHS) - 1, (fitted, truth)
    for player in STRENGTHS:
        half_width = (fitted[player].high - fitted[player].low) / 2
        assert abs(fitted[player].rating - truth[player]) < 2 * half_width
        assert half_width < 60


def test_does_not_depend_on_the_order_of_games():
    games = round_robin(STRENGTHS, 3, 600, seed=9)
    shuffled = games[:]
    random.Random(4).shuffle(shuffled)
    forward = fit_batch(games, bootstrap=50)
    assert fit_batch(shuffled, bootstrap=50) == pytest.approx(forward)
    for player, rating in forward.items():
        other = fit_batch(shuffled, bootstrap=50)[player]
        assert (other.rating, other.low, other.high) == pytest.approx(
            (rating.rating, rating.low, rating.high))


def test_copies_of_games_inside_their_groups_give_no_extra_confidence():
    games = round_robin(STRENGTHS, 2, 500, seed=3)
    copied = [game for game in games for _ in range(5)]
    single = fit_batch(games, bootstrap=300)
    repeated = fit_batch(copied, bootstrap=300)
    for player in STRENGTHS:
        width = single[player].high - single[player].low
        assert repeated[player].high - repeated[player].low > 0.8 * width


def test_perfect_record_stays_finite_and_on_top():
    games = [GameResult((SeatResult("strong", 1, 1), SeatResult("weak", 2, 0)),
                        group_key=str(i % 3)) for i in range(30)]
    fitted = fit_batch(games, bootstrap=20)
    assert 1500 < fitted["strong"].rating < 3000
    assert fitted["weak"].rating == pytest.approx(3000 - fitted["strong"].rating)


def test_no_games_no_ratings():
    assert fit_batch([]) == {}
