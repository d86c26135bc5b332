"""Oregon's decision kinds and its five action types, one per kind (rules 4.2-4.6).
``OregonAction`` (``Game.action_type``) is their union; on the wire each is one member of the
``OregonAction`` message's oneof."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.oregon.enums import Building, Card, Deck, Piece


class DecisionKind(enum.IntEnum):
    PLACE_START_TILE = 1
    PLAY = 2
    USE_EXTRA_TURN = 3
    DISCARD_WHEN_STUCK = 4
    DRAW = 5


@dataclass(frozen=True, slots=True)
class PlaceStartTile:
    """PLACE_START_TILE: put the seat's start tile on this space."""

    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Play:
    """PLAY: one complete play. ``cards`` are the cards spent, in canonical order; ``building``
    is None for a farmer."""

    piece: Piece
    building: Building | None
    cards: tuple[Card, ...]
    joker: bool
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class UseExtraTurn:
    """USE_EXTRA_TURN: take the extra play now (True) or not (False)."""

    use: bool


@dataclass(frozen=True, slots=True)
class DiscardWhenStuck:
    """DISCARD_WHEN_STUCK (house rule R20): discard these two cards, in canonical order."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """DRAW: draw the next card from this deck."""

    deck: Deck


OregonAction = PlaceStartTile | Play | UseExtraTurn | DiscardWhenStuck | Draw
