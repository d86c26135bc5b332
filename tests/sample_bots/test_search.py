"""The search bot's algorithm (sample_bots/search-python/search.py), in-process."""

import dataclasses
import importlib
import random
from typing import Any

import pytest

import search
from engine import game_names, get_game
from engine.core import Game, GameState, Result
from tests.engine.harness import random_decision_points


@pytest.mark.parametrize("name", game_names())
def test_choice_depends_only_on_the_view_and_the_seed(name):
    """Resampling everything the seat cannot see leaves its view, and so its choice, unchanged:
    the search reads the hidden state only through its own samples."""
    game = get_game(name)
    strategy = importlib.import_module(f"heuristics.{name}")
    checked = 0
    for state in random_decision_points(game, 2, seed=21, every=9):
        if state.is_over or len(state.legal_actions()) == 1:
            continue
        seat = state.current_seat
        view = state.view(seat)
        resampled_view = game.sample_state(view, random.Random(checked)).view(seat)
        assert repr(resampled_view) == repr(view)
        picks = [search.choose(game, v, random.Random(5), iterations=8, budget_s=30.0,
                               prior=strategy.choose, rollout=strategy.rollout)
                 for v in (view, resampled_view)]
        assert picks[0] == picks[1]
        assert 0 <= picks[0] < len(state.legal_actions())
        checked += 1
        if checked == 4:
            break
    assert checked == 4


# A one-decision game: seat 0 picks k in 0..4 and scores k; seat 1 always scores 2.
@dataclasses.dataclass(frozen=True)
class PickView:
    seat: int


class PickState(GameState):
    def __init__(self) -> None:
        self.num_players, self.seed, self.options, self.history = 2, 0, {}, []
        self.pick: int | None = None

    current_seat = property(lambda self: None if self.is_over else 0)
    decision_kind = property(lambda self: "" if self.is_over else "PICK")
    is_over = property(lambda self: self.pick is not None)

    def legal_actions(self) -> list[int]:
        return list(range(5))

    def apply_index(self, index: int) -> None:
        self.pick = index

    def result(self) -> Result:
        scores = (float(self.pick), 2.0)
        return Result(scores, (1, 2) if scores[0] > 2 else (2, 1) if scores[0] < 2 else (1, 1))

    def clone(self) -> "PickState":
        copy = PickState()
        copy.pick = self.pick
        return copy

    def view(self, seat: int) -> PickView:
        return PickView(seat)

    def state_digest(self) -> bytes:
        return repr(self.pick).encode()

    def render(self, seat: int | None = None) -> str:
        return f"pick={self.pick}"


class PickGame(Game):
    name, title, min_players, max_players, rules_version = "pick", "Pick", 2, 2, "pick-1"
    view_type, action_type = PickView, int

    def new_game(self, num_players: int, seed: int, options: Any = None) -> PickState:
        return PickState()

    def sample_state(self, view: PickView, rng: random.Random) -> PickState:
        return PickState()


def test_search_overrules_a_weak_prior_with_what_the_playouts_show():
    game = PickGame()
    weak_prior = lambda view, actions, rng: 0  # noqa: E731
    pick = search.choose(game, PickView(0), random.Random(1), iterations=40, budget_s=30.0,
                         prior=weak_prior, rollout=lambda state, rng: 4)  # candidates: 0 and 4
    assert pick == 4


def test_the_prior_stands_when_no_candidate_beats_it():
    game = PickGame()
    pick = search.choose(game, PickView(0), random.Random(1), iterations=40, budget_s=30.0,
                         prior=lambda view, actions, rng: 4,
                         rollout=lambda state, rng: 0)  # candidates: 4 and a worse 0
    assert pick == 4


def test_utility_ranks_wins_above_losses_and_grades_margins():
    win_big = search.utility(Result((90.0, 10.0), (1, 2)), 0)
    win_small = search.utility(Result((51.0, 50.0), (1, 2)), 0)
    loss = search.utility(Result((49.0, 50.0), (2, 1)), 0)
    assert win_big > win_small > 0.5 > loss
