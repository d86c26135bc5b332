"""Ogallala's entry in the engine contract: metadata and factories. ``GAME`` is the one instance."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Game, OptionValue
from engine.ogallala.actions import OgallalaAction
from engine.ogallala.data import DATA
from engine.ogallala.events import OgallalaEvent
from engine.ogallala.sampling import sample_state
from engine.ogallala.state import OgallalaState
from engine.ogallala.views import OgallalaView


class OgallalaGame(Game):
    name: ClassVar[str] = "ogallala"
    title: ClassVar[str] = "Ogallala"
    min_players: ClassVar[int] = DATA["players"]["min"]
    max_players: ClassVar[int] = DATA["players"]["max"]
    rules_version: ClassVar[str] = "ogallala-1"
    view_type: ClassVar[type] = OgallalaView
    action_type: ClassVar[Any] = OgallalaAction
    event_type: ClassVar[Any] = OgallalaEvent
    running_score_label: ClassVar[str] = "points of complete boats"

    def new_game(
        self, num_players: int, seed: int, options: Mapping[str, OptionValue] | None = None
    ) -> OgallalaState:
        return OgallalaState.new(num_players, seed, self.check_setup(num_players, options))

    def running_scores(self, view: OgallalaView) -> list[float]:
        # What each display would score if the game ended now.
        return [float(display.score) for display in view.displays]

    def sample_state(self, view: OgallalaView, rng: random.Random) -> OgallalaState:
        return sample_state(view, rng)


GAME = OgallalaGame()
OgallalaState.game = GAME
