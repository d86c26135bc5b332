"""The search bot's algorithm (sample_bots/search-python/search.py), in-process."""

import dataclasses
import importlib
import random
from typing import Any

import pytest
import search
from settings import search_settings

from engine import game_names, get_game
from engine.core import Game, GameState, Result
from tests.engine.harness import random_decision_points


@pytest.mark.parametrize("name", game_names())
def test_choice_depends_only_on_the_view_and_the_seed(name):
    """Resampling everything the seat cannot see leaves its view, and so its choice, unchanged:
    the search reads the hidden state only through its own samples."""
    game = get_game(name)
    settings = search_settings(name)
    checked = 0
    for state in random_decision_points(game, 2, seed=21, every=9):
        if state.is_over or len(state.legal_actions()) == 1:
            continue
        seat = state.current_seat
        view = state.view(seat)
        resampled_view = game.sample_state(view, random.Random(checked)).view(seat)
        assert repr(resampled_view) == repr(view)
        picks = [
            search.choose(game, v, random.Random(5), iterations=48, budget_s=30.0, **settings)
            for v in (view, resampled_view)
        ]
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
    pick = search.choose(
        game,
        PickView(0),
        random.Random(1),
        iterations=40,
        budget_s=30.0,
        prior=weak_prior,
        rollout=lambda state, rng: 4,
    )  # candidates: 0 and 4
    assert pick == 4


def test_the_prior_stands_when_no_candidate_beats_it():
    game = PickGame()
    pick = search.choose(
        game,
        PickView(0),
        random.Random(1),
        iterations=40,
        budget_s=30.0,
        prior=lambda view, actions, rng: 4,
        rollout=lambda state, rng: 0,
    )  # candidates: 4 and a worse 0
    assert pick == 4


def test_alike_options_are_searched_once_as_their_first():
    """Picks 3 and 4 are alike to 2 (and 1 to 0): the prior's pick 4 is searched as 2, and no
    other member of a group becomes a candidate."""
    groups = [0, 0, 2, 2, 2]
    roots = search.candidates(
        PickGame(),
        PickView(0),
        range(5),
        4,
        prior=lambda view, actions, rng: 4,
        ranking=None,
        rollout=lambda state, rng: 0,
        rng=random.Random(1),
        alike=lambda view, actions: groups,
    )
    assert roots == [2, 0]


class NoisyPickState(PickState):
    """Seat 0's pick k is worth ``WORTH[k]`` plus noise that differs between picks on the same
    sample, so common random numbers cannot cancel it."""

    WORTH = (0.0, 0.0, 1.0)

    def __init__(self, luck: int = 0) -> None:
        super().__init__()
        self.luck = luck

    def legal_actions(self) -> list[int]:
        return list(range(len(self.WORTH)))

    def worth(self) -> float:
        noise = random.Random(self.luck * 10 + self.pick).gauss(0.0, 1.0)
        return self.WORTH[self.pick] + noise

    def clone(self) -> "NoisyPickState":
        copy = NoisyPickState(self.luck)
        copy.pick = self.pick
        return copy


class NoisyPickGame(PickGame):
    def sample_state(self, view: PickView, rng: random.Random) -> NoisyPickState:
        return NoisyPickState(rng.randrange(10**9))


NOISY_PLAYOUT = search.Playout(lambda state, rng: 0, evaluate=lambda state, seat: state.worth())


def noisy_pick(prior_pick: int, other: int, seed: int, z: float = 2.0) -> int:
    """The search's choice between the prior's pick and one ``other`` candidate."""
    return search.choose(
        NoisyPickGame(),
        PickView(0),
        random.Random(seed),
        iterations=300,
        budget_s=30.0,
        prior=lambda view, actions, rng: prior_pick,
        ranking=lambda view, actions, rng, k: [other],
        playout=NOISY_PLAYOUT,
        width=2,
        z=z,
    )


def test_the_prior_stands_against_an_alternative_that_is_better_only_by_noise():
    """Picks 0 and 1 are worth the same, so the sample means favour the alternative on about half
    of the seeds (a plain best-mean rule would switch that often); the significance test lets
    chance overrule the prior on a few percent of them at most."""
    overruled = sum(noisy_pick(0, 1, seed) == 1 for seed in range(40))
    overruled += sum(noisy_pick(1, 0, seed) == 0 for seed in range(40))
    assert overruled <= 3


def test_a_clearly_better_alternative_replaces_the_prior():
    assert [noisy_pick(0, 2, seed) for seed in range(40)] == [2] * 40


def test_a_cut_off_playout_stops_when_the_seat_starts_its_next_turn():
    """Seats alternate one decision each; with ``turns=1`` the playout evaluates the position
    when the searching seat is about to move again, after each opponent has moved once."""

    class Alternating:
        def __init__(self) -> None:
            self.moves: list[int] = []

        current_seat = property(lambda self: len(self.moves) % 3)
        is_over = property(lambda self: len(self.moves) >= 30)

        def apply_index(self, index: int) -> None:
            self.moves.append(self.current_seat)

    for turns, moves in ((1, [0, 1, 2]), (2, [0, 1, 2, 0, 1, 2])):
        played = Alternating()
        played.apply_index(0)  # the searching seat 0 has played its candidate
        search.Playout(lambda s, rng: 0, evaluate=lambda s, seat: 0.0, turns=turns).value(
            played, 0, random.Random(0)
        )
        assert played.moves == moves


def test_utility_ranks_wins_above_losses_and_grades_margins():
    win_big = search.utility(Result((90.0, 10.0), (1, 2)), 0)
    win_small = search.utility(Result((51.0, 50.0), (1, 2)), 0)
    loss = search.utility(Result((49.0, 50.0), (2, 1)), 0)
    assert win_big > win_small > 0.5 > loss


@pytest.mark.parametrize("name", ["oregon", "ogallala"])
def test_ranking_and_position_value_of_the_cut_off_games(name):
    """The ranking proposes distinct legal options; in 2-player games the static evaluation is
    zero-sum (each seat's worth is its lead over the other)."""
    strategy = importlib.import_module(f"heuristics.{name}")
    checked = 0
    for state in random_decision_points(get_game(name), 2, seed=4, every=5):
        assert strategy.position_value(state, 0) == -strategy.position_value(state, 1)
        if state.is_over:
            continue
        actions = state.legal_actions()
        ranked = strategy.ranking(state.view(state.current_seat), actions, random.Random(0), 4)
        assert len(ranked) == min(4, len(actions)) == len(set(ranked))
        assert all(0 <= index < len(actions) for index in ranked)
        checked += 1
    assert checked >= 5
