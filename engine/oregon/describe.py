"""Oregon's actions in words, for people watching a game ("farmer on (9,7) with settler, joker")."""

from __future__ import annotations

import enum

from engine.oregon.actions import (
    DiscardWhenStuck,
    Draw,
    OregonAction,
    PlaceStartTile,
    Play,
    UseExtraTurn,
)
from engine.oregon.enums import Piece


def _name(member: enum.Enum) -> str:
    return member.name.lower().replace("_", " ")


def describe_action(action: OregonAction) -> str:
    if isinstance(action, Play):
        piece = (
            "farmer"
            if action.piece is Piece.FARMER or action.building is None
            else _name(action.building)
        )
        cards = " + ".join(_name(card) for card in action.cards)
        joker = ", joker" if action.joker else ""
        return f"{piece} on ({action.row},{action.col}) with {cards}{joker}"
    if isinstance(action, PlaceStartTile):
        return f"start tile on ({action.row},{action.col})"
    if isinstance(action, UseExtraTurn):
        return "take the extra play" if action.use else "no extra play"
    if isinstance(action, DiscardWhenStuck):
        return "discard " + " and ".join(_name(card) for card in action.cards)
    if isinstance(action, Draw):
        return f"draw from the {_name(action.deck)} deck"
    raise TypeError(f"not an Oregon action: {action!r}")
