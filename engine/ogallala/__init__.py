"""Ogallala (Amigo 2002 card game) for 2-5 players, as specified in shared/rules/ogallala.md.

Modules: ``cards`` (deck data), ``display`` (the floating frame), ``placement`` (legal placements),
``scoring``, ``actions`` and ``views`` (wire types), ``state`` (rules of play), ``sampling``
(states from a view), ``render`` (terminal text) and ``game`` (the contract's Game object).
"""

from engine.ogallala.game import GAME, Ogallala

__all__ = ["GAME", "Ogallala"]
