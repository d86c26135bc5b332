"""Views show all public information and nothing secret (rules 6). The leak test by resampling
and playing on from sampled states: tests/engine/test_contract.py."""

from __future__ import annotations

import random

import pytest

from engine.merkator import GAME, data
from engine.merkator.state import MerkatorState
from tests.engine import harness

PLAYER_COUNTS = (2, 3, 4)


def _scramble_secrets(state: MerkatorState, rng: random.Random) -> MerkatorState:
    """The same position with every secret changed: face-down letters, the order of each pile
    below its top card, the discard pile's order, the order of both decks and the RNG."""
    other = state.clone()
    for i in range(other.board_next, data.BOARD_SPACES):
        if not other.board_face_up[i]:
            other.board_letters[i] = rng.choice(data.MARKER_LETTERS)
    for pile in other.piles.values():
        below = pile[:-1]
        rng.shuffle(below)
        pile[:-1] = below
    rng.shuffle(other.discard)
    rng.shuffle(other.bonus_deck)
    rng.shuffle(other.building_deck)
    other.rng = random.Random(rng.random())
    return other


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_secrets_never_reach_a_view(players):
    rng = random.Random(players)
    for state in harness.random_decision_points(GAME, players, seed=3, every=3):
        scrambled = _scramble_secrets(state, rng)
        views = [repr(state.view(seat)) for seat in range(players)]
        assert views == [repr(scrambled.view(seat)) for seat in range(players)]
        # every seat sees the same, apart from its own seat number
        assert len({v.replace(f"seat={q}, join", "join", 1) for q, v in enumerate(views)}) == 1
        view = state.view(0)
        assert view.discard_count == len(state.discard)
        for marker in view.time_board:
            i = (marker.row - 1) * data.ROW_SPACES + marker.space - 1
            assert bool(marker.letters) == state.board_face_up[i]
        for pile in view.piles:
            assert pile.count == len(state.piles[pile.value])


def test_public_information_is_in_the_view():
    state = GAME.new_game(3, seed=4)
    view = state.view(1)
    assert view.seat == 1 and view.decision.name == "INVEST" and view.deciding_seat == 0
    assert [m.cubes for m in view.map] == [1] * 8
    assert len(view.time_board) == 30 and all(m.letters == "" for m in view.time_board)
    assert [p.markers for p in view.players] == [0, 1, 2]
    assert all(len(p.contracts) == 4 and len(p.tile) == 8 for p in view.players)
    assert [p.value for p in view.piles] == list(data.PILE_VALUES)
    assert view.piles[-1].top.id == "C78" and view.piles[-1].top.location is None
    assert view.bonus_deck_count == 6 and view.building_deck_count == 22
    assert all(s.card is not None for s in (*view.bonus_slots, *view.building_slots))


def test_render_shows_public_state_only():
    state = GAME.new_game(4, seed=2)
    text = state.render()
    assert "Merkator turn 1" in text and "INVEST by seat 0" in text
    assert "row 1: ?  ?  ?  ?  ?  ?" in text
    for letters in set(data.MARKER_LETTERS):
        assert f" {letters} " not in text.split("Piles")[0].split("Time board")[1]
    assert state.render(2) == text
