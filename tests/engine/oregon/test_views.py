"""Views show each seat exactly what rules section 6 allows; the leak test by resampling is in
tests/engine/test_contract.py."""

import random

import pytest

from engine.oregon import GAME, data
from engine.oregon.actions import DecisionKind
from tests.engine.harness import random_decision_points

PLAYER_COUNTS = (2, 3, 4)


def _swap_hidden(state, seat: int, rng: random.Random) -> None:
    """Exchange what ``seat`` cannot see: other hands against deck cards of the same kind,
    other seats' coal/gold values against undrawn tiles."""
    for other in range(state.num_players):
        if other == seat:
            continue
        for deck in (0, 1):
            kinds = (
                range(data.NUM_SYMBOLS) if deck == 0 else range(data.NUM_SYMBOLS, data.NUM_CARDS)
            )
            hand = state.hands[other]
            held = [c for c in kinds for _ in range(hand[c])]
            pool = held + state.decks[deck]
            rng.shuffle(pool)
            for c in held:
                hand[c] -= 1
            for c in pool[: len(held)]:
                hand[c] += 1
            state.decks[deck] = pool[len(held) :]
        for owned, stack in ((state.coal, state.coal_stack), (state.gold, state.gold_stack)):
            pool = owned[other] + stack
            rng.shuffle(pool)
            owned[other][:] = pool[: len(owned[other])]
            stack[:] = pool[len(owned[other]) :]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_view_never_contains_other_hands_or_tile_values(players):
    rng = random.Random(players)
    for state in random_decision_points(GAME, players, seed=40 + players, every=3):
        for seat in range(players):
            view = state.view(seat)
            assert view.seat == seat
            assert [c - 1 for c in view.hand] == [
                c for c in range(data.NUM_CARDS) for _ in range(state.hands[seat][c])
            ]
            for info in view.players:
                if info.seat != seat and not state.is_over:
                    assert info.coal_values == info.gold_values == ()
            if not state.is_over:
                changed = state.clone()
                _swap_hidden(changed, seat, rng)
                assert repr(changed.view(seat)) == repr(view)


def test_final_view_reveals_every_seats_tiles():
    state = next(s for s in random_decision_points(GAME, 3, seed=5, every=10_000) if s.is_over)
    for info in state.view(0).players:
        assert len(info.coal_values) == info.coal_tiles and len(info.gold_values) == info.gold_tiles
    assert state.view(0).decision is None and state.view(0).active_seat is None


def test_rendering_for_a_seat_hides_the_other_hands():
    state = GAME.new_game(3, 2)
    mine = state.render(seat=0).splitlines()
    assert mine[0].startswith("round 1: seat 0 to decide PLACE_START_TILE")
    seat_lines = [line for line in mine if line.startswith("seat ")]
    assert "hand [" in seat_lines[0] and "landscape +" not in seat_lines[0]
    assert all("3 landscape + 1 building cards" in line for line in seat_lines[1:])
    assert "landscape +" not in state.render()
    assert state.view(0).decision == DecisionKind.PLACE_START_TILE
