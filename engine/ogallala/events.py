"""What happened in an Ogallala game (rules section 6: nothing is private, so every seat sees every
event in full): the event types of ``OgallalaState.event_log``. Card kinds are the data's kind
names, as in the views; coordinates are those of the display at the moment of the action."""

from __future__ import annotations

from dataclasses import dataclass

from engine.ogallala.actions import OgallalaAction
from engine.ogallala.data import KIND_NAMES


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """The active seat's action, chosen or applied by the engine as the only option (R31)."""

    seat: int
    action: OgallalaAction


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """``seat`` drew the top card of stack ``stack`` (0-2): kind ``card``, shown to all (4.4 step
    3). It follows the seat's CHOOSE_STACK action."""

    seat: int
    stack: int
    card: str


@dataclass(frozen=True, slots=True)
class StackRefilled:
    """The refill step (4.6) shuffled the discard pile into empty stack ``stack``: its ``size``
    cards are the pile's contents, in an unknown order."""

    stack: int
    size: int


OgallalaEvent = ActionTaken | CardDrawn | StackRefilled


def drawn(seat: int, stack: int, kind: int) -> CardDrawn:
    return CardDrawn(seat, stack, KIND_NAMES[kind])
