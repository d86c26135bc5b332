"""The worked examples E1-E14 of oregon.md section 9, with the spec's exact numbers."""

from engine.oregon import data
from engine.oregon.actions import DecisionKind, DiscardWhenStuck, Draw, UseExtraTurn
from engine.oregon.enums import Building, Card, Deck, Piece
from engine.oregon.state import OregonState
from tests.engine.oregon.positions import (
    BLUE,
    GREEN,
    RED,
    building,
    farmer,
    hand_of,
    play_at,
    plays,
    position,
    sp,
    spaces,
    start_turn,
)

W, B, S, E, C = Card.WAGON, Card.BISON, Card.SETTLER, Card.EAGLE, Card.CAMPFIRE


def _counts(actions, cards, joker=False, b=None):
    return len(spaces(actions, cards, joker, b))


def _finish_draws(state: OregonState, seat: int, deck: Deck = Deck.LANDSCAPE) -> None:
    while state.current_seat == seat and state.decision_kind == "DRAW":
        state.apply(Draw(deck))


# --- E1 ---------------------------------------------------------------------------------------
def test_e1_farmer_areas_and_option_counts():
    state = play_at(position(), RED, [E, C, Card.HARBOR, Card.COAL_PIT])
    actions = plays(state)
    assert spaces(actions, (E, C)) == [
        (6, 12),
        (6, 13),
        (6, 14),
        (7, 13),
        (7, 14),
        (8, 11),
        (9, 9),
        (9, 10),
        (9, 11),
    ]
    assert _counts(actions, (E, Card.HARBOR), b=Building.HARBOR) == 12
    assert _counts(actions, (C, Card.HARBOR), b=Building.HARBOR) == 10
    assert _counts(actions, (E, Card.COAL_PIT), b=Building.COAL_PIT) == 8
    assert _counts(actions, (C, Card.COAL_PIT), b=Building.COAL_PIT) == 13
    assert len(actions) == 52
    assert building(Building.HARBOR, (E, Card.HARBOR), 6, 12) in actions
    assert building(Building.HARBOR, (C, Card.HARBOR), 6, 12) in actions


def test_e1_with_the_joker_active():
    state = position()
    state.joker[RED] = True
    actions = plays(play_at(state, RED, [E, C, Card.HARBOR, Card.COAL_PIT]))
    assert len(actions) == 203
    assert _counts(actions, (E,), joker=True) == 48
    assert _counts(actions, (C,), joker=True) == 51
    assert _counts(actions, (Card.HARBOR,), joker=True, b=Building.HARBOR) == 26
    assert _counts(actions, (Card.COAL_PIT,), joker=True, b=Building.COAL_PIT) == 26


def test_e1_variant_equal_cards_and_deduplication():
    actions = plays(play_at(position(), RED, [E, E, C, Card.HARBOR]))
    assert spaces(actions, (E, E)) == [(6, 9), (6, 10), (7, 9)]
    assert len(spaces(actions, (E, C))) == 9
    assert len(actions) == 3 + 9 + 12 + 10 == 34
    assert len(set(actions)) == len(actions)


def test_e1_options_are_in_the_rules_order():
    state = position()
    state.joker[RED] = True
    actions = plays(play_at(state, RED, [S, E, Card.POST_OFFICE, Card.CHURCH]))
    key = [(a.piece, tuple(a.cards), a.joker, a.building or 0, a.row, a.col) for a in actions]
    assert key == sorted(key)
    # The rules' maximum (4.3): 12 F2 + 102 FJ + 90 B2 + 108 BJ.
    assert len(actions) == 312
    assert sum(1 for a in actions if a.piece == Piece.FARMER and not a.joker) == 12
    assert sum(1 for a in actions if a.piece == Piece.FARMER and a.joker) == 102
    assert sum(1 for a in actions if a.piece == Piece.BUILDING and not a.joker) == 90
    assert sum(1 for a in actions if a.piece == Piece.BUILDING and a.joker) == 108


