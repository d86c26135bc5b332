"""The batch fit recovers known strengths, ignores game order, bootstraps over groups of
correlated games, gives honest intervals (coverage, perfect records), and rates pools apart."""

import math
import random

import numpy as np
import pytest

from leaderboard.batch import ELO_PER_NATURAL_UNIT, PRIOR_SD, fit_batch
from leaderboard.bounds import TAIL, one_sided_bounds
from leaderboard.coverage import centred as centred_as_fitted
from leaderboard.coverage import coverage, covers, main
from leaderboard.finishes import encode
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
            (rating.rating, rating.low, rating.high)
        )


def test_copies_of_games_inside_their_groups_give_no_extra_confidence():
    games = round_robin(STRENGTHS, 2, 500, seed=3)
    copied = [game for game in games for _ in range(5)]
    single = fit_batch(games, bootstrap=300)
    repeated = fit_batch(copied, bootstrap=300)
    for player in STRENGTHS:
        width = single[player].high - single[player].low
        assert repeated[player].high - repeated[player].low > 0.8 * width


def test_perfect_record_stays_finite_and_on_top():
    games = [
        GameResult((SeatResult("strong", 1, 1), SeatResult("weak", 2, 0)), group_key=str(i % 3))
        for i in range(30)
    ]
    fitted = fit_batch(games, bootstrap=20)
    assert 1500 < fitted["strong"].rating < 3000
    assert fitted["weak"].rating == pytest.approx(3000 - fitted["strong"].rating)
    assert fitted["strong"].bound == "lower" and fitted["weak"].bound == "upper"


def test_no_games_no_ratings():
    assert fit_batch([]) == {}


