"""The worked examples E1-E15 of ogallala.md section 9, with the spec's exact numbers."""

from engine.ogallala.actions import (
    DISCARD,
    NO_ATTACK,
    STOP,
    Attack,
    DecisionKind,
    Declare,
    Draw,
    PlaceCell,
    PlaceShift,
    Side,
    SinkBoat,
    Target,
)
from engine.ogallala.scoring import boat_points, display_score
from engine.ogallala.views import Cell, EndReason
from tests.engine.ogallala.positions import display, grid, kinds, options, start_of_turn

L, R = Side.LEFT, Side.RIGHT


def cells(*pairs):
    return [PlaceCell(r, c) for r, c in pairs]


# --- E1 -------------------------------------------------------------------------------------------
def test_e1_new_row_above_renormalises_the_display():
    state = start_of_turn(2, {0: ("Bp W3",)}, stacks=("W5 W1", "W1", "W1"))
    state.apply(Draw(0))
    assert state.decision is DecisionKind.PLACE_CARD and not state.duplicate
    assert options(state) == cells(
        (-1, -1), (-1, 0), (-1, 1), (-1, 2), (0, -1), (0, 2), (1, -1), (1, 0), (1, 1), (1, 2)
    ) + [DISCARD]
    state.apply(PlaceCell(-1, 2))
    own = state.displays[0]
    assert grid(own) == [". . W5", "Bp W3 ."]
    assert (own.height, own.width) == (2, 3)
    assert state.decision is DecisionKind.CHOOSE_STACK and options(state)[-1] == STOP


def test_e1_limits_no_new_row_at_height_3_and_no_new_column_at_width_14():
    tall = start_of_turn(2, {0: ("Bp", "W3", "W4")}, stacks=("W5", "W1", "W1"))
    tall.apply(Draw(0))
    assert {action.row for action in options(tall)[:-1]} == {0, 1, 2}
    wide_row = "Bp W1 W2 W3 W4 W6 W7 W8 MM CH SQ CA TP CN"
    wide = start_of_turn(2, {0: (wide_row,)}, stacks=("W5", "W1", "W1"))
    wide.apply(Draw(0))
    assert {action.col for action in options(wide)[:-1]} == set(range(14))


# --- E2 -------------------------------------------------------------------------------------------
E2_DISPLAY = ("Bp W3 W5", "Bi W2 .", "Bp W4 .")


def test_e2_duplicate_card_is_placed_and_ends_the_turn():
    state = start_of_turn(2, {1: E2_DISPLAY}, stacks=("W3 W1", "W1", "W1"), active=1)
    state.apply(Draw(0))
    assert state.duplicate
    assert options(state) == cells((1, -1), (1, 2), (1, 3), (2, -1), (2, 2)) + [DISCARD]
    state.apply(PlaceCell(1, 2))
    assert grid(state.displays[1])[1] == "Bi W2 W3"
    assert state.active == 0 and state.draws == 0  # no STOP decision: the turn is over


def test_e2_variant_duplicate_in_every_row_is_discarded_automatically():
    rows = ("Bp W3 W5", "Bi W2 W3", "Bp W4 W3")
    state = start_of_turn(2, {1: rows}, stacks=("W3 W1", "W1", "W1"), active=1)
    state.apply(Draw(0))
    assert kinds("W3") == state.discard
    assert state.active == 0 and state.history == [0]


# --- E3 -------------------------------------------------------------------------------------------
def test_e3_first_draw_compulsory_then_stop_offered_then_discard_ends_the_turn():
    stacks = ("CN " + "W1 " * 19, "W2 " + "W1 " * 17, "W1 " * 19)
    state = start_of_turn(2, {}, stacks=stacks)
    assert [len(stack) for stack in state.stacks] == [20, 18, 19]
    assert options(state) == [Draw(0), Draw(1), Draw(2)]
    state.apply(Draw(1))
    assert state.card == kinds("W2")[0]
    # The empty display has one cell, (0, 0), plus DISCARD.
    state.apply(PlaceCell(0, 0))
    assert options(state) == [Draw(0), Draw(1), Draw(2), STOP]
    stopped = state.clone()
    stopped.apply(STOP)
    assert stopped.active == 1
    state.apply(Draw(0))
    state.apply(DISCARD)
    assert state.discard == kinds("CN") and state.active == 1


def test_e3_variant_first_card_discarded_at_once():
    state = start_of_turn(2, {}, stacks=("TO W1", "W1", "W1"))
    state.apply(Draw(0))
    state.apply(DISCARD)
    assert state.discard == kinds("TO") and state.active == 1
    assert state.displays[0].height == 0


