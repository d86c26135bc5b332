"""The Plackett-Luce fit on hand-computed cases, and against choix's independent optimiser."""

import math
import random

import choix
import numpy as np
import pytest

from leaderboard.finishes import encode
from leaderboard.plackett_luce import build_stages, finishing_orders, fit_map
from leaderboard.results import GameResult, SeatResult


def stage_weights(*games: GameResult) -> dict[tuple[str, tuple[str, ...]], float]:
    stages = build_stages(encode(games))
    return {
        (
            stages.players[c],
            tuple(p for p, k in zip(stages.players, counts) for _ in range(int(k))),
        ): w
        for c, counts, w in zip(stages.chosen, stages.counts, stages.weights)
    }


def orders(*seats: SeatResult) -> dict[tuple[str, ...], float]:
    finishes = encode([GameResult(seats)])
    found, weights, _ = finishing_orders(finishes)
    return {
        tuple(finishes.players[i] for i in order): weight
        for order, weight in zip(found.tolist(), weights.tolist())
    }


def test_a_finishing_order_is_a_sequence_of_choices():
    game = GameResult((SeatResult("a", 2, 0), SeatResult("b", 1, 0), SeatResult("c", 3, 0)))
    assert stage_weights(game) == {("b", ("a", "b", "c")): 1.0, ("a", ("a", "c")): 1.0}


def test_forfeits_finish_behind_every_finisher_whatever_their_rank():
    """As in Elo: a forfeit ranked above a finisher still loses to it."""
    seats = (SeatResult("a", 1, 0, "TIMEOUT"), SeatResult("b", 2, 0), SeatResult("c", 3, 0))
    assert orders(*seats) == {("b", "c", "a"): 1.0}


def test_ties_count_every_order_with_an_equal_share():
    seats = (
        SeatResult("a", 1, 0),
        SeatResult("b", 2, 0),
        SeatResult("c", 2, 0),
        SeatResult("d", 4, 0, "CRASH"),
        SeatResult("e", 4, 0, "TIMEOUT"),
    )
    assert orders(*seats) == {
        ("a", "b", "c", "d", "e"): 0.25,
        ("a", "c", "b", "d", "e"): 0.25,
        ("a", "b", "c", "e", "d"): 0.25,
        ("a", "c", "b", "e", "d"): 0.25,
    }


def test_a_two_player_draw_is_half_a_win_each_way():
    draw = GameResult((SeatResult("a", 1, 0), SeatResult("b", 1, 0)))
    assert stage_weights(draw) == {("a", ("a", "b")): 0.5, ("b", ("a", "b")): 0.5}


def test_a_player_beating_its_own_other_seat_tells_nothing():
    game = GameResult((SeatResult("a", 1, 0), SeatResult("b", 2, 0), SeatResult("a", 3, 0)))
    # a picked among its two seats and b's; then b ahead of a's other seat; a-vs-a is dropped
    assert stage_weights(game) == {("a", ("a", "a", "b")): 1.0, ("b", ("a", "b")): 1.0}


def test_three_wins_to_one_is_400_log10_3_points_without_prior():
    games = [GameResult((SeatResult("a", 1, 0), SeatResult("b", 2, 0)))] * 3 + [
        GameResult((SeatResult("b", 1, 0), SeatResult("a", 2, 0)))
    ]
    stages = build_stages(encode(games))
    theta = fit_map(stages, stages.weights[None, :], precision=1e-12)[0]
    elo = (theta[0] - theta[1]) * 400 / math.log(10)
    assert elo == pytest.approx(400 * math.log10(3), abs=1e-4)  # 190.85


def test_prior_pulls_a_perfect_record_to_the_hand_solved_mode():
    """4-0 under a N(0, 1) prior on each theta: with theta_a = -theta_b = t the posterior mode
    solves d/dt [4 log sigmoid(2t) - t^2] = 8 (1 - sigmoid(2t)) - 2t = 0 (bisection below)."""
    low, high = 0.0, 5.0
    for _ in range(100):
        t = (low + high) / 2
        low, high = (t, high) if 8 / (1 + math.exp(2 * t)) - 2 * t > 0 else (low, t)
    games = [GameResult((SeatResult("a", 1, 0), SeatResult("b", 2, 0)))] * 4
    stages = build_stages(encode(games))
    theta = fit_map(stages, stages.weights[None, :], precision=1.0)[0]
    assert theta == pytest.approx([t, -t], abs=1e-6)  # t = 0.9123


def test_three_player_rankings_agree_with_choix():
    """choix.opt_rankings fits by scipy's Newton-CG; its objective adds alpha * sum(theta ** 2), a
    Gaussian prior of precision 2 * alpha (its docstring says variance 1 / alpha)."""
    rng = random.Random(5)
    strengths = [0.0, 0.5, 1.0, 1.5]
    rankings = []
    for _ in range(300):
        pod = rng.sample(range(4), 3)
        order = []
        while pod:
            pick = rng.choices(pod, [math.exp(strengths[i]) for i in pod])[0]
            order.append(pick)
            pod.remove(pick)
        rankings.append(order)
    games = [
        GameResult(tuple(SeatResult(str(p), rank, 0) for rank, p in enumerate(order, 1)))
        for order in rankings
    ]
    stages = build_stages(encode(games))
    ours = fit_map(stages, stages.weights[None, :], precision=0.1)[0]
    theirs = choix.opt_rankings(4, rankings, alpha=0.05, method="Newton-CG", tol=1e-10)
    assert ours == pytest.approx(theirs, abs=1e-4)


def test_bootstrap_rows_are_fitted_independently():
    games = [
        GameResult((SeatResult("a", 1, 0), SeatResult("b", 2, 0)), group_key="win"),
        GameResult((SeatResult("b", 1, 0), SeatResult("a", 2, 0)), group_key="loss"),
    ]
    stages = build_stages(encode(games))  # groups in sorted order: 0 = "loss", 1 = "win"
    weights = stages.resampled(np.array([[0.0, 2.0], [2.0, 0.0], [1.0, 1.0]]))
    theta = fit_map(stages, weights, precision=1.0)
    assert theta[0, 0] > 0 > theta[1, 0] and theta[2] == pytest.approx([0, 0], abs=1e-9)
    assert theta[0, 0] == pytest.approx(-theta[1, 0])


def test_the_dense_and_the_seat_pair_derivatives_agree(monkeypatch):
    from leaderboard import plackett_luce

    rng = random.Random(5)
    names = [f"p{i}" for i in range(7)]
    games = []
    for _ in range(60):
        seats = rng.sample(names, rng.choice([2, 3, 4]))
        ranks = [rng.randint(1, len(seats)) for _ in seats]  # ties included
        games.append(GameResult(tuple(SeatResult(p, r, 0.0) for p, r in zip(seats, ranks))))
    stages = build_stages(encode(games))
    weights = np.stack([stages.weights, stages.weights * 2.0])
    theta = np.array([[rng.gauss(0, 1) for _ in names] for _ in range(2)])
    dense = plackett_luce._derivatives(stages, weights, theta, 0.1)
    monkeypatch.setattr(plackett_luce, "DENSE_PLAYERS", 0)
    pairwise = plackett_luce._derivatives(stages, weights, theta, 0.1)
    for a, b in zip(dense, pairwise):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
