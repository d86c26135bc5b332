"""The Ogallala game object: metadata and factory for the engine contract (engine.core.Game)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.core import Game, OptionValue
from engine.ogallala.actions import Action
from engine.ogallala.cards import DATA
from engine.ogallala.sampling import sample_state
from engine.ogallala.state import OgallalaState
from engine.ogallala.views import OgallalaView


class Ogallala(Game):
    name = "ogallala"
    title = "Ogallala"
    min_players = DATA["players"]["min"]
    max_players = DATA["players"]["max"]
    rules_version = "ogallala-1"
    view_type = OgallalaView
    action_type = Action

    def new_game(
        self, num_players: int, seed: int, options: Mapping[str, OptionValue] | None = None
    ) -> OgallalaState:
        resolved = self.check_setup(num_players, options)
        state = OgallalaState(num_players, seed, resolved, random.Random(seed))
        state.deal()
        return state

    def sample_state(self, view: Any, rng: random.Random) -> OgallalaState:
        return sample_state(view, rng)


GAME = Ogallala()
OgallalaState.game = GAME
