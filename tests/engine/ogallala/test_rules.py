"""Rules not covered by a worked example: data and setup, the end by stall (R34) and by empty
stacks (R12), and the attack card followed through a renormalisation."""

import pytest

from engine.ogallala import GAME
from engine.ogallala.actions import DISCARD, NO_ATTACK, Attack, DecisionKind, Draw, PlaceCell
from engine.ogallala.data import COUNT, DATA, INITIAL_STACK_SIZES, KIND_NAMES, full_deck
from engine.ogallala.views import Cell, EndReason
from tests.engine.ogallala.positions import grid, kinds, options, start_of_turn


def test_deck_matches_the_published_totals():
    assert len(full_deck()) == 112 and sum(COUNT) == 112
    by_category = {}
    for card in DATA["cards"]:
        by_category[card["category"]] = by_category.get(card["category"], 0) + card["count"]
    assert by_category == {"plain_end": 12, "indian": 66, "booty": 34}
    assert len(KIND_NAMES) == len(set(KIND_NAMES)) == 38
    assert "RECONSTRUCTED" in DATA["card_list_status"]


@pytest.mark.parametrize("players", (2, 3, 4, 5))
def test_setup_deals_three_stacks_and_seat_0_must_draw(players):
    state = GAME.new_game(players, seed=1)
    assert [len(stack) for stack in state.stacks] == list(INITIAL_STACK_SIZES) == [38, 37, 37]
    assert state.current_seat == 0 and state.decision_kind == "CHOOSE_STACK"
    assert options(state) == [Draw(0), Draw(1), Draw(2)]
    assert all(display.height == 0 for display in state.displays) and state.discard == []


def test_stall_ends_the_game_after_60_turns_without_a_display_change():
    state = start_of_turn(2, {0: ("Bp W2 Sp",)}, stacks=("TO W1", "W1", "W1"))
    state.stall = 58
    state.apply(Draw(0))
    state.apply(DISCARD)
    assert state.stall == 59 and not state.is_over
    placed = state.clone()
    state.apply(Draw(0))
    state.apply(DISCARD)
    assert state.is_over and state.end_reason is EndReason.STALL
    assert state.result().scores == (3.0, 0.0)
    placed.apply(Draw(0))
    placed.apply(PlaceCell(0, 0))
    placed.apply(placed.legal_actions()[-1])  # STOP
    assert placed.stall == 0 and not placed.is_over


def test_game_ends_when_every_stack_stays_empty_after_a_refill():
    state = start_of_turn(2, {}, stacks=("W1", "", ""))
    state.apply(Draw(0))  # the only option in the empty display besides DISCARD
    state.apply(PlaceCell(0, 0))
    assert state.is_over and state.end_reason is EndReason.CARDS_EXHAUSTED


def test_game_ends_at_once_when_the_last_card_is_drawn_mid_turn():
    """5.1c, 4.4 step 1: when the refill step after a placement leaves every stack empty, the
    game ends there: no STOP, and the turn is not closed (no turn counted, so the turn cap that
    turn 600 would reach does not end it)."""
    state = start_of_turn(2, {}, stacks=("W1", "", ""), turn=599)
    state.apply(Draw(0))
    state.apply(PlaceCell(0, 0))  # neither completes a boat nor duplicates: back to step 1
    assert state.is_over and state.end_reason is EndReason.CARDS_EXHAUSTED
    assert state.turn == 599 and state.history == [0, 0]


def test_attack_card_is_followed_when_a_new_top_row_moves_it():
    displays = {0: ("Bp W3 W5 . Sp",), 1: ("Bp MM TO",)}
    state = start_of_turn(2, displays, stacks=("LA", "W1", "W1"))
    state.apply(Draw(0))
    state.apply(PlaceCell(0, 3))  # completes Bp W3 W5 LA Sp, fight 10; the only lasso target
    assert state.decision is DecisionKind.PLACE_STOLEN and state.card == kinds("TO")[0]
    assert state.view(0).attack_card == Cell(0, 3)
    state.apply(PlaceCell(-1, 0))
    assert grid(state.displays[0]) == ["TO . . . .", "Bp W3 W5 LA Sp"]
    assert state.decision is DecisionKind.ATTACK and state.view(1).attack_card == Cell(1, 3)
    assert options(state) == [NO_ATTACK, Attack(1, 0, 0)]  # Bp MM: fight 9 < 10


def test_game_over_rejects_actions_and_reports_the_end():
    state = start_of_turn(2, {}, stacks=("W1", "", ""))
    state.apply(Draw(0))
    state.apply(PlaceCell(0, 0))
    assert state.current_seat is None and state.decision_kind == "" and state.legal_actions() == ()
    result = state.result()
    assert result.ranks == (1, 1)  # both score 0 and share the win
    assert result.details[0] == "0 points; game end: cards exhausted"


def test_shifts_move_only_their_side_and_keep_every_card():
    from engine.ogallala.actions import PlaceShift, Side

    lower = "Bi W1 W2 W3 W4 W5"
    cases = {
        ("Bp HF CB . . .", Side.LEFT, 1): ["Bp HB HF CB . . .", ". Bi W1 W2 W3 W4 W5"],
        ("Bp HF CB . . .", Side.RIGHT, 1): ["Bp HF HB CB . .", "Bi W1 W2 W3 W4 W5"],
        (". W7 HF CB . .", Side.LEFT, 2): ["W7 HB HF CB . .", "Bi W1 W2 W3 W4 W5"],
    }
    for (upper, side, anchor), expected in cases.items():
        state = start_of_turn(2, {0: (upper, lower)}, stacks=("HB W1", "W1", "W1"))
        state.apply(Draw(0))
        state.apply(PlaceShift(0, anchor, side))
        assert grid(state.displays[0]) == expected, (upper, side)
        assert state.displays[0].card_count() == 10


def test_actions_outside_the_legal_list_raise_and_change_nothing():
    from engine import IllegalActionError

    state = start_of_turn(2, {0: ("Bp W3",)}, stacks=("W3 W1", "W1", "W1"))
    state.apply(Draw(0))  # a duplicate: row 0 is closed to it
    before = state.digest()
    for wrong in (Draw(0), PlaceCell(0, 2), PlaceCell(5, 5), NO_ATTACK):
        with pytest.raises(IllegalActionError):
            state.apply(wrong)
    assert state.digest() == before and state.history == [0]
