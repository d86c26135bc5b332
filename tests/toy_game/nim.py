"""Nim, a toy game that exists only in the tests (tests/test_adding_a_game.py): what adding a
game takes, shown with the smallest engine that follows the contract of engine/core.py.

Rules: a pile of 10 to 20 stones (the seed decides, a public chance event); the seats take
turns clockwise from seat 0, each taking 1, 2 or 3 stones (never more than are left). Whoever
takes the last stone wins: score 1 and rank 1; every other seat scores 0 and shares rank 2.
Nothing is hidden. A decision with a single option (one stone left) is applied by the engine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import (
    EVERYONE,
    Game,
    GameOverError,
    GameState,
    IllegalActionError,
    OptionValue,
    Result,
    ranks_from_keys,
)

MOST_TAKEN = 3


@dataclass(frozen=True)
class NimView:
    seat: int
    num_players: int
    stones: int  # left in the pile
    taken: tuple[int, ...]  # stones each seat has taken so far


@dataclass(frozen=True)
class Take:
    count: int


@dataclass(frozen=True)
class PileMade:
    stones: int


@dataclass(frozen=True)
class ActionTaken:
    seat: int
    action: Take


NimEvent = PileMade | ActionTaken


class NimState(GameState):
    copied_fields = ("taken",)

    def __init__(self, num_players: int, seed: int, options: Mapping[str, OptionValue]) -> None:
        self.num_players, self.seed, self.options = num_players, seed, dict(options)
        self.rng = random.Random(seed)
        self.history: list[int] = []
        self.event_log: list[Any] = []
        self.stones = 0
        self.taken = [0] * num_players
        self.seat = 0
        self.winner: int | None = None

    @classmethod
    def new(cls, num_players: int, seed: int, options: Mapping[str, OptionValue]) -> NimState:
        state = cls(num_players, seed, options)
        state.stones = state.rng.randint(10, 20)
        state.event_log.append((EVERYONE, PileMade, (state.stones,), None))
        return state

    @property
    def current_seat(self) -> int | None:
        return None if self.is_over else self.seat

    @property
    def decision_kind(self) -> str:
        return "" if self.is_over else "TAKE"

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def legal_actions(self) -> tuple[Take, ...]:
        if self.is_over:
            return ()
        return tuple(Take(count) for count in range(1, min(MOST_TAKEN, self.stones) + 1))

    def apply_index(self, index: int) -> None:
        if self.is_over:
            raise GameOverError("nim: the game is over")
        legal = self.legal_actions()
        if not 0 <= index < len(legal):
            raise IllegalActionError(f"nim: index {index} of {len(legal)} legal actions")
        self.history.append(index)
        self._take(legal[index].count)
        while not self.is_over and len(self.legal_actions()) == 1:
            self._take(1)  # the only option: the engine applies it

    def _take(self, count: int) -> None:
        self.stones -= count
        self.taken[self.seat] += count
        self.event_log.append((EVERYONE, ActionTaken, (self.seat, Take(count)), None))
        if self.stones == 0:
            self.winner = self.seat
        else:
            self.seat = (self.seat + 1) % self.num_players

    def result(self) -> Result:
        if self.winner is None:
            raise GameOverError("nim: the game is not over")
        scores = tuple(1.0 if seat == self.winner else 0.0 for seat in range(self.num_players))
        return Result(scores, ranks_from_keys([(score,) for score in scores]))

    def view(self, seat: int) -> NimView:
        return NimView(seat, self.num_players, self.stones, tuple(self.taken))

    def render(self, seat: int | None = None) -> str:
        return f"{self.stones} stones left; taken {self.taken}"

    def describe_action(self, action: Any) -> str:
        return f"take {action.count}"


class NimGame(Game):
    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 4
    rules_version = "nim-1"
    view_type = NimView
    action_type = Take
    event_type = NimEvent
    running_score_label = "stones taken"

    def new_game(
        self, num_players: int, seed: int, options: Mapping[str, OptionValue] | None = None
    ) -> NimState:
        return NimState.new(num_players, seed, self.check_setup(num_players, options))

    def sample_state(self, view: Any, rng: random.Random) -> NimState:
        state = NimState(view.num_players, rng.getrandbits(63), {})
        state.stones, state.taken, state.seat = view.stones, list(view.taken), view.seat
        return state

    def running_scores(self, view: Any) -> list[float]:
        return [float(taken) for taken in view.taken]


GAME = NimGame()
NimState.game = GAME
