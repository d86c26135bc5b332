"""SPRT on pentanomial pair counts: hand-computed values, reference values, and simulated tests
with known Elo."""

import math
import statistics

import numpy as np
import pytest

from leaderboard.results import GameResult, SeatResult
from leaderboard.sprt import (
    SPRT,
    estimate_elo,
    expected_behaviour,
    game_score,
    llr_bounds,
    log_likelihood_ratio,
    pair_index,
    score_of_elo,
)
from leaderboard.synthetic import pair_probabilities, simulate_sprt


def test_wald_bounds_for_five_percent_errors_are_log_19():
    assert llr_bounds(0.05, 0.05) == pytest.approx((-math.log(19), math.log(19)))
    assert llr_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


def test_score_of_200_elo_is_76_percent():
    assert score_of_elo(200) == pytest.approx(0.759747, abs=1e-6)


@pytest.mark.parametrize(
    ("elo0", "elo1", "counts", "expected"),
    [
        # computed by a separate scratch implementation of fishtest's LLRcalc.LLR_logistic
        # (scipy's brentq on the secular equation), outside this repository
        (0, 10, [10, 30, 80, 35, 12], 0.2636600127106479),
        (0, 5, [1, 1, 1, 1, 1], -0.0010354483502281707),
        (-3, 1, [0, 7, 21, 9, 0], 0.11764562837050431),
        (0, 20, [3, 0, 0, 0, 9], 0.325582942200858),
    ],
)
def test_llr_equals_fishtests_generalised_llr(elo0, elo1, counts, expected):
    assert float(log_likelihood_ratio(counts, elo0, elo1)) == pytest.approx(expected, abs=1e-10)


def test_llr_is_zero_without_pairs_and_vectorised_over_rows():
    rows = [[0, 0, 0, 0, 0], [10, 30, 80, 35, 12]]
    assert log_likelihood_ratio(rows, 0, 10) == pytest.approx([0.0, 0.2636600127106479])


def test_pair_index_counts_news_points_over_the_pair():
    assert [
        pair_index(0, 0),
        pair_index(0.5, 0),
        pair_index(1, 0),
        pair_index(0.5, 1),
        pair_index(1, 1),
    ] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        pair_index(1, 0.3)


def test_game_score_is_news_result_against_base():
    def game(new_rank: int, base_rank: int, forfeit: str = "") -> GameResult:
        return GameResult(
            (SeatResult("base", base_rank, 0), SeatResult("new", new_rank, 0, forfeit))
        )

    assert [
        game_score(game(1, 2), "new", "base"),
        game_score(game(1, 1), "new", "base"),
        game_score(game(2, 1), "new", "base"),
        game_score(game(1, 2, "TIMEOUT"), "new", "base"),
    ] == [1.0, 0.5, 0.0, 0.0]
    with pytest.raises(ValueError):
        game_score(game(1, 2), "new", "other")


def test_elo_estimate_by_hand():
    # pairs 0, 1, 1, 2 points: per-game scores 0, .5, .5, 1; mean .5; variance .125 per pair;
    # standard error sqrt(.125 / 4) = .176777; 95%: .5 -+ .346476 -> scores .153524 and .846476
    estimate = estimate_elo([1, 0, 2, 0, 1])
    assert estimate.elo == pytest.approx(0.0, abs=1e-9)
    assert estimate.low == pytest.approx(-400 * math.log10(1 / 0.153524 - 1), abs=0.01)
    assert estimate.high == pytest.approx(-estimate.low)


def test_status_follows_the_llr_across_its_bounds():
    test = SPRT(elo0=0, elo1=10)
    assert (test.status, test.pairs, test.llr) == ("continue", 0, 0.0)
    while test.status == "continue":
        test.add_pair(1, 1)
    assert test.status == "H1" and test.llr >= test.bounds[1]
    losing = SPRT(elo0=0, elo1=10)
    while losing.status == "continue":
        losing.add_pair(0, 0.5)
    assert losing.status == "H0" and losing.llr <= losing.bounds[0]
    assert losing.elo().high < 0


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError):
        SPRT(elo0=10, elo1=0)
    with pytest.raises(ValueError):
        SPRT(alpha=0.6, beta=0.5)


