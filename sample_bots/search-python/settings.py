"""What the search needs of each game, taken from the heuristic bot's strategy modules
(``heuristics/<game>.py``): the prior (the heuristic's pick), the ranking that proposes the other
candidates, and how a candidate is played out."""

from __future__ import annotations

import functools
import importlib
from typing import Any

from search import Playout

# Games whose playouts stop once the searching seat has started this many more turns and value
# the position with the strategy's ``position_value``; the others play every game to its end.
# Shorter playouts mean many more samples in the same time. Measured in-process against the
# heuristic (0.5 s cap, 400 playouts): Oregon 8 turns won 68 of 100 games, 4 turns 22 of 40,
# full-length playouts 23 of 40; Ogallala 6 turns 25 of 40, 2 turns 20 of 40.
CUT_OFF_TURNS = {"oregon": 8, "ogallala": 6}


@functools.cache  # the bot asks at every decision; the answer never changes
def search_settings(game_name: str) -> dict[str, Any]:
    """Keyword arguments of ``search.choose`` for ``game_name`` (do not modify the result)."""
    strategy = importlib.import_module(f"heuristics.{game_name}")
    turns = CUT_OFF_TURNS.get(game_name)
    playout = (
        Playout(strategy.rollout, strategy.position_value, turns)
        if turns
        else Playout(strategy.rollout)
    )
    return {
        "prior": strategy.choose,
        "rollout": strategy.rollout,
        "ranking": getattr(strategy, "ranking", None),
        "alike": getattr(strategy, "alike", None),
        "playout": playout,
    }
