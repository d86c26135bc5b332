"""Merkator (Uwe Rosenberg, 2010): the trading game for 2-4 players, as specified by
docs/rules/merkator.md.

``GAME`` is the engine's entry for the registry; README.md in this package lists the modules."""

from engine.merkator.actions import DecisionKind, MerkatorAction
from engine.merkator.events import MerkatorEvent
from engine.merkator.game import GAME, MerkatorGame
from engine.merkator.state import MerkatorState
from engine.merkator.views import MerkatorView

__all__ = [
    "GAME",
    "DecisionKind",
    "MerkatorAction",
    "MerkatorEvent",
    "MerkatorGame",
    "MerkatorState",
    "MerkatorView",
]