def test_seat_decided_deals_make_pairs_less_variable_and_tests_shorter():
    """What the pentanomial model is for: pairs that split 1-1 because the deal favoured a seat
    carry less noise than two independent games of the same Elo."""
    independent = expected_behaviour(pair_probabilities(5, 0.1, 0.0), 0, 10, 0.05, 0.05)
    correlated = expected_behaviour(pair_probabilities(5, 0.1, 0.4), 0, 10, 0.05, 0.05)
    assert correlated.pairs < 0.7 * independent.pairs


RUNS = 400


@pytest.mark.parametrize(("true_elo", "accepted"), [(0, "H0"), (20, "H1")])
def test_simulated_tests_decide_at_the_rates_and_lengths_theory_gives(true_elo, accepted):
    """elo0 = 0, elo1 = 20, alpha = beta = 0.05, 400 simulated tests per truth (about 0.7 s each).

    Rates: the share accepting the true hypothesis is at least 0.95 less 3 binomial standard
    errors (0.033). Length: Wald's expected length ignores the overshoot of the bounds, about
    half an LLR step (steps are below 0.15 here, against bounds at +-2.94): under 5%; the
    simulated mean also carries its Monte-Carlo error, so it must lie within 5% + 3 standard
    errors of the mean of theory."""
    probabilities = pair_probabilities(true_elo, draw_ratio=0.1, seat_decides=0.3)
    decisions, lengths = simulate_sprt(probabilities, 0, 20, 0.05, 0.05, RUNS, 6000, seed=true_elo)
    theory = expected_behaviour(probabilities, 0, 20, 0.05, 0.05)
    assert decisions.count("continue") == 0
    share = decisions.count(accepted) / RUNS
    assert share >= 0.95 - 3 * math.sqrt(0.05 * 0.95 / RUNS)
    expected_share = theory.accept_h1 if accepted == "H1" else 1 - theory.accept_h1
    assert expected_share == pytest.approx(0.95, abs=0.005)
    standard_error = statistics.stdev(lengths) / math.sqrt(RUNS)
    assert abs(statistics.mean(lengths) - theory.pairs) < 0.05 * theory.pairs + 3 * standard_error


def test_a_perfect_record_gives_an_exact_one_sided_bound():
    """104 pairs won (the README's run): the estimate is unbounded above, but the record bounds
    it below: a score s per game makes 104 perfect pairs at most s ** 104 likely."""
    estimate = estimate_elo([0, 0, 0, 0, 104])
    assert estimate.bound == "lower" and estimate.elo == estimate.high == math.inf
    assert score_of_elo(estimate.low) ** 104 == pytest.approx(0.025)
    assert estimate.low == pytest.approx(577.0, abs=0.1)
    mirror = estimate_elo([104, 0, 0, 0, 0])
    assert mirror.bound == "upper" and mirror.high == pytest.approx(-estimate.low)


@pytest.mark.parametrize(("seat_decides", "top"), [(0.0, 800.0), (0.3, 290.0)])
def test_a_perfect_records_bound_holds_the_truth_in_simulation(seat_decides: float, top: float):
    """Truths from -200 Elo to ``top``; among the runs of 8 pairs that won every pair, the bound
    is below the truth at least 97.5% of the time (seat-decided deals end 1-1, never 2-0)."""
    rng = np.random.default_rng(1)
    covered = total = 0
    for elo in np.linspace(-200, top, 41):
        probabilities = pair_probabilities(float(elo), 0.0, seat_decides)
        perfect = (rng.choice(5, size=(4000, 8), p=probabilities) == 4).all(axis=1).sum()
        bound = estimate_elo([0, 0, 0, 0, 8]).low
        total += int(perfect)
        covered += int(perfect) * (bound <= elo)
    assert total > 500 and covered / total >= 0.975, (covered, total)
