"""Oregon (Åse & Henrik Berg, 2007) for 2-4 players, as specified by shared/rules/oregon.md.

``GAME`` is the engine's entry for the registry; see README.md in this package."""

from engine.oregon.game import OregonGame
from engine.oregon.state import OregonState

GAME = OregonGame()
OregonState.game = GAME

__all__ = ["GAME", "OregonGame", "OregonState"]
