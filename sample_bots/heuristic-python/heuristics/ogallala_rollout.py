"""Fast Ogallala policy for playouts. It reads the full state and places cards by the same row
evaluation as the heuristic bot (``ogallala_value``), but scores only the row a card lands in and
skips everything the bot weighs on top (attacks a completion allows, the end of the game, stack
contents): a playout costs a small multiple of a random one while it still builds boats and
declares the end when ahead.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from engine.ogallala.actions import (
    Attack,
    DecisionKind,
    Discard,
    OgallalaAction,
    PlaceCell,
    Side,
    SinkBoat,
    Stop,
)
from engine.ogallala.data import ARCHER, LASSO, MAX_COLS
from engine.ogallala.display import Display
from engine.ogallala.scoring import display_score
from engine.ogallala.state import OgallalaState
from heuristics.ogallala_value import DRAW_GAIN, display_value, placement_gain, row_values

_PLACING = (DecisionKind.PLACE_CARD, DecisionKind.PLACE_STOLEN, DecisionKind.PLACE_CAPTURED)
# _HORIZONTAL_NEIGHBOURS[col + 1]: bit mask of the columns left and right of ``col`` (-1..MAX_COLS).
_HORIZONTAL_NEIGHBOURS = tuple(
    ((1 << (col - 1)) if col > 0 else 0) | (1 << (col + 1)) for col in range(-1, MAX_COLS + 1)
)


def rollout(state: OgallalaState, rng: random.Random) -> int:
    """Index of the action the fast policy picks in ``state`` (a full OgallalaState)."""
    legal = state.legal_actions()
    decision = state.decision
    if decision in _PLACING:
        goes_on = (
            decision is DecisionKind.PLACE_CARD
            and not state.duplicate
            and state.card not in (LASSO, ARCHER)
        )
        return _place(state.displays[state.active], state.card, legal, goes_on)
    if decision is DecisionKind.CHOOSE_STACK:  # always draw on (the axe is rare)
        return rng.randrange(len(legal) - (type(legal[-1]) is Stop))
    if decision is DecisionKind.ATTACK:  # the longest segment: most cards, usually most worth
        return max(range(len(legal)), key=lambda i: _attacked_length(state, legal[i]))
    if decision is DecisionKind.AXE_BOAT:  # sink the shortest boat
        own = state.displays[state.active]
        return min(range(len(legal)), key=lambda i: _boat_length(own, legal[i]))
    if decision is DecisionKind.DECLARE_END:
        scores = [display_score(display) for display in state.displays]
        mine = scores.pop(state.active)
        return int(mine > max(scores))  # legal is (Declare(False), Declare(True))
    return rng.randrange(len(legal))  # lasso and archer targets


def _attacked_length(state: OgallalaState, action: OgallalaAction) -> int:
    if type(action) is not Attack:
        return 0
    _, first, last = state.displays[action.seat].segment_at(action.row, action.col)
    return last - first + 1


def _boat_length(display: Display, action: SinkBoat) -> int:
    _, first, last = display.segment_at(action.row, action.col)
    return last - first + 1


def promising(
    display: Display, legal: Sequence[OgallalaAction]
) -> Iterator[tuple[int, OgallalaAction]]:
    """(index, action) of the placements worth weighing: every shift and Discard, but no cell that
    touches its row's cards only diagonally (a stray fragment), and one cell per empty or new row
    (a lone card is worth the same anywhere in it)."""
    empty_rows_tried = set()
    for index, action in enumerate(legal):
        if type(action) is PlaceCell:
            row = action.row
            occupied = display.occ[row] if 0 <= row < display.height else 0
            if not occupied:
                if row in empty_rows_tried:
                    continue
                empty_rows_tried.add(row)
            elif not occupied & _HORIZONTAL_NEIGHBOURS[action.col + 1]:
                continue
        yield index, action


def _place(display: Display, kind: int, legal: Sequence[OgallalaAction], goes_on: bool) -> int:
    """The placement that adds most to the display, or Discard (worth 0) when none adds value."""
    before = row_values(display)
    total = sum(before)
    best_index, best_value = 0, float("-inf")
    for index, action in promising(display, legal):
        if type(action) is Discard:
            value = 0.0
        elif type(action) is PlaceCell:
            after = display.copy()
            row, col = after.place(action.row, action.col, kind)
            value = placement_gain(before, display.width, after, row)
            if goes_on and not after.is_complete(after.segment_at(row, col)):
                value += DRAW_GAIN
        else:
            after = display.copy()
            after.insert(action.row, action.col, action.side is Side.RIGHT, kind)
            value = display_value(after) - total + goes_on * DRAW_GAIN
        if value > best_value:
            best_index, best_value = index, value
    return best_index
