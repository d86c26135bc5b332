"""Random-play properties (issue 2): conservation, monotone scores, equal turns, every applied
action in the legal list. Determinism, replay, clones and bad input:
tests/engine/test_contract.py."""

from collections import Counter

import pytest

from engine.core import IllegalActionError
from engine.oregon import GAME, data
from engine.oregon.actions import Draw, Play
from engine.oregon.enums import Card, Deck, Piece
from engine.oregon.state import OregonState
from tests.engine.harness import play_random_game, property_game_count

PLAYER_COUNTS = (2, 3, 4)
_COPIES = data.LANDSCAPE_COPIES + data.BUILDING_CARD_COPIES


def _check_conservation(state: OregonState) -> None:
    cards = Counter(state.out_of_game)
    for pile in (*state.decks, *state.discards):
        cards.update(pile)
    for hand in state.hands:
        assert sum(hand) <= data.HAND_SIZE
        cards.update({c: n for c, n in enumerate(hand) if n})
    assert [cards[c] for c in range(data.NUM_CARDS)] == list(_COPIES)
    assert not any(c < data.NUM_SYMBOLS for c in state.out_of_game)  # landscapes never leave
    for seat in range(state.num_players):
        assert state.farmer_mask[seat].bit_count() + state.supply[seat] == data.FARMERS_PER_PLAYER
    on_board = sum(1 for b in state.building_at if b >= 0)
    assert on_board == sum(data.STACK_TILES) - sum(state.stacks) + sum(state.start_placed)
    assert state.start_mask.bit_count() == sum(state.start_placed)
    assert min(state.stacks) >= 0
    for owned, stack, tiles in (
        (state.coal, state.coal_stack, data.COAL_TILES),
        (state.gold, state.gold_stack, data.GOLD_TILES),
    ):
        assert sorted(stack + [v for values in owned for v in values]) == sorted(tiles)
    occupied = [
        sp for sp in range(data.SPACES) if state.owner[sp] >= 0 or state.building_at[sp] >= 0
    ]
    assert all(not (state.owner[sp] >= 0 and state.building_at[sp] >= 0) for sp in occupied)
    assert not data.mask_of(occupied) & data.WATER
    assert state.free == data.FARMER_LEGAL & ~data.mask_of(occupied)


def _check_groups(state: OregonState) -> None:
    """Union-find sizes equal the orthogonal components found by a plain search."""
    for sp in range(data.SPACES):
        seat = state.owner[sp]
        if seat < 0:
            continue
        seen, todo = set(), [sp]
        while todo:
            here = todo.pop()
            if here not in seen:
                seen.add(here)
                todo.extend(n for n in data.ORTHOGONAL[here] if state.owner[n] == seat)
        assert state.size[state.group_root(sp)] == len(seen)


def _on_step(state, before, index) -> None:
    _check_conservation(state)
    if not state.is_over:
        assert len(state.legal_actions()) >= 2, "a single-option decision reached a seat"
    if before is not None:
        assert all(now >= then for now, then in zip(state.score, before.score))
        action = before.legal_actions()[index]
        by_action = before.clone()
        by_action.apply(action)  # the applied action is one of the listed legal actions
        assert by_action.digest() == state.digest()


@pytest.mark.slow  # many random games
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_keep_the_invariants(players):
    for seed in range(property_game_count()):
        state = play_random_game(GAME, players, seed, on_step=_on_step)
        _check_groups(state)
        assert state.turns == [state.round - 1] * players, "seats had different turn counts"
        assert state.round <= data.ROUND_CAP
        assert state.end_triggered or state.round == data.ROUND_CAP


def test_setup_follows_section_3():
    state = GAME.new_game(4, 11)
    assert state.decision_kind == "PLACE_START_TILE" and state.current_seat == 0
    assert [sum(h[: data.NUM_SYMBOLS]) for h in state.hands] == [3] * 4
    assert [sum(h[data.NUM_SYMBOLS :]) for h in state.hands] == [1] * 4
    assert (len(state.decks[0]), len(state.decks[1])) == (50 - 12, 21 - 4)
    assert len(set(state.start_tile)) == 4 and state.stacks == [4] * 7
    assert state.joker == state.extra == [True] * 4


def test_an_illegal_play_is_refused_with_a_clear_error():
    state = GAME.new_game(3, 4)
    while state.decision_kind != "PLAY":
        state.apply_index(0)
    before = state.digest()
    on_water = Play(Piece.FARMER, None, (Card.WAGON, Card.WAGON), False, 7, 10)
    for bad in (on_water, Draw(Deck.LANDSCAPE)):
        with pytest.raises(IllegalActionError, match="is not a legal PLAY action"):
            state.apply(bad)
    with pytest.raises(IllegalActionError, match="not a legal PLAY option index"):
        state.apply_index(len(state.legal_actions()))
    assert state.digest() == before
