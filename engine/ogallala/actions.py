"""Decision kinds and action types of Ogallala (ogallala.md 4.5); ``OgallalaAction``, the union
of the action types, is mirrored by ``OgallalaAction`` in ogallala.proto.

Coordinates are those of the display's normal form at the moment of the decision (4.1). Marker
actions (Stop, Discard, NoAttack) carry a constant ``True`` field so that every action is a
non-empty protobuf message. Actions are immutable, so the frequent ones are built once here.
They are ``@final`` so that the state's ``type(action) is X`` tests narrow the union for mypy.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import final

from engine.ogallala.data import MAX_COLS, MAX_ROWS, NUM_STACKS


class DecisionKind(enum.IntEnum):
    """The decision kinds of 4.5."""

    CHOOSE_STACK = 1
    PLACE_CARD = 2
    LASSO_TARGET = 3
    PLACE_STOLEN = 4
    ARCHER_TARGET = 5
    AXE_BOAT = 6
    ATTACK = 7
    PLACE_CAPTURED = 8
    DECLARE_END = 9


class Side(enum.IntEnum):
    """Which side of the anchor card a shift opens (4.3)."""

    LEFT = 1
    RIGHT = 2


@final
@dataclass(frozen=True, slots=True)
class Draw:
    """CHOOSE_STACK: draw the top card of stack ``stack`` (0, 1 or 2)."""

    stack: int


@final
@dataclass(frozen=True, slots=True)
class Stop:
    """CHOOSE_STACK: end the turn without drawing (not offered before the turn's first draw)."""

    stop: bool = True


@final
@dataclass(frozen=True, slots=True)
class PlaceCell:
    """PLACE_CARD, PLACE_STOLEN, PLACE_CAPTURED: put the card on cell (row, col). Row -1 / column
    -1 mean a new row above / column left of the display; row h / column w one below / right."""

    row: int
    col: int


@final
@dataclass(frozen=True, slots=True)
class PlaceShift:
    """PLACE_CARD, PLACE_STOLEN, PLACE_CAPTURED: insert a set card next to the anchor (row, col),
    a piece of its set, moving that side of the row one column outward."""

    row: int
    col: int
    side: Side


@final
@dataclass(frozen=True, slots=True)
class Discard:
    """PLACE_CARD, PLACE_CAPTURED: put the card on the discard pile."""

    discard: bool = True


@final
@dataclass(frozen=True, slots=True)
class Target:
    """LASSO_TARGET (take the card) or ARCHER_TARGET (shoot it): the card on (row, col) of
    seat ``seat``'s display."""

    seat: int
    row: int
    col: int


@final
@dataclass(frozen=True, slots=True)
class SinkBoat:
    """AXE_BOAT: sink the own complete boat whose bow lies on (row, col)."""

    row: int
    col: int


@final
@dataclass(frozen=True, slots=True)
class NoAttack:
    """ATTACK: do not attack."""

    none: bool = True


@final
@dataclass(frozen=True, slots=True)
class Attack:
    """ATTACK: attack seat ``seat``'s segment whose leftmost card lies on (row, col)."""

    seat: int
    row: int
    col: int


@final
@dataclass(frozen=True, slots=True)
class Declare:
    """DECLARE_END: ``True`` ends the game now, ``False`` plays on."""

    declare: bool


OgallalaAction = (
    Draw | Stop | PlaceCell | PlaceShift | Discard | Target | SinkBoat | NoAttack | Attack | Declare
)

DRAWS: tuple[Draw, ...] = tuple(Draw(stack) for stack in range(NUM_STACKS))
STOP = Stop()
DISCARD = Discard()
NO_ATTACK = NoAttack()
DECLARE_CHOICES: tuple[Declare, Declare] = (Declare(False), Declare(True))
# CELLS[row + 1][col + 1] is PlaceCell(row, col) for row -1..MAX_ROWS, col -1..MAX_COLS.
CELLS: tuple[tuple[PlaceCell, ...], ...] = tuple(
    tuple(PlaceCell(row, col) for col in range(-1, MAX_COLS + 1)) for row in range(-1, MAX_ROWS + 1)
)
