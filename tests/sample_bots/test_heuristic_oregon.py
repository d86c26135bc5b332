"""The Oregon heuristic (sample_bots/heuristic-python/heuristics/oregon*.py): legal, reproducible
choices from views, legal playout moves, scoring that matches the engine, and a short series in
which it outscores random play."""

from __future__ import annotations

import random

import pytest
from heuristics import oregon, oregon_plays, oregon_scoring

from engine.oregon import GAME
from engine.oregon.actions import DecisionKind
from engine.oregon.play_options import locate
from tests.engine.harness import random_decision_points

PLAYER_COUNTS = (GAME.min_players, GAME.max_players)


def live_decision_points(players: int, seeds: range, every: int = 3):
    for seed in seeds:
        for state in random_decision_points(GAME, players, seed, every=every):
            if not state.is_over:
                yield state


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_choose_is_legal_and_depends_only_on_view_and_seed(players: int) -> None:
    kinds = set()
    for state in live_decision_points(players, range(4)):
        view = state.view(state.current_seat)
        actions = tuple(state.legal_actions())
        index = oregon.choose(view, actions, random.Random(7))
        assert 0 <= index < len(actions)
        assert oregon.choose(view, actions, random.Random(7)) == index
        kinds.add(state.phase)
    assert {DecisionKind.PLACE_START_TILE, DecisionKind.PLAY, DecisionKind.DRAW} <= kinds


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_rollout_picks_legal_indices_and_finishes_games(players: int) -> None:
    for state in live_decision_points(players, range(4)):
        assert 0 <= oregon.rollout(state, random.Random(3)) < len(state.legal_actions())
    for seed in range(3):
        state = GAME.new_game(players, seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply_index(oregon.rollout(state, rng))  # raises on an illegal index
        assert len(state.result().scores) == players


def test_immediate_gain_matches_engine_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    """With tokens and tiles valued at 0, a farmer's gain is exactly the points the engine gives
    the active seat, and a building's gain is its points minus the other seat's (2 players)."""
    for name in ("JOKER_VALUE", "EXTRA_TURN_VALUE", "COAL_VALUE", "GOLD_VALUE"):
        monkeypatch.setattr(oregon_scoring, name, 0.0)
    checked = 0
    for state in live_decision_points(2, range(6), every=2):
        if state.phase is not DecisionKind.PLAY:
            continue
        a = state.active
        board = oregon_scoring.Board(state, a)
        segments = oregon_plays.segments(state)
        count = sum(seg.size for seg in segments)
        for index in range(0, count, 7):
            seg, sp = locate(segments, index)
            after = state.clone()
            after.apply_index(index)
            mine = after.score[a] - state.score[a]
            theirs = after.score[1 - a] - state.score[1 - a]
            if seg.building < 0:
                assert board.farmer_gain(sp, True, True) == mine
                assert theirs == 0
            else:
                assert board.building_gain(sp, seg.building, True, True) == mine - theirs
            checked += 1
    assert checked > 100


def test_option_index_inverts_the_engine_enumeration() -> None:
    for state in live_decision_points(2, range(2)):
        if state.phase is not DecisionKind.PLAY:
            continue
        segments = oregon_plays.segments(state)
        for index in range(sum(seg.size for seg in segments)):
            seg, sp = locate(segments, index)
            assert oregon_plays.option_index(segments, segments.index(seg), sp) == index


def test_heuristic_outscores_random_in_a_short_series() -> None:
    """3 deals, the heuristic once in each seat against a uniformly random player."""
    totals = {"heuristic": 0.0, "random": 0.0}
    for seed in range(3):
        for heuristic_seat in (0, 1):
            state = GAME.new_game(2, seed)
            rng = random.Random(seed)
            while not state.is_over:
                actions = state.legal_actions()
                if state.current_seat == heuristic_seat:
                    index = oregon.choose(state.view(heuristic_seat), actions, rng)
                else:
                    index = rng.randrange(len(actions))
                state.apply_index(index)
            for seat, score in enumerate(state.result().scores):
                totals["heuristic" if seat == heuristic_seat else "random"] += score
    assert totals["heuristic"] > totals["random"]