def test_laplace_interval_of_an_even_record_by_hand():
    """2 players, 10 wins each in 20 games, no bootstrap: the MAP is 1500 each; in natural units
    the difference d has information 20 * 1/4 (likelihood) + precision / 2 (two priors), and the
    centred rating d / 2 a quarter of its variance."""
    games = [
        GameResult(
            (SeatResult("a", 1 + i % 2, 0), SeatResult("b", 2 - i % 2, 0)), group_key=str(i // 2)
        )
        for i in range(20)
    ]
    fitted = fit_batch(games, bootstrap=0)
    precision = (ELO_PER_NATURAL_UNIT / PRIOR_SD) ** 2
    half_width = 1.959964 * math.sqrt(1 / (4 * (5 + precision / 2))) * ELO_PER_NATURAL_UNIT
    assert half_width == pytest.approx(75.68, abs=0.01)  # 1.96 * sqrt(1 / 20.2414) * 173.72
    assert fitted["a"].rating == pytest.approx(1500)
    assert (fitted["a"].low, fitted["a"].high) == pytest.approx(
        (1500 - half_width, 1500 + half_width)
    )


def test_provisional_below_twenty_games():
    games = [
        GameResult((SeatResult("a", 1 + i % 2, 0), SeatResult("b", 2 - i % 2, 0)), group_key=str(i))
        for i in range(19)
    ]
    assert fit_batch(games, bootstrap=10)["a"].provisional
    more = games + [GameResult((SeatResult("a", 1, 0), SeatResult("b", 2, 0)), group_key="x")]
    fitted = fit_batch(more, bootstrap=10)
    assert (fitted["a"].games, fitted["a"].provisional) == (20, False)


def test_coverage_of_3000_game_two_player_tournaments():
    """40 tournaments (200 intervals, about 4 s); ``python -m leaderboard.coverage --table`` runs
    the settings of leaderboard/README.md's table."""
    result = coverage(40, 3000, 2, bootstrap=200)
    assert result.covered / result.intervals >= 0.93, result
    assert result.mean_width < 60


def test_coverage_of_100_game_two_player_tournaments():
    result = coverage(100, 100, 2, bootstrap=100)
    assert (result.covered + result.one_sided_covered) / 500 >= 0.90, result


def test_a_4_0_record_is_one_sided_wide_and_contains_the_truth_in_simulation():
    """Every 4-0 record gives the same fit; over matches between players whose true difference is
    drawn from -400 to 1600 Elo, the truth lies within the interval of the 4-0 results."""
    four_nil = [
        GameResult((SeatResult("w", 1, 1), SeatResult("l", 2, 0)), group_key=str(i // 2))
        for i in range(4)
    ]
    fitted = fit_batch(four_nil, bootstrap=200)
    winner, loser = fitted["w"], fitted["l"]
    assert (winner.bound, loser.bound) == ("lower", "upper")
    assert winner.high - winner.low >= 400 and winner.low < 1500
    rng = random.Random(2)
    covered = total = 0
    for _ in range(20_000):
        difference = rng.uniform(-400, 1600)
        win = 1 / (1 + 10 ** (-difference / 400))
        if all(rng.random() < win for _ in range(4)):
            total += 1
            truth = 1500 + difference / 2
            covered += covers(winner, truth) and covers(loser, 3000 - truth)
    assert total > 5000 and covered / total >= 0.99


def test_disconnected_pools_are_rated_and_reported_separately():
    one = round_robin({"a": 1300.0, "b": 1500.0, "c": 1700.0}, 2, 300, seed=1)
    two = round_robin({"x": 1000.0, "y": 2000.0}, 2, 100, seed=2)
    fitted = fit_batch(one + two, bootstrap=50)
    assert {player: (r.pool, r.pools) for player, r in fitted.items()} == {
        "a": (1, 2),
        "b": (1, 2),
        "c": (1, 2),
        "x": (2, 2),
        "y": (2, 2),
    }
    alone = fit_batch(one, bootstrap=50)
    for player in "abc":
        assert (fitted[player].rating, fitted[player].low, fitted[player].high) == pytest.approx(
            (alone[player].rating, alone[player].low, alone[player].high)
        )
    for pool in (("a", "b", "c"), ("x", "y")):
        assert sum(fitted[p].rating for p in pool) / len(pool) == pytest.approx(1500)


def test_a_player_that_only_met_itself_is_a_pool_of_its_own():
    games = [
        GameResult((SeatResult("a", 1, 0), SeatResult("b", 2, 0))),
        GameResult((SeatResult("c", 1, 0), SeatResult("c", 2, 0))),
    ]
    fitted = fit_batch(games, bootstrap=10)
    assert (fitted["c"].pool, fitted["c"].pools, fitted["c"].games) == (2, 2, 0)
    # nothing to rate: the prior's guess and its width, marked as the prior's (review H: it
    # showed as a certain 1500 [1500, 1500])
    c = fitted["c"]
    assert (c.rating, c.prior_set, c.provisional) == (1500, True, True)
    assert (c.low, c.high) == pytest.approx((1500 - 1.96 * PRIOR_SD, 1500 + 1.96 * PRIOR_SD), 0.01)
    assert not fitted["a"].prior_set


def test_four_player_plackett_luce_simulation_is_ranked_correctly():
    strengths = {f"p{i}": 1250.0 + 100.0 * i for i in range(6)}
    fitted = fit_batch(round_robin(strengths, 4, 3000, seed=11), bootstrap=100)
    assert sorted(fitted, key=lambda p: fitted[p].rating) == sorted(
        strengths, key=strengths.__getitem__
    )
    truth = centred(strengths)
    assert sum(fitted[p].low <= truth[p] <= fitted[p].high for p in strengths) >= 5


def test_a_perfect_records_bound_is_where_the_record_has_a_chance_of_tail():
    """n-0 between two players: the winner's honest bound puts the difference d where
    sigmoid(d) ** n = TAIL, centred (d / 2); the fit keeps the lower of it and its interval."""
    for n in (4, 40):
        games = [
            GameResult((SeatResult("w", 1, 1), SeatResult("l", 2, 0)), group_key=str(i))
            for i in range(n)
        ]
        finishes = encode(games)
        theta = np.array([-1.0, 1.0])  # players sorted: l, w
        honest = one_sided_bounds(finishes, np.array([0, 1]), ["upper", "lower"], theta, np.eye(2))
        difference = -math.log(TAIL ** (-1 / n) - 1)  # sigmoid(d) ** n = TAIL
        assert honest == pytest.approx([-difference / 2, difference / 2], abs=1e-9)
        winner = fit_batch(games, bootstrap=0)["w"]
        assert winner.low <= 1500 + ELO_PER_NATURAL_UNIT * difference / 2 + 1e-9


def test_a_bot_last_in_every_game_moves_neither_the_others_numbers_nor_their_bounds():
    """The issue's board: w last in all 12 four-player games, x, y, z trading places. x, y and
    z were bounded below only, and centred with w, whose rating only the prior sets: w moved
    their numbers (a forfeiter lifted every bot of a board by 157) and left each of them
    one-sided for good (outside review). They are the board's main component now: measured
    against each other, two-sided; only w's distance from them is the prior's."""
    games = [
        GameResult(
            tuple(
                SeatResult(player, 1 + (place + i) % 3, 0)
                for place, player in enumerate(("x", "y", "z"))
            )
            + (SeatResult("w", 4, 0),),
            group_key=str(i // 4),
        )
        for i in range(12)
    ]
    fitted = fit_batch(games, bootstrap=100)
    assert [fitted[p].bound for p in "wxyz"] == ["upper", "", "", ""]
    assert [fitted[p].anchor for p in "wxyz"] == [False, True, True, True]
    truth = centred_as_fitted({"w": 900.0, "x": 1700.0, "y": 1700.0, "z": 1700.0}, fitted)
    assert truth == {"w": 700.0, "x": 1500.0, "y": 1500.0, "z": 1500.0}  # on the fit's scale
    assert sum(fitted[p].rating for p in "xyz") / 3 == pytest.approx(1500)
    for player in "xyz":  # equally strong: each one's interval holds their common rating
        assert fitted[player].low < 1500 < fitted[player].high, fitted[player]
        assert not fitted[player].prior_set
    assert fitted["w"].high < min(fitted[p].low for p in "xyz")


def test_the_coverage_module_prints_one_line_per_setting(capsys):
    main(
        ["--tournaments", "3", "--games", "12", "--seats", "4", "--bots", "4", "--bootstrap", "20"]
    )
    [line] = capsys.readouterr().out.splitlines()
    fields = dict(field.split("=") for field in line.split()[1:])
    assert (fields["seats"], fields["bots"], fields["games"]) == ("4", "4", "12")
    assert int(fields["intervals"]) + int(fields["one_sided"]) == 12


def test_a_few_players_of_a_few_games_each_neither_widen_nor_move_the_others():
    """A ladder pauses forfeiters after a few games: centred on the mean of every player, 9-12
    of them with 2-3 games each made every well-measured interval about 10 times too wide and
    lopsided, for good (outside review). The centre is the well-measured players' mean."""
    games = round_robin(STRENGTHS, 2, 3000, seed=5)
    forfeiters = [  # each won once before it broke: bounded on both sides, by the prior
        GameResult(
            (SeatResult("a", 1 + (i == 0), 1), SeatResult(f"paused{k}", 2 - (i == 0), 0)),
            group_key=f"p{k}/{i}",
        )
        for k in range(10)
        for i in range(3)
    ]
    alone = fit_batch(games, bootstrap=200)
    together = fit_batch(games + forfeiters, bootstrap=200)

    for player in STRENGTHS:
        width_alone = alone[player].high - alone[player].low
        width = together[player].high - together[player].low
        assert width < 1.2 * width_alone, (player, width, width_alone)
        assert abs(together[player].rating - alone[player].rating) < 10, player
        assert together[player].low < together[player].rating < together[player].high
    assert sum(together[player].rating for player in STRENGTHS) / len(STRENGTHS) == (
        pytest.approx(1500)
    )
    assert together["paused0"].provisional and not together["paused0"].bound


def test_the_fits_use_one_blas_thread(monkeypatch):
    """Review K: BLAS's threads spun on shared cores and a 127-bot fit took 37 s instead of 1."""
    from threadpoolctl import threadpool_info

    import leaderboard.batch as batch

    seen = []
    real_fit_pool = batch._fit_pool

    def fit_pool(*args, **kwargs):
        seen.extend(pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas")
        return real_fit_pool(*args, **kwargs)

    monkeypatch.setattr(batch, "_fit_pool", fit_pool)
    fit_batch([GameResult((SeatResult("a", 1, 0), SeatResult("b", 2, 0)))] * 3, bootstrap=5)
    assert seen and set(seen) == {1}