# --- E4 -------------------------------------------------------------------------------------------
E4 = {
    0: ("Bi W5 CH W3", "Bp SQ . ."),
    1: ("Bp W8 MM TO Sp", "Bi W7 CH CB .", "W6 . . . ."),
    2: ("Bp W8 CH W2 Sp",),
}


def test_e4_completion_attack_totem_equal_strength_and_capture():
    state = start_of_turn(3, E4, stacks=("Si", "W1", "W1"))
    state.apply(Draw(0))
    state.apply(PlaceCell(0, 4))
    assert grid(state.displays[0])[0] == "Bi W5 CH W3 Si"
    assert state.decision is DecisionKind.ATTACK
    assert state.view(0).attack_card == Cell(0, 4)
    assert options(state) == [NO_ATTACK, Attack(1, 1, 0), Attack(1, 2, 0)]
    state.apply(Attack(1, 1, 0))
    assert state.discard == kinds("Bi W7 CH")
    assert grid(state.displays[1]) == ["Bp W8 MM TO Sp", ". . . . .", "W6 . . . ."]
    assert state.decision is DecisionKind.PLACE_CAPTURED and state.card == kinds("CB")[0]
    assert len(options(state)) == 19 and options(state)[-1] == DISCARD
    state.apply(PlaceCell(1, 2))
    assert grid(state.displays[0])[1] == "Bp SQ CB . ."
    assert state.active == 1 and state.decision is DecisionKind.CHOOSE_STACK


# --- E5 -------------------------------------------------------------------------------------------
E5 = ("Bp W4 TO Sp . .", "Bi CH MM HF HB Si", "W2 . . . . .")


def test_e5_crazy_axe_sinks_the_chosen_boat_despite_the_totem():
    state = start_of_turn(3, {2: E5}, stacks=("AX W1", "W1", "W1"), active=2)
    state.apply(Draw(0))
    assert state.decision is DecisionKind.AXE_BOAT
    assert options(state) == [SinkBoat(0, 0), SinkBoat(1, 0)]
    state.apply(SinkBoat(0, 0))
    assert state.discard == kinds("Bp W4 TO Sp AX")
    assert grid(state.displays[2]) == ["Bi CH MM HF HB Si", "W2 . . . . ."]
    assert state.active == 0
    assert len(state.displays[2].complete_boats()) == 1


def test_e5_variants_one_boat_sinks_without_decision_none_discards_the_axe():
    one = start_of_turn(3, {2: E5[1:]}, stacks=("AX W1", "W1", "W1"), active=2)
    one.apply(Draw(0))
    assert one.discard == kinds("Bi CH MM HF HB Si AX") and grid(one.displays[2]) == ["W2"]
    assert one.active == 0 and one.history == [0]
    none = start_of_turn(3, {2: ("W2",)}, stacks=("AX W1", "W1", "W1"), active=2)
    none.apply(Draw(0))
    assert none.discard == kinds("AX") and grid(none.displays[2]) == ["W2"] and none.active == 0


# --- E6 -------------------------------------------------------------------------------------------
E6 = {
    0: ("Bp SQ W1", "Bi SQ W2", "W3 SQ ."),
    1: ("Bp CB TO W6 Sp", "Bi W7 CN TO .", "SQ . . . ."),
    2: ("W5 GD",),
}
E6_TARGETS = [Target(1, 1, 2), Target(1, 1, 3), Target(2, 0, 1)]


def test_e6_lasso_targets_and_stolen_card_placement():
    state = start_of_turn(3, E6, stacks=("LA", "W1", "W1"))
    state.apply(Draw(0))
    assert options(state) == cells((0, -1), (0, 3), (1, -1), (1, 3), (2, -1), (2, 2), (2, 3)) + [
        DISCARD
    ]
    state.apply(PlaceCell(2, 2))
    assert grid(state.displays[0])[2] == "W3 SQ LA"
    assert state.decision is DecisionKind.LASSO_TARGET
    assert options(state) == E6_TARGETS
    state.apply(Target(1, 1, 2))
    assert grid(state.displays[1])[1] == "Bi W7 . TO ."
    assert state.decision is DecisionKind.PLACE_STOLEN and state.card == kinds("CN")[0]
    assert options(state) == cells((0, -1), (0, 3), (1, -1), (1, 3), (2, -1), (2, 3))
    state.apply(PlaceCell(0, 3))
    assert grid(state.displays[0])[0] == "Bp SQ W1 CN"
    assert state.active == 1