# --- E2 ---------------------------------------------------------------------------------------
def test_e2_harbor_legality():
    harbor = data.BUILDING_LEGAL[Building.HARBOR - 1]
    assert (
        harbor >> sp(5, 10) & 1
        and data.BUILDING_PAIR_TARGETS[E - 1][Building.HARBOR - 1] >> sp(5, 10) & 1
    )
    assert not harbor >> sp(5, 9) & 1
    assert data.TERRAIN[5][9] == "G"
    assert all(not legal >> sp(7, 10) & 1 for legal in data.BUILDING_LEGAL)
    assert not data.FARMER_LEGAL >> sp(7, 10) & 1
    state = position()
    state.joker[RED] = True
    actions = plays(play_at(state, RED, [W, S, E, Card.HARBOR]))
    at_4_2 = [a for a in actions if (a.row, a.col) == (4, 2) and a.building == Building.HARBOR]
    assert [a.cards for a in at_4_2] == [(W, Card.HARBOR), (S, Card.HARBOR), (Card.HARBOR,)]


def test_e2_start_harbor_has_26_spaces_and_leaves_the_stack_alone():
    state = OregonState(3, 0, {})
    state.start_tile = [Building.HARBOR - 1, Building.POST_OFFICE - 1, Building.CHURCH - 1]
    assert len(state.legal_actions()) == 26
    state.apply_index(0)
    assert state.stacks[Building.HARBOR - 1] == 4
    assert len(state.legal_actions()) == 54 - 1  # the post office cannot use the harbor's space


# --- E3 ---------------------------------------------------------------------------------------
def test_e3_church_both_ways():
    state = position(farmers={RED: [(5, 9), (5, 10), (6, 10)], BLUE: [(7, 8), (7, 9)]})
    play_at(state, BLUE, [E, Card.CHURCH, W, W])
    state.apply(building(Building.CHURCH, (E, Card.CHURCH), 6, 9))
    assert state.score == [15, 10, 0]
    play_at(state, GREEN, [E, S, W, W])
    state.apply(farmer((S, E), 6, 8))
    assert state.score == [15, 10, 6]
    play_at(state, RED, [S, S, W, W])
    state.apply(farmer((S, S), 5, 8))
    assert state.score == [22, 10, 6]  # 7, the church's maximum, and no group bonus


# --- E4 ---------------------------------------------------------------------------------------
def test_e4_one_farmer_next_to_several_buildings():
    state = position(
        farmers={BLUE: [(4, 11)]},
        buildings=[
            (Building.POST_OFFICE, 1, 11),
            (Building.COAL_PIT, 1, 12),
            (Building.GOLD_MINE, 2, 13),
            (Building.CHURCH, 3, 11),
        ],
    )
    play_at(state, RED, [B, C, W, W])
    state.apply(farmer((B, C), 2, 12))
    assert state.score == [5, 0, 0]
    assert (len(state.coal[RED]), len(state.gold[RED])) == (1, 1)
    assert state.coal[BLUE] == state.gold[BLUE] == []


# --- E5 ---------------------------------------------------------------------------------------
def _component_size(state: OregonState, r: int, c: int) -> int:
    return state.size[state.group_root(sp(r, c))]


def test_e5_group_bonus_merges():
    state = position(farmers={RED: [(5, 9), (5, 11)]})
    play_at(state, RED, [S, E, W, W])
    state.apply(farmer((S, E), 5, 10))
    assert state.score[RED] == 5 and _component_size(state, 5, 10) == 3
    state.add_farmer(sp(6, 12), RED)
    state.add_farmer(sp(6, 13), RED)
    play_at(state, RED, [S, C, W, W])
    state.apply(farmer((S, C), 5, 12))
    assert state.score[RED] == 5 and _component_size(state, 5, 12) == 6


def test_e5_two_unscored_pairs_joined_score_once():
    state = position(farmers={RED: [(8, 0), (8, 1), (8, 3), (8, 4)]})
    play_at(state, RED, [W, C, S, S])
    state.apply(farmer((W, C), 8, 2))
    assert state.score[RED] == 5 and _component_size(state, 8, 2) == 5


def test_e5_diagonal_contact_does_not_connect():
    state = position(farmers={RED: [(9, 9), (9, 10)], BLUE: [(9, 8)]})
    play_at(state, RED, [S, C, W, W])
    state.apply(farmer((S, C), 8, 8))
    assert state.score[RED] == 0 and _component_size(state, 8, 8) == 1


