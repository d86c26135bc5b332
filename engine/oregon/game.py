"""Oregon's entry in the engine contract: metadata and factories. ``GAME`` is the one instance."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Game, OptionValue
from engine.oregon import data
from engine.oregon.actions import OregonAction
from engine.oregon.events import OregonEvent
from engine.oregon.sampling import sample_state
from engine.oregon.state import OregonState
from engine.oregon.views import OregonView


class OregonGame(Game):
    name: ClassVar[str] = "oregon"
    title: ClassVar[str] = "Oregon"
    min_players: ClassVar[int] = data.MIN_PLAYERS
    max_players: ClassVar[int] = data.MAX_PLAYERS
    rules_version: ClassVar[str] = "oregon-1"
    view_type: ClassVar[type] = OregonView
    action_type: ClassVar[Any] = OregonAction
    event_type: ClassVar[Any] = OregonEvent
    running_score_label: ClassVar[str] = "track points (without coal and gold)"

    def new_game(
        self, num_players: int, seed: int, options: Mapping[str, OptionValue] | None = None
    ) -> OregonState:
        return OregonState.new(num_players, seed, self.check_setup(num_players, options))

    def running_scores(self, view: OregonView) -> list[float]:
        # Track points; the coal and gold tiles' values stay secret until the end.
        return [float(player.score) for player in view.players]

    def sample_state(self, view: OregonView, rng: random.Random) -> OregonState:
        return sample_state(view, rng)


GAME = OregonGame()
OregonState.game = GAME
