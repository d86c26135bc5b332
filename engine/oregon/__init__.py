"""Oregon (Åse & Henrik Berg, 2007) for 2-4 players, as specified by docs/rules/oregon.md.

``GAME`` is the engine's entry for the registry; README.md in this package lists the modules."""

from engine.oregon.actions import DecisionKind, OregonAction
from engine.oregon.events import OregonEvent
from engine.oregon.game import GAME, OregonGame
from engine.oregon.state import OregonState
from engine.oregon.views import OregonView

__all__ = [
    "GAME",
    "DecisionKind",
    "OregonAction",
    "OregonEvent",
    "OregonGame",
    "OregonState",
    "OregonView",
]
