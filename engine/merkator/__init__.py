"""Merkator (Uwe Rosenberg, 2010): the trading game for 2-4 players, as specified in
shared/rules/merkator.md. The registry reads ``GAME``."""

from engine.merkator.game import MerkatorGame
from engine.merkator.state import MerkatorState

GAME = MerkatorGame()
MerkatorState.game = GAME

__all__ = ["GAME", "MerkatorGame", "MerkatorState"]
