"""Fast Ogallala policy for playouts: reads the full state and judges each placement only by the
card's horizontal neighbours in its row (a few list lookups per option), so a playout costs a
small multiple of a random one while it still builds boats (bow on the left, stern on the right,
crew and booty in between, set halves side by side) and declares the end when ahead.
"""

from __future__ import annotations

import random

from engine.ogallala.actions import Attack, Discard, PlaceCell, PlaceShift, Side, SinkBoat, Stop
from engine.ogallala.cards import IS_BOOTY, IS_BOW, IS_STERN, SET_OF, SET_PIECES
from engine.ogallala.display import EMPTY, Display
from engine.ogallala.scoring import display_score
from engine.ogallala.views import Decision

_NEW_ROW: list[int] = []
_PLACING = (Decision.PLACE_CARD, Decision.PLACE_STOLEN, Decision.PLACE_CAPTURED)

# Worth of a placement by what it does to the row (rough points; a discard is worth 0).
COMPLETES = 10.0  # closes a boat: bow..stern
JOINS_END = 4.0  # a bow or stern joins a run that lacks it
EXTENDS = 2.0  # a middle card extends a run (joins its open side)
BRIDGES = 3.0  # a middle card joins two runs into one
STARTS = 1.0  # a card with no horizontal neighbour: the start of a new boat
BLOCKS = -3.0  # a bow right of a run's open end, or a stern left of it: that end is shut
STRANDED = -0.5  # a middle card right of a stern or left of a bow: it can never get that end
BOOTY = 1.0  # booty scores 10 once its boat is complete: keep it rather than discard it
SET_PAIR = 6.0  # a shift that puts a set's halves side by side in the right order
SET_PIECE = 1.0  # any other shift


def rollout(state, rng: random.Random) -> int:
    """Index of the action the fast policy picks in ``state`` (a full OgallalaState)."""
    legal = state.legal_actions()
    decision = state.decision
    if decision in _PLACING:
        return _place(state.displays[state.active], state.card, legal)
    if decision is Decision.CHOOSE_STACK:  # always draw on (the axe is rare)
        return rng.randrange(len(legal) - (type(legal[-1]) is Stop))
    if decision is Decision.ATTACK:  # the longest segment: most cards, usually most worth
        return max(range(len(legal)), key=lambda i: _attacked_length(state, legal[i]))
    if decision is Decision.AXE_BOAT:  # sink the shortest boat
        own = state.displays[state.active]
        return min(range(len(legal)), key=lambda i: _boat_length(own, legal[i]))
    if decision is Decision.DECLARE_END:
        scores = [display_score(display) for display in state.displays]
        mine = scores.pop(state.active)
        return int(mine > max(scores))  # legal is (Declare(False), Declare(True))
    return rng.randrange(len(legal))  # lasso and archer targets


def _attacked_length(state, action) -> int:
    if type(action) is not Attack:
        return 0
    _, first, last = state.displays[action.seat].segment_at(action.row, action.col)
    return last - first + 1


def _boat_length(display: Display, action: SinkBoat) -> int:
    _, first, last = display.segment_at(action.row, action.col)
    return last - first + 1


def _place(display: Display, kind: int, legal) -> int:
    """The best placement by its neighbours, or Discard (last, worth 0) when nothing is better."""
    if type(legal[-1]) is Discard:
        best_index, best_value = len(legal) - 1, 0.0
    else:
        best_index, best_value = 0, float("-inf")
    for index, action in enumerate(legal):
        kind_of_action = type(action)
        if kind_of_action is PlaceCell:
            value = _cell_value(display, kind, action.row, action.col)
        elif kind_of_action is PlaceShift:
            value = _shift_value(display, kind, action)
        else:
            continue
        if value > best_value:
            best_index, best_value = index, value
    return best_index


def _cell_value(display: Display, kind: int, row: int, col: int) -> float:
    left = right = EMPTY
    cells = display.rows[row] if 0 <= row < display.height else _NEW_ROW
    if cells is not _NEW_ROW:
        if col > 0:
            left = cells[col - 1]
        if 0 <= col + 1 < display.width:
            right = cells[col + 1]
    booty = BOOTY if IS_BOOTY[kind] else 0.0
    left_open = left != EMPTY and not IS_STERN[left]  # a run whose right end is still open
    right_open = right != EMPTY and not IS_BOW[right]  # a run whose left end is still open
    if IS_BOW[kind]:
        if left_open:
            return BLOCKS
        if right_open:
            return COMPLETES if _run_has_stern(cells, col + 1) else JOINS_END
        return STARTS
    if IS_STERN[kind]:
        if right_open:
            return BLOCKS
        if left_open:
            return COMPLETES if _run_has_bow(cells, col - 1) else JOINS_END
        return STARTS
    if left_open and right_open:
        if _run_has_bow(cells, col - 1) and _run_has_stern(cells, col + 1):
            return COMPLETES + booty
        return BRIDGES + booty
    if left_open:
        return EXTENDS + booty + (right != EMPTY) * STRANDED
    if right_open:
        return EXTENDS + booty + (left != EMPTY) * STRANDED
    if left != EMPTY or right != EMPTY:
        return STRANDED + booty
    return STARTS + booty


def _run_has_bow(cells: list[int], col: int) -> bool:
    """Whether the run of cards ending on ``col`` (with an open right end) starts with a bow."""
    while col > 0 and not IS_BOW[cells[col]] and cells[col - 1] != EMPTY and not IS_STERN[cells[col - 1]]:
        col -= 1
    return IS_BOW[cells[col]]


def _run_has_stern(cells: list[int], col: int) -> bool:
    """Whether the run of cards starting on ``col`` (with an open left end) ends with a stern."""
    last = len(cells) - 1
    while col < last and not IS_STERN[cells[col]] and cells[col + 1] != EMPTY and not IS_BOW[cells[col + 1]]:
        col += 1
    return IS_STERN[cells[col]]


def _shift_value(display: Display, kind: int, action: PlaceShift) -> float:
    anchor = display.rows[action.row][action.col]
    _, left_half, right_half = SET_PIECES[SET_OF[kind]]
    right = action.side is Side.RIGHT
    if (kind == right_half and anchor == left_half and right) or (
        kind == left_half and anchor == right_half and not right
    ):
        return SET_PAIR
    return SET_PIECE
