"""Merkator's entry in the engine contract: metadata, options and factories. ``GAME`` is the one
instance."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.core import Game, OptionError, OptionValue
from engine.merkator import data
from engine.merkator.actions import MerkatorAction
from engine.merkator.events import MerkatorEvent
from engine.merkator.sampling import sample_state
from engine.merkator.state import MerkatorState
from engine.merkator.views import MerkatorView


class MerkatorGame(Game):
    name: ClassVar[str] = "merkator"
    title: ClassVar[str] = "Merkator"
    min_players: ClassVar[int] = data.DATA["players"]["min"]
    max_players: ClassVar[int] = data.DATA["players"]["max"]
    rules_version: ClassVar[str] = "merkator-3"
    default_options: ClassVar[Mapping[str, OptionValue]] = data.DEFAULT_OPTIONS
    view_type: ClassVar[type] = MerkatorView
    action_type: ClassVar[Any] = MerkatorAction
    event_type: ClassVar[Any] = MerkatorEvent
    running_score_label: ClassVar[str] = "value of the contracts in hand"

    def check_setup(
        self, num_players: int, options: Mapping[str, OptionValue] | None
    ) -> dict[str, OptionValue]:
        # Here, not in new_game: the arena checks a tournament's setup before it stores it.
        resolved = super().check_setup(num_players, options)
        if int(resolved["max_rounds"]) < 1:
            raise OptionError("merkator: option 'max_rounds' must be at least 1")
        return resolved

    def new_game(
        self, num_players: int, seed: int, options: Mapping[str, OptionValue] | None = None
    ) -> MerkatorState:
        return MerkatorState.new(num_players, seed, self.check_setup(num_players, options))

    def running_scores(self, view: MerkatorView) -> list[float]:
        # The value of the contracts each player holds.
        return [
            float(sum(held.contract.value for held in player.contracts)) for player in view.players
        ]

    def sample_state(self, view: MerkatorView, rng: random.Random) -> MerkatorState:
        return sample_state(view, rng)


GAME = MerkatorGame()
MerkatorState.game = GAME