def test_e6_variants_discarded_lasso_still_acts_and_lasso_lapses_without_target():
    state = start_of_turn(3, E6, stacks=("LA", "W1", "W1"))
    state.apply(Draw(0))
    state.apply(DISCARD)
    assert state.decision is DecisionKind.LASSO_TARGET and options(state) == E6_TARGETS
    bare = dict(E6)
    bare[1] = ("Bp CB TO W6 Sp", "Bi W7 . . .", "SQ . . . .")
    bare[2] = ("W5",)
    lapsed = start_of_turn(3, bare, stacks=("LA", "W1", "W1"))
    lapsed.apply(Draw(0))
    lapsed.apply(PlaceCell(2, 2))
    assert lapsed.active == 1 and lapsed.decision is DecisionKind.CHOOSE_STACK


# --- E7 -------------------------------------------------------------------------------------------
def test_e7_archer_hits_indian_figures_in_unfinished_boats_only():
    displays = {1: ("Bp W2",), 2: ("AR W4",), 0: ("Bi W5 CH W3 Si", "Bi MM TO . .")}
    state = start_of_turn(3, displays, stacks=("AR W1", "W1", "W1"), active=1)
    state.apply(Draw(0))
    state.apply(PlaceCell(0, 2))
    assert state.decision is DecisionKind.ARCHER_TARGET
    assert options(state) == [Target(2, 0, 0), Target(2, 0, 1), Target(0, 1, 0), Target(0, 1, 1)]
    state.apply(Target(0, 1, 1))
    assert state.discard == kinds("MM")
    victim = state.displays[0]
    assert grid(victim)[1] == "Bi . TO . ."
    assert [s for s in victim.segments() if s[0] == 1] == [(1, 0, 0), (1, 2, 2)]
    assert state.active == 2


# --- E8 -------------------------------------------------------------------------------------------
E8 = ("Bp W2 HF CB W6", "Bi SQ . . .")


def test_e8_shift_options_and_their_results():
    state = start_of_turn(2, {0: E8}, stacks=("HB W1", "W1", "W1"))
    state.apply(Draw(0))
    shifts = [PlaceShift(0, 2, L), PlaceShift(0, 2, R), PlaceShift(0, 3, L), PlaceShift(0, 3, R)]
    assert len(options(state)) == 23
    assert options(state)[18:] == shifts + [DISCARD]
    expected = {
        PlaceShift(0, 2, R): ["Bp W2 HF HB CB W6", "Bi SQ . . . ."],
        PlaceShift(0, 2, L): ["Bp W2 HB HF CB W6", ". Bi SQ . . ."],
        PlaceShift(0, 3, R): ["Bp W2 HF CB HB W6", "Bi SQ . . . ."],
        PlaceShift(0, 3, L): ["Bp W2 HF HB CB W6", ". Bi SQ . . ."],
    }
    for shift, rows in expected.items():
        trial = state.clone()
        trial.apply(shift)
        assert grid(trial.displays[0]) == rows, shift
        assert trial.displays[0].width == 6
    state.apply(PlaceShift(0, 2, R))
    assert state.decision is DecisionKind.CHOOSE_STACK and options(state)[-1] == STOP


def test_e8_variants_no_shift_beyond_width_14_or_with_a_free_neighbour():
    wide = start_of_turn(
        2, {0: ("Bp W2 HF CB W6 W1 W3 W4 W5 W7 W8 MM CH Sp",)}, stacks=("HB", "W1", "W1")
    )
    wide.apply(Draw(0))
    assert not any(isinstance(a, PlaceShift) for a in options(wide))
    free = start_of_turn(2, {0: ("Bp W2 HF . W6", "Bi SQ . . .")}, stacks=("HB", "W1", "W1"))
    free.apply(Draw(0))
    assert not any(isinstance(a, PlaceShift) for a in options(free))
    assert PlaceCell(0, 3) in options(free)


