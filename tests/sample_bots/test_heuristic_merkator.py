"""The Merkator heuristic: legal choices from views, legal rollout choices on full states, and a
short series in which it outscores uniformly random play."""

from __future__ import annotations

import random

import pytest
from heuristics import merkator

from engine.merkator import GAME
from tests.engine.harness import random_decision_points


@pytest.mark.parametrize("players", [2, GAME.max_players])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_choose_returns_a_legal_index(players: int, seed: int) -> None:
    rng = random.Random(seed)
    checked = 0
    for state in random_decision_points(GAME, players, seed, every=5):
        if state.is_over:
            continue
        legal = state.legal_actions()
        index = merkator.choose(state.view(state.current_seat), legal, rng)
        assert type(index) is int and 0 <= index < len(legal), state.decision_kind
        checked += 1
    assert checked > 10


def test_choose_handles_the_rule_options() -> None:
    """PERMIT_JOIN exists only with join_needs_permission; the misprinted Alsterhaus changes
    a building's rule and whether FINAL_PLACE is asked."""
    options = {"join_needs_permission": True, "alsterhaus_misprint": True}
    kinds = set()
    for seed in (4, 5):
        state = GAME.new_game(3, seed, options)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            kinds.add(state.decision_kind)
            index = merkator.choose(state.view(state.current_seat), legal, rng)
            assert 0 <= index < len(legal), state.decision_kind
            state.apply_index(index)
    assert "PERMIT_JOIN" in kinds


@pytest.mark.parametrize("players", [2, GAME.max_players])
def test_rollout_plays_whole_games_with_legal_indices(players: int) -> None:
    for seed in range(3):
        state = GAME.new_game(players, seed)
        rng = random.Random(seed)
        kinds = set()
        while not state.is_over:
            index = merkator.rollout(state, rng)
            assert type(index) is int and 0 <= index < len(state.legal_actions())
            kinds.add(state.decision_kind)
            state.apply_index(index)
        assert {"INVEST", "TRAVEL", "FULFIL"} <= kinds


def test_rollout_is_legal_at_random_decision_points() -> None:
    rng = random.Random(7)
    for state in random_decision_points(GAME, 3, 7, every=3):
        if not state.is_over:
            assert 0 <= merkator.rollout(state, rng) < len(state.legal_actions())


def test_heuristic_outscores_random_in_a_short_series() -> None:
    heuristic_total = random_total = 0.0
    for seed in (11, 12, 13):
        for heuristic_seat in (0, 1):
            state = GAME.new_game(2, seed)
            rng = random.Random(seed)
            while not state.is_over:
                legal = state.legal_actions()
                if state.current_seat == heuristic_seat:
                    index = merkator.choose(state.view(heuristic_seat), legal, rng)
                else:
                    index = rng.randrange(len(legal))
                state.apply_index(index)
            scores = state.result().scores
            heuristic_total += scores[heuristic_seat]
            random_total += scores[1 - heuristic_seat]
    assert heuristic_total > random_total
