"""Ogallala's actions in words, for people watching a game. Coordinates are (row, column) of the
display's normal form at the decision; row or column -1 is a new one above or left of it. The
words depend on the action alone, so they can be given after the action was applied."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.ogallala.actions import (
    Attack,
    Declare,
    Discard,
    Draw,
    NoAttack,
    PlaceCell,
    PlaceShift,
    SinkBoat,
    Stop,
    Target,
)
from engine.ogallala.data import KIND_NAMES, NO_CARD

if TYPE_CHECKING:
    from engine.ogallala.state import OgallalaState


def describe_decision(state: OgallalaState) -> str:
    """The decision's kind and the card it is about (public: it lies face up)."""
    kind = state.decision_kind
    if state.card == NO_CARD or not kind:
        return kind
    return f"{kind} ({KIND_NAMES[state.card].replace('_', ' ')})"


def describe_action(action: Any) -> str:
    if isinstance(action, Draw):
        return f"draw from stack {action.stack}"
    if isinstance(action, Stop):
        return "stop drawing"
    if isinstance(action, PlaceCell):
        return f"place on ({action.row},{action.col})"
    if isinstance(action, PlaceShift):
        return (
            f"insert {action.side.name.lower()} of ({action.row},{action.col}), "
            "shifting that side of the row"
        )
    if isinstance(action, Discard):
        return "discard the card"
    if isinstance(action, Target):
        # The decision kind (LASSO_TARGET or ARCHER_TARGET) says whether it is taken or shot.
        return f"the card on ({action.row},{action.col}) of seat {action.seat}"
    if isinstance(action, SinkBoat):
        return f"sink the own boat whose bow is on ({action.row},{action.col})"
    if isinstance(action, NoAttack):
        return "do not attack"
    if isinstance(action, Attack):
        return f"attack seat {action.seat}'s segment at ({action.row},{action.col})"
    if isinstance(action, Declare):
        return "declare the end of the game" if action.declare else "play on"
    raise TypeError(f"not an Ogallala action: {action!r}")
