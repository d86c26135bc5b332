"""What a seat sees (ogallala.md section 6), mirrored by ``OgallalaView`` in ogallala.proto.

Everything is public except the order of the cards in the stacks (and how the never-seen cards
split among the original stacks), so all seats get the same view apart from ``seat``. Card kinds
are the data's kind names (e.g. "warrior_3"); coordinates are those of each display's normal form.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.ogallala.cards import FIGHT, IS_TOTEM, KIND_NAMES, NUM_KINDS
from engine.ogallala.display import Display
from engine.ogallala.scoring import boat_points


class Decision(enum.IntEnum):
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
    decision: Decision | None  # None once the game is over
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


def kind_counts(kinds: list[int]) -> tuple[KindCount, ...]:
    """A multiset of kinds, in data order."""
    counts = [0] * NUM_KINDS
    for kind in kinds:
        counts[kind] += 1
    return tuple(KindCount(KIND_NAMES[k], n) for k, n in enumerate(counts) if n)


# Display views by content. A view shows every seat's display and a turn changes at most two of
# them, so most are rebuilt unchanged at every decision the referee encodes or a search samples;
# cleared when it grows past the limit, so memory stays bounded.
_DISPLAY_VIEW_LIMIT = 50_000
_display_views: dict[tuple, DisplayView] = {}


def display_view(seat: int, display: Display) -> DisplayView:
    key = (seat, display.width, *map(tuple, display.rows[: display.height]))
    view = _display_views.get(key)
    if view is None:
        if len(_display_views) >= _DISPLAY_VIEW_LIMIT:
            _display_views.clear()
        view = _display_views[key] = _build_display_view(seat, display)
    return view


def _build_display_view(seat: int, display: Display) -> DisplayView:
    segments = []
    boats = 0
    score = 0
    for segment in display.segments():
        row, first, last = segment
        kinds = display.segment_kinds(segment)
        complete = display.is_complete(segment)
        points = boat_points(kinds) if complete else 0
        boats += complete
        score += points
        segments.append(
            SegmentView(
                row=row,
                col=first,
                length=last - first + 1,
                complete=complete,
                fight=sum(FIGHT[k] for k in kinds),
                protected=any(IS_TOTEM[k] for k in kinds),
                points=points,
            )
        )
    return DisplayView(
        seat=seat,
        height=display.height,
        width=display.width,
        cards=tuple(CardView(r, c, KIND_NAMES[k]) for r, c, k in display.cards()),
        segments=tuple(segments),
        complete_boats=boats,
        score=score,
    )
