"""What a seat sees (ogallala.md section 6), mirrored by ``OgallalaView`` in ogallala.proto.

Everything is public except the order of the cards in the stacks (and how the never-seen cards
split among the original stacks), so all seats get the same view apart from ``seat``. Card kinds
are the data's kind names (e.g. "warrior_3"); coordinates are those of each display's normal form.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.ogallala.actions import DecisionKind


class EndReason(enum.IntEnum):
    """Why the game ended (5.1)."""

    DECLARED = 1
    FIVE_BOATS = 2
    CARDS_EXHAUSTED = 3
    TURN_CAP = 4
    STALL = 5


@dataclass(frozen=True, slots=True)
class Cell:
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class CardView:
    """A card lying on a display."""

    row: int
    col: int
    kind: str


@dataclass(frozen=True, slots=True)
class SegmentView:
    """A segment (4.2), named by its row and leftmost column."""

    row: int
    col: int
    length: int
    complete: bool
    fight: int
    protected: bool  # holds a totem: safe from attacks
    points: int  # card + booty points if complete, else 0


@dataclass(frozen=True, slots=True)
class DisplayView:
    seat: int
    height: int
    width: int
    cards: tuple[CardView, ...]
    segments: tuple[SegmentView, ...]
    complete_boats: int
    score: int  # what the seat would score if the game ended now


@dataclass(frozen=True, slots=True)
class KindCount:
    kind: str
    count: int


@dataclass(frozen=True, slots=True)
class StackView:
    index: int
    size: int
    refilled: bool  # built from the discard pile: its contents are known
    contents: tuple[KindCount, ...]  # a refilled stack's cards (order unknown); empty otherwise


@dataclass(frozen=True, slots=True)
class OgallalaView:
    seat: int
    num_players: int
    turn: int  # turns completed so far (the cap is 600)
    stall_turns: int  # turns in a row in which no card entered or left a display (ends at 60)
    active_seat: int
    decision: DecisionKind | None  # None once the game is over
    card: str  # the card the decision is about ("" for CHOOSE_STACK, DECLARE_END and the end)
    duplicate: bool  # PLACE_CARD: the drawn card's kind already lies in the active display
    draws: int  # cards drawn by the active seat this turn (STOP is offered once it is >= 1)
    completed: bool  # the active seat completed a boat this turn (the end check will run)
    display_changed: bool  # a card entered or left a display this turn (resets stall_turns)
    attack_card: Cell | None  # the attack card's cell on the active display, until ATTACK
    captured: tuple[str, ...]  # captured cards still to place after ``card``, in order
    displays: tuple[DisplayView, ...]  # one per seat, in seat order
    stacks: tuple[StackView, ...]
    unseen: tuple[KindCount, ...]  # the never-shown cards: the original stacks' contents together
    discard: tuple[str, ...]  # the discard pile, oldest first
    end_reason: EndReason | None
