"""Ogallala (Amigo 2002 card game) for 2-5 players, as specified by docs/rules/ogallala.md.

``GAME`` is the engine's entry for the registry; README.md in this package lists the modules."""

from engine.ogallala.actions import DecisionKind, OgallalaAction
from engine.ogallala.events import OgallalaEvent
from engine.ogallala.game import GAME, OgallalaGame
from engine.ogallala.state import OgallalaState
from engine.ogallala.views import OgallalaView

__all__ = [
    "GAME",
    "DecisionKind",
    "OgallalaAction",
    "OgallalaEvent",
    "OgallalaGame",
    "OgallalaState",
    "OgallalaView",
]