# --- E9 -------------------------------------------------------------------------------------------
def test_e9_captured_booty_completes_without_attack_and_shifts_into_a_complete_boat():
    displays = {0: ("Bi CH MM W5 .", "Bp GD W4 . Sp"), 1: ("Bi W2 GL GR W3",)}
    state = start_of_turn(2, displays, stacks=("Si", "W1", "W1"))
    state.apply(Draw(0))
    state.apply(PlaceCell(0, 4))
    assert options(state) == [NO_ATTACK, Attack(1, 0, 0)]
    state.apply(Attack(1, 0, 0))
    assert state.discard == kinds("Bi W2 W3")
    assert state.displays[1].height == 0
    assert state.decision is DecisionKind.PLACE_CAPTURED and state.card == kinds("GL")[0]
    assert state.view(0).captured == ("gold_right",)
    assert PlaceCell(1, 3) in options(state)
    assert PlaceShift(1, 1, L) in options(state) and PlaceShift(1, 1, R) in options(state)
    state.apply(PlaceCell(1, 3))
    assert grid(state.displays[0])[1] == "Bp GD W4 GL Sp"
    assert state.completed and state.decision is DecisionKind.PLACE_CAPTURED  # no second attack
    shifts = [PlaceShift(1, 1, L), PlaceShift(1, 1, R), PlaceShift(1, 3, L), PlaceShift(1, 3, R)]
    assert [a for a in options(state) if isinstance(a, PlaceShift)] == shifts
    rows = {
        PlaceShift(1, 1, L): "Bp GR GD W4 GL Sp",
        PlaceShift(1, 1, R): "Bp GD GR W4 GL Sp",
        PlaceShift(1, 3, L): "Bp GD W4 GR GL Sp",
    }
    for shift, row in rows.items():
        trial = state.clone()
        trial.apply(shift)
        assert grid(trial.displays[0])[1] == row
    state.apply(PlaceShift(1, 3, R))
    own = state.displays[0]
    assert grid(own)[1] == "Bp GD W4 GL GR Sp" and own.width == 6
    assert len(own.complete_boats()) == 2 and state.active == 1  # end check: nothing happens
    assert boat_points(kinds("Bp GD W4 GL GR Sp")) == 56
    assert boat_points(kinds("Bp W4 GD GL GR Sp")) == 96


# --- E10 ------------------------------------------------------------------------------------------
def test_e10_lasso_turn_two_completions_stolen_totem_opens_attack_then_declare():
    displays = {
        0: ("Bi W6 Si . .", "Bp W3 W5 . Sp", "Bi CH . Si ."),
        1: ("Bp MM TO",),
        2: ("W4 TB",),
    }
    state = start_of_turn(3, displays, stacks=("LA", "W1", "W1"))
    state.apply(Draw(0))
    state.apply(PlaceCell(1, 3))
    assert grid(state.displays[0])[1] == "Bp W3 W5 LA Sp"
    assert options(state) == [Target(1, 0, 2), Target(2, 0, 1)]
    state.apply(Target(1, 0, 2))
    assert grid(state.displays[1]) == ["Bp MM"]
    state.apply(PlaceCell(2, 2))
    assert grid(state.displays[0])[2] == "Bi CH TO Si ."
    assert state.decision is DecisionKind.ATTACK
    assert options(state) == [NO_ATTACK, Attack(1, 0, 0), Attack(2, 0, 0)]
    state.apply(Attack(1, 0, 0))
    assert state.discard == kinds("Bp MM") and state.displays[1].height == 0
    assert state.decision is DecisionKind.DECLARE_END
    assert options(state) == [Declare(False), Declare(True)]


# --- E11 ------------------------------------------------------------------------------------------
E11 = {
    1: ("Bp W4 SQ Sp Bi CA W2 Si", "Bi W8 CN TP . . . ."),
    2: ("Bp CH W2 HF HB Sp",),
    0: ("Bi MM W3 TB Si", "Bp CH GD GL GR"),
}


def test_e11_declaring_the_end_at_the_third_boat_and_final_scores():
    state = start_of_turn(3, E11, stacks=("Sp", "W1", "W1"), active=1)
    state.apply(Draw(0))
    assert state.duplicate
    assert not any(isinstance(a, PlaceCell) and a.row == 0 for a in options(state))
    state.apply(PlaceCell(1, 4))
    # Every opponent segment has fight >= 9 (12, 14, 10): NONE was applied automatically.
    assert state.decision is DecisionKind.DECLARE_END
    assert options(state) == [Declare(False), Declare(True)]
    played_on = state.clone()
    state.apply(Declare(True))
    assert state.is_over and state.end_reason is EndReason.DECLARED
    result = state.result()
    assert result.scores == (15.0, 53.0, 46.0)
    assert result.ranks == (3, 1, 2)
    played_on.apply(Declare(False))
    assert not played_on.is_over and played_on.active == 2


