"""Final scoring of ogallala.md 5.3: card points and booty points of complete boats, and the
result (the highest score wins; equal scores share a rank)."""

from __future__ import annotations

from engine.core import Result, ranks_from_keys
from engine.ogallala.data import (
    BOOTY_VALUE,
    CARD_POINTS,
    LONG_BOAT_CARD_POINTS,
    LONG_BOAT_MIN_CARDS,
    PAIR_MULTIPLIER,
    SET_PIECES,
    TRIPLE_MULTIPLIER,
)
from engine.ogallala.display import Display
from engine.ogallala.views import EndReason


def card_points(kinds: list[int]) -> int:
    per_card = LONG_BOAT_CARD_POINTS if len(kinds) >= LONG_BOAT_MIN_CARDS else CARD_POINTS
    return per_card * len(kinds)


def booty_points(kinds: list[int]) -> int:
    """Booty of one boat (kinds left to right): singles x1, a set's halves in order side by side
    x2, and with the person directly next to that pair all three x3 (R27)."""
    multiplier = [1] * len(kinds)
    for person, left, right in SET_PIECES:
        if left not in kinds or right not in kinds:
            continue
        at_left = kinds.index(left)  # a row holds each kind at most once (R2)
        at_right = kinds.index(right)
        if at_right != at_left + 1:
            continue
        at_person = kinds.index(person) if person in kinds else None
        if at_person is not None and at_person in (at_left - 1, at_right + 1):
            multiplier[at_left] = multiplier[at_right] = multiplier[at_person] = TRIPLE_MULTIPLIER
        else:
            multiplier[at_left] = multiplier[at_right] = PAIR_MULTIPLIER
    return sum(BOOTY_VALUE[kind] * m for kind, m in zip(kinds, multiplier))


def boat_points(kinds: list[int]) -> int:
    return card_points(kinds) + booty_points(kinds)


def display_score(display: Display) -> int:
    """A seat's score: the sum over its complete boats; unfinished boats score nothing."""
    return sum(boat_points(display.segment_kinds(boat)) for boat in display.complete_boats())


def final_result(displays: list[Display], end_reason: EndReason | None) -> Result:
    scores = [display_score(display) for display in displays]
    ending = end_reason.name.lower().replace("_", " ") if end_reason else ""
    return Result(
        scores=tuple(float(score) for score in scores),
        ranks=ranks_from_keys([(score,) for score in scores]),
        details=tuple(f"{_score_details(display)}; game end: {ending}" for display in displays),
    )


def _score_details(display: Display) -> str:
    """E.g. "53 points: boat (0,0) 4+10, boat (1,0) 5+20" (card points + booty points)."""
    boats = []
    for boat in display.complete_boats():
        kinds = display.segment_kinds(boat)
        cards = card_points(kinds)
        boats.append(f"boat ({boat[0]},{boat[1]}) {cards}+{boat_points(kinds) - cards}")
    return f"{display_score(display)} points" + (": " + ", ".join(boats) if boats else "")