# --- E6 ---------------------------------------------------------------------------------------
def _e6(joker: bool) -> OregonState:
    state = position()
    state.joker[RED] = joker
    return play_at(state, RED, [E, B, Card.WAREHOUSE, Card.GOLD_MINE])


def test_e6_option_counts_with_and_without_joker():
    assert len(plays(_e6(True))) == 205
    assert len(plays(_e6(False))) == 48


def test_e6a_farmer_with_joker_then_one_card_is_drawn():
    state = _e6(True)
    state.apply(farmer((E,), 0, 9, joker=True))
    assert not state.joker[RED]
    assert hand_of(state, RED) == [B, Card.WAREHOUSE, Card.GOLD_MINE]
    assert state.current_seat == RED and state.decision_kind == "DRAW"
    state.apply(Draw(Deck.LANDSCAPE))
    assert sum(state.hands[RED]) == 4 and state.current_seat == BLUE


def test_e6b_building_with_joker_reaches_what_no_card_reaches():
    state = _e6(True)
    actions = plays(state)
    at_0_13 = [a for a in actions if (a.row, a.col) == (0, 13) and a.piece == Piece.BUILDING]
    assert [a.cards for a in at_0_13] == [(Card.GOLD_MINE,)]
    state.apply(at_0_13[0])
    assert hand_of(state, RED) == [B, E, Card.WAREHOUSE]


def test_e6_options_that_do_not_exist():
    actions = plays(_e6(True))
    assert not [a for a in actions if a.cards == (B, E) and a.joker]
    assert not [a for a in actions if a.piece == Piece.BUILDING and a.cards == (B, E)]
    assert not [a for a in actions if a.piece == Piece.BUILDING and a.cards == (E,)]
    for a in actions:
        buildings_spent = [c for c in a.cards if c >= Card.POST_OFFICE]
        assert len(a.cards) + a.joker == 2
        assert len(buildings_spent) == (a.piece == Piece.BUILDING)


# --- E7 ---------------------------------------------------------------------------------------
def test_e7_extra_turn_chain():
    state = position(farmers={}, buildings=[(Building.WAREHOUSE, 5, 8)])
    state.add_building(sp(4, 7), Building.TRAIN_STATION - 1, start_tile=True)
    play_at(state, RED, [S, S, B, Card.CHURCH])
    state.apply(farmer((S, S), 5, 7))
    assert state.score[RED] == 2 and state.joker[RED] and state.extra[RED]
    assert state.decision_kind == "USE_EXTRA_TURN"
    assert list(state.legal_actions()) == [UseExtraTurn(False), UseExtraTurn(True)]
    state.apply(UseExtraTurn(True))
    assert not state.extra[RED] and state.decision_kind == "PLAY"
    state.apply(farmer((B,), 3, 7, joker=True))
    assert state.score[RED] == 3 and state.extra[RED] and not state.joker[RED]
    assert hand_of(state, RED) == [Card.CHURCH]
    draws = 0
    while state.current_seat == RED:
        assert state.decision_kind == "DRAW"
        state.apply(Draw(Deck.LANDSCAPE))
        draws += 1
    assert draws == 3 and sum(state.hands[RED]) == 4
    assert state.extra[RED] and not state.joker[RED]


# --- E8 ---------------------------------------------------------------------------------------
def test_e8_building_wakes_other_players_tokens():
    state = position(farmers={RED: [(2, 7), (3, 7)], GREEN: [(1, 8)]})
    state.joker[GREEN] = True
    play_at(state, BLUE, [B, Card.WAREHOUSE, W, W])
    state.apply(building(Building.WAREHOUSE, (B, Card.WAREHOUSE), 2, 8))
    assert state.score == [2, 0, 1]
    assert state.joker[RED] and state.joker[GREEN]


# --- E9 ---------------------------------------------------------------------------------------
def _e9() -> OregonState:
    state = position(landscape_top=[C])
    play_at(state, RED, [W, B, S, S])
    state.apply(farmer((S, S), 5, 7))
    assert hand_of(state, RED) == [W, B]
    return state