def test_e11_variant_equal_top_scores_share_the_win():
    displays = dict(E11)
    displays[2] = ("Bi CA TP CN TB Si Bp W2 W3 W4 W5 W6 Sp",)
    assert display_score(display(*displays[2])) == 53
    state = start_of_turn(3, displays, stacks=("Sp", "W1", "W1"), active=1)
    state.apply(Draw(0))
    state.apply(PlaceCell(1, 4))
    assert options(state) == [NO_ATTACK, Attack(2, 0, 0)]  # seat 2's first boat has fight 2
    state.apply(NO_ATTACK)
    state.apply(Declare(True))
    assert state.result().scores == (15.0, 53.0, 53.0)
    assert state.result().ranks == (3, 1, 1)


# --- E12 ------------------------------------------------------------------------------------------
def test_e12_scoring_a_long_boat_with_the_full_horse_set():
    assert boat_points(kinds("Bi W3 CB HF HB CH SQ W5 Sp")) == 118
    assert boat_points(kinds("Bi CB W3 HF HB CH SQ W5 Sp")) == 78
    assert boat_points(kinds("Bi W3 CB HB HF CH SQ W5 Sp")) == 58
    assert display_score(display("Bi W3 CB HF HB CH SQ W5")) == 0
    assert boat_points(kinds("Bi CB HF HB SQ W5 Sp")) == 107
    assert boat_points(kinds("Bi CB HF HB SQ W5 W2 Sp")) == 116


# --- E13 ------------------------------------------------------------------------------------------
def test_e13_stack_exhaustion_and_reshuffle():
    discard = "W1 W2 W3 W4 W5 SQ CA TP CN"
    state = start_of_turn(
        3, {}, stacks=("W6", "TO W1 W1 W1 W1 W1", "W1 W1 W1"), discard=discard, active=2
    )
    assert options(state) == [Draw(0), Draw(1), Draw(2)]
    state.apply(Draw(0))
    state.apply(PlaceCell(0, 0))
    assert [len(stack) for stack in state.stacks] == [9, 6, 3]
    assert state.refilled == [True, False, False] and state.discard == []
    assert sorted(state.stacks[0]) == sorted(kinds(discard))
    view = state.view(0)
    assert sum(entry.count for entry in view.stacks[0].contents) == 9
    assert {entry.kind for entry in view.stacks[0].contents} == {
        "warrior_1",
        "warrior_2",
        "warrior_3",
        "warrior_4",
        "warrior_5",
        "squaw",
        "cauldron",
        "tepee",
        "cannon",
    }
    assert options(state) == [Draw(0), Draw(1), Draw(2), STOP]
    state.apply(Draw(1))
    state.apply(DISCARD)
    assert state.discard == kinds("TO") and state.active == 0


def test_e13_later_refill_fills_only_the_first_empty_stack():
    state = start_of_turn(3, {}, stacks=("", "", "W1 W1 W1 W1"), discard="W3 W4 W5 W6 W7")
    assert [len(stack) for stack in state.stacks] == [5, 0, 4]
    assert state.refilled == [True, False, False] and state.discard == []
    assert options(state) == [Draw(0), Draw(2)]


# --- E14 ------------------------------------------------------------------------------------------
def test_e14_turn_cap_ends_the_game_after_turn_600():
    state = start_of_turn(2, {0: ("Bp W2 Sp",)}, stacks=("W4 W1", "W1", "W1"), active=1, turn=599)
    state.apply(Draw(0))
    state.apply(PlaceCell(0, 0))
    state.apply(STOP)
    assert state.is_over and state.end_reason is EndReason.TURN_CAP and state.turn == 600
    assert state.result().scores == (3.0, 0.0) and state.result().ranks == (1, 2)


# --- E15 ------------------------------------------------------------------------------------------
def test_e15_five_boats_end_the_game_after_the_attack_without_declaring():
    rows = ("Bp W2 Sp Bi W3 Si", "Bp W4 Sp Bi W5 Si", "Bi W8 . . . .")
    state = start_of_turn(2, {0: rows, 1: ("W1",)}, stacks=("Sp", "W1", "W1"))
    state.apply(Draw(0))
    state.apply(PlaceCell(2, 2))
    assert state.decision is DecisionKind.ATTACK and options(state) == [NO_ATTACK, Attack(1, 0, 0)]
    state.apply(NO_ATTACK)
    assert state.is_over and state.end_reason is EndReason.FIVE_BOATS


def test_e15_variant_back_at_four_boats_declaring_is_offered_again():
    rows = ("Bp W2 Sp Bi W3 Si", "Bp W4 Sp . . .", "Bi W8 . . . .")
    state = start_of_turn(2, {0: rows}, stacks=("Sp", "W1", "W1"))
    state.apply(Draw(0))
    state.apply(PlaceCell(2, 2))
    assert state.decision is DecisionKind.DECLARE_END
