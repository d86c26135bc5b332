"""Edge cases of oregon.md section 8 that the worked examples do not cover."""

from engine.oregon.actions import Draw, UseExtraTurn
from engine.oregon.enums import Building, Card, Deck
from tests.engine.oregon.positions import (
    BLUE,
    GREEN,
    RED,
    farmer,
    hand_of,
    play_at,
    position,
    sp,
)

W, S = Card.WAGON, Card.SETTLER


def test_no_live_building_card_left_means_landscape_only_refill():
    state = position(empty_stacks=(Building.CHURCH,))
    state.decks[1] = [Card.CHURCH - 1]  # only a dead card is left, and the discard pile is empty
    play_at(state, RED, [W, W, S, S])
    state.apply(farmer((W, W), 0, 0))
    assert state.current_seat == RED and state.decision_kind == "DRAW"
    state.apply(Draw(Deck.BUILDING))  # the dead card leaves the game and the draw gives nothing
    assert state.out_of_game == [Card.CHURCH - 1]
    # BUILDING is now unavailable, so two landscape draws followed without a decision.
    assert state.current_seat == BLUE and len(state.history) == 2
    assert sum(state.hands[RED][:5]) == 4 and state.hands[RED][S - 1] >= 2


def test_the_round_cap_ends_the_game_after_the_last_seat_without_a_draw():
    state = position(players=2, round_=100)
    play_at(state, BLUE, [W, W, S, S])
    state.apply(farmer((W, W), 0, 0))
    assert state.is_over and not state.end_triggered
    assert hand_of(state, BLUE) == [S, S]


def test_the_game_goes_on_before_the_cap():
    state = position(players=2, round_=99)
    state.hands[RED] = [0] * 12
    state.hands[RED][S - 1] = 4
    play_at(state, BLUE, [W, W, S, S])
    state.apply(farmer((W, W), 0, 0))
    while state.current_seat == BLUE:
        state.apply_index(0)
    assert not state.is_over and state.round == 100 and state.current_seat == RED


def test_empty_coal_stack_gives_nothing_and_pits_stay_buildable():
    state = position(farmers={GREEN: [(0, 12)]})
    state.coal_stack = []
    play_at(state, RED, [W, Card.COAL_PIT, S, S])
    state.apply(
        next(
            a
            for a in state.legal_actions()
            if a.building == Building.COAL_PIT and (a.row, a.col) == (0, 13)
        )
    )
    assert state.coal == [[], [], []] and state.score == [0, 0, 0]


def test_in_extra_play_marks_the_extra_play_only_not_the_draws_after_it():
    """OregonView.in_extra_play means "the pending PLAY is the turn's extra play" (bot.proto):
    true at that PLAY, false at the DRAW decisions that follow it."""
    state = position(farmers={}, buildings=[(Building.WAREHOUSE, 5, 8)])
    state.add_building(sp(4, 7), Building.TRAIN_STATION - 1, start_tile=True)
    play_at(state, RED, [S, S, Card.BISON, Card.CHURCH])
    assert not state.view(RED).in_extra_play
    state.apply(farmer((S, S), 5, 7))
    state.apply(UseExtraTurn(True))
    assert state.decision_kind == "PLAY" and state.view(RED).in_extra_play
    state.apply(farmer((Card.BISON,), 3, 7, joker=True))
    draws = 0
    while state.current_seat == RED:
        assert state.decision_kind == "DRAW"
        assert not state.view(RED).in_extra_play and not state.view(BLUE).in_extra_play
        state.apply(Draw(Deck.LANDSCAPE))
        draws += 1
    assert draws == 3