def test_e9_forced_building_draw():
    state = _e9()
    assert state.decision_kind == "DRAW"
    assert list(state.legal_actions()) == [Draw(Deck.LANDSCAPE), Draw(Deck.BUILDING)]
    state.apply(Draw(Deck.LANDSCAPE))
    assert state.current_seat == BLUE  # the building draw happened without a decision
    hand = hand_of(state, RED)
    assert hand[:3] == [W, B, C] and hand[3] >= Card.POST_OFFICE
    assert state.history[1:] == [0]  # one DRAW decision, the forced one is not logged


def test_e9_building_first_leaves_a_free_choice():
    state = _e9()
    state.apply(Draw(Deck.BUILDING))
    assert state.current_seat == RED and state.decision_kind == "DRAW"
    assert len(state.legal_actions()) == 2


# --- E10 --------------------------------------------------------------------------------------
def test_e10_dead_building_cards():
    state = position(
        empty_stacks=(Building.CHURCH,),
        landscape_top=[B, E],
        building_top=[Card.CHURCH, Card.WAREHOUSE],
    )
    play_at(state, BLUE, [E, Card.CHURCH, W, W])
    state.apply(farmer((W, W), 0, 0))
    assert hand_of(state, BLUE) == [E]  # the dead CHURCH was shown and left the game
    assert state.decision_kind == "DRAW"
    state.apply(Draw(Deck.BUILDING))
    state.apply(Draw(Deck.LANDSCAPE))
    state.apply(Draw(Deck.LANDSCAPE))
    assert sorted(hand_of(state, BLUE)) == sorted([E, Card.WAREHOUSE, B, E])
    assert state.out_of_game == [Card.CHURCH - 1, Card.CHURCH - 1]


def test_e10_reshuffle_drops_dead_cards():
    state = position(empty_stacks=(Building.CHURCH,))
    state.decks[1] = []
    state.discards[1] = [Card.CHURCH - 1, Card.HARBOR - 1, Card.COAL_PIT - 1]
    play_at(state, RED, [W, W, S, Card.POST_OFFICE])
    state.apply(farmer((W, W), 0, 0))
    state.apply(Draw(Deck.BUILDING))
    assert state.out_of_game == [Card.CHURCH - 1]
    drawn = [c for c in (Card.HARBOR, Card.COAL_PIT) if state.hands[RED][c - 1]]
    assert len(drawn) == 1
    assert state.discards[1] == [] and len(state.decks[1]) == 1


# --- E11 --------------------------------------------------------------------------------------
def test_e11_stuck_seat_discards_two_cards():
    state = position(
        farmers={BLUE: [(0, 0), (0, 1), (1, 0)], GREEN: [(0, 2), (1, 1)]},
        empty_stacks=(Building.COAL_PIT, Building.GOLD_MINE),
    )
    state.extra[RED] = True
    play_at(state, RED, [W, W, Card.COAL_PIT, Card.GOLD_MINE])
    assert state.decision_kind == "DISCARD_WHEN_STUCK"
    assert list(state.legal_actions()) == [
        DiscardWhenStuck((W, W)),
        DiscardWhenStuck((W, Card.COAL_PIT)),
        DiscardWhenStuck((W, Card.GOLD_MINE)),
        DiscardWhenStuck((Card.COAL_PIT, Card.GOLD_MINE)),
    ]
    board = (state.owner.copy(), state.building_at.copy(), state.score.copy())
    state.apply(DiscardWhenStuck((Card.COAL_PIT, Card.GOLD_MINE)))
    assert state.out_of_game == [Card.COAL_PIT - 1, Card.GOLD_MINE - 1]
    assert (state.owner, state.building_at, state.score) == board
    assert state.decision_kind != "USE_EXTRA_TURN"
    _finish_draws(state, RED)
    hand = hand_of(state, RED)
    assert len(hand) == 4 and hand[:2] == [W, W]
    assert any(c >= Card.POST_OFFICE and state.stacks[c - Card.POST_OFFICE] for c in hand)


# --- E12 --------------------------------------------------------------------------------------
def test_e12_coal_shortage_goes_clockwise_from_the_active_seat():
    state = position(farmers={RED: [(0, 11), (0, 12)], BLUE: [(1, 11)], GREEN: [(2, 12)]})
    state.coal_stack = [3, 1]
    play_at(state, BLUE, [W, Card.COAL_PIT, S, S])
    state.apply(building(Building.COAL_PIT, (W, Card.COAL_PIT), 1, 12))
    assert state.coal == [[], [1], [3]]
    assert state.coal_stack == []


