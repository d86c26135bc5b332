"""The Ogallala heuristic (sample_bots/heuristic-python/heuristics/ogallala.py): legal choices at
every kind of decision, the fast rollout policy, a few positions with an obvious best move, and a
short series against random play."""

from __future__ import annotations

import random

import pytest
from heuristics import ogallala

from engine.ogallala import GAME
from engine.ogallala.actions import (
    Attack,
    DecisionKind,
    Declare,
    Draw,
    OgallalaAction,
    PlaceCell,
    Stop,
)
from engine.ogallala.state import OgallalaState
from tests.engine.harness import random_decision_points
from tests.engine.ogallala.positions import start_of_turn


@pytest.mark.parametrize("players", [2, GAME.max_players])
def test_choose_is_legal_at_random_decision_points(players: int) -> None:
    rng = random.Random(players)
    asked = set()
    for seed in range(3):
        for state in random_decision_points(GAME, players, seed, every=5):
            if state.is_over:
                continue
            actions = state.legal_actions()
            index = ogallala.choose(state.view(state.current_seat), actions, rng)
            assert 0 <= index < len(actions)
            asked.add(state.decision)
    assert {DecisionKind.CHOOSE_STACK, DecisionKind.PLACE_CARD} <= asked


def play(players: int, seed: int, policy_of_seat) -> OgallalaState:
    """A whole game; ``policy_of_seat(seat)`` returns (state, rng) -> index."""
    state = GAME.new_game(players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        actions = state.legal_actions()
        index = policy_of_seat(state.current_seat)(state, rng)
        assert 0 <= index < len(actions), state.decision
        state.apply_index(index)
    return state


def heuristic(state, rng: random.Random) -> int:
    return ogallala.choose(state.view(state.current_seat), state.legal_actions(), rng)


def random_policy(state, rng: random.Random) -> int:
    return rng.randrange(len(state.legal_actions()))


@pytest.mark.parametrize("players", [2, GAME.max_players])
def test_heuristic_self_play_reaches_every_late_decision(players: int) -> None:
    """Self-play builds boats, so attacks and end declarations come up, and every choice is
    legal."""
    decided = set()
    for seed in range(3):
        state = play(players, seed, lambda seat: heuristic)
        replay = GAME.new_game(players, seed)
        for index in state.history:
            decided.add(replay.decision)
            replay.apply_index(index)
    assert {DecisionKind.ATTACK, DecisionKind.DECLARE_END, DecisionKind.PLACE_CARD} <= decided


@pytest.mark.parametrize("players", [2, GAME.max_players])
def test_rollout_returns_legal_indices_and_finishes_games(players: int) -> None:
    for seed in range(6):
        state = play(players, seed, lambda seat: ogallala.rollout)
        assert state.end_reason is not None


def test_heuristic_outscores_random_in_a_short_series() -> None:
    mine = theirs = 0.0
    for seed in range(3):
        for seat in (0, 1):
            state = play(2, seed, lambda s, seat=seat: heuristic if s == seat else random_policy)
            scores = state.result().scores
            mine += scores[seat]
            theirs += scores[1 - seat]
    assert mine > theirs


def choice(state: OgallalaState) -> OgallalaAction:
    actions = state.legal_actions()
    return actions[ogallala.choose(state.view(state.active), actions, random.Random(0))]


def test_places_the_stern_that_completes_a_long_boat() -> None:
    state = start_of_turn(2, {0: ("Bi W2 W3 W4 W5 W6 W7",)}, stacks=("Sp W1", "W1", "W1"))
    state.apply_index(0)  # draw the plain stern
    assert state.decision is DecisionKind.PLACE_CARD
    assert choice(state) == PlaceCell(0, 7)


def test_does_not_put_a_bow_after_its_own_open_run() -> None:
    """A bow right of 'Bi W2 W3' would shut that boat's stern end for good."""
    state = start_of_turn(2, {0: ("Bi W2 W3",)}, stacks=("Bp W1", "W1", "W1"))
    state.apply_index(0)
    assert choice(state) != PlaceCell(0, 3)


def test_completes_the_third_boat_when_that_wins_and_declares() -> None:
    state = start_of_turn(
        2,
        {0: ("Bp W2 Sp", "Bi W3 Si", "Bp W4 W5"), 1: ("Bp W1 Sp",)},
        stacks=("Si W1", "W1", "W1"),
    )
    state.apply_index(0)
    assert choice(state) == PlaceCell(2, 3)
    state.apply_index(state.legal_actions().index(PlaceCell(2, 3)))
    while state.decision is DecisionKind.ATTACK:
        state.apply_index(state.legal_actions().index(choice(state)))
    assert state.decision is DecisionKind.DECLARE_END
    assert choice(state) == Declare(True)


def test_does_not_declare_while_behind() -> None:
    """Seat 1's boat (6 cards and 3 booty, 36 points) has a totem, so it cannot be attacked."""
    state = start_of_turn(
        2,
        {0: ("Bp W2 Sp", "Bi W3 Si", "Bp W4 W5"), 1: ("Bp SQ CA TO CN Sp",)},
        stacks=("Si W1", "W1", "W1"),
    )
    state.apply_index(0)
    state.apply_index(state.legal_actions().index(PlaceCell(2, 3)))
    assert state.decision is DecisionKind.DECLARE_END
    assert choice(state) == Declare(False)


def test_attacks_the_boat_worth_most() -> None:
    """Completing 'Bi W5 CH W3 Si' (fight 20) may sink either boat of seat 1; the one with two
    booty cards (25 points, and booty to capture) beats the 3-point one."""
    state = start_of_turn(
        2,
        {0: ("Bi W5 CH W3",), 1: ("Bp W1 Sp", "Bi SQ CA W2 Si")},
        stacks=("Si W1", "W1", "W1"),
    )
    state.apply_index(0)
    state.apply_index(state.legal_actions().index(PlaceCell(0, 4)))
    assert state.decision is DecisionKind.ATTACK
    assert choice(state) == Attack(1, 1, 0)


def test_draws_from_original_stacks_are_alike_and_a_refilled_stack_is_not() -> None:
    state = GAME.new_game(2, seed=4)
    view = state.view(state.current_seat)
    assert view.decision is DecisionKind.CHOOSE_STACK
    assert ogallala.alike(view, state.legal_actions()) == [0, 0, 0]  # the turn's first draw

    state.stacks[1] = state.stacks[1][:3]
    state.refilled[1] = True  # as if it were the shuffled discard pile
    view = state.view(state.current_seat)
    actions = [Draw(0), Draw(1), Draw(2), Stop()]
    assert ogallala.alike(view, actions) == [0, 1, 0, 3]