# --- E13 --------------------------------------------------------------------------------------
def _e13(red_hand, blue_hand, green_hand) -> OregonState:
    state = position(round_=9, empty_stacks=(Building.CHURCH, Building.GOLD_MINE))
    state.stacks[Building.HARBOR - 1] = 1
    state.add_building(sp(1, 4), Building.HARBOR - 1, start_tile=True)
    state.extra = [False, True, False]
    state.turns = [7, 7, 7]
    for seat, hand in enumerate((red_hand, blue_hand, green_hand)):
        for card in hand:
            state.hands[seat][card - 1] += 1
    return start_turn(state, RED)


def test_e13_game_end_with_three_players():
    state = _e13([W, W, S, S], [E, Card.HARBOR, S, S], [C, C, B, B])
    state.apply(farmer((W, W), 0, 0))
    assert not state.end_triggered
    _finish_draws(state, RED)
    state.apply(building(Building.HARBOR, (E, Card.HARBOR), 5, 10))
    assert state.end_triggered and state.stacks[Building.HARBOR - 1] == 0
    assert state.decision_kind == "USE_EXTRA_TURN"  # still allowed after the trigger
    state.apply(UseExtraTurn(True))
    state.apply(farmer((S, S), 4, 6))
    _finish_draws(state, BLUE)
    assert sum(state.hands[BLUE]) == 4  # Blue draws as usual
    assert state.current_seat == GREEN
    state.apply(farmer((C, C), 9, 12))
    assert state.is_over and sum(state.hands[GREEN]) == 2  # the final turn has no draw
    assert state.turns == [8, 8, 8] and state.round == 9


def test_e13_trigger_by_the_last_seat_ends_the_game_after_its_plays():
    state = _e13([W, W, S, S], [S, S, B, B], [E, Card.HARBOR, C, C])
    state.extra = [False, False, True]
    state.apply(farmer((W, W), 0, 0))
    _finish_draws(state, RED)
    state.apply(farmer((S, S), 4, 6))
    _finish_draws(state, BLUE)
    state.apply(building(Building.HARBOR, (E, Card.HARBOR), 5, 10))
    assert state.decision_kind == "USE_EXTRA_TURN"
    state.apply(UseExtraTurn(False))
    assert state.is_over and state.turns == [8, 8, 8]


def test_e13_fourteenth_farmer_triggers_and_extra_play_is_buildings_only():
    state = _e13([W, W, S, S], [S, S, E, Card.POST_OFFICE], [C, C, B, B])
    state.supply[BLUE] = 1
    state.apply(farmer((W, W), 0, 0))
    _finish_draws(state, RED)
    state.apply(farmer((S, S), 4, 6))
    assert state.end_triggered and state.supply[BLUE] == 0
    state.apply(UseExtraTurn(True))
    assert {a.piece for a in plays(state)} == {Piece.BUILDING}


# --- E14 --------------------------------------------------------------------------------------
def _e14(green_farmers: int) -> OregonState:
    state = position()
    free = data.spaces_of(data.FARMER_LEGAL)
    for seat, count in ((RED, 10), (BLUE, 13), (GREEN, green_farmers)):
        for _ in range(count):
            state.add_farmer(free.pop(), seat)
    state.score = [48, 50, 52]
    state.coal = [[1, 3], [2], []]
    state.gold = [[4], [5, 3], [5, 3]]
    state.phase = None
    return state


def test_e14_final_scoring_and_tie_break():
    result = _e14(12).result()
    assert result.scores == (56.0, 60.0, 60.0)
    assert result.ranks == (3, 1, 2)


def test_e14_full_tie_shares_the_win():
    assert _e14(13).result().ranks == (3, 1, 1)


def test_decision_kinds_are_named_as_in_the_rules():
    assert [k.name for k in DecisionKind] == [
        "PLACE_START_TILE",
        "PLAY",
        "USE_EXTRA_TURN",
        "DISCARD_WHEN_STUCK",
        "DRAW",
    ]
