"""Game-independent property checks shared by the tests of every engine.

Random play runs ``property_game_count()`` seeded games per player count: a CI-sized subset by
default, the full 1,000 with ``ARENA_FULL_PROPERTIES=1`` (see README, "Tests").
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator

import pytest

from engine.core import Game, GameOverError, GameState, IllegalActionError

FULL_COUNT = 1000


def property_game_count(default: int = 60) -> int:
    return FULL_COUNT if os.environ.get("ARENA_FULL_PROPERTIES") == "1" else default


StepCheck = Callable[[GameState, GameState | None, int | None], None]


def play_random_game(
    game: Game, players: int, seed: int, on_step: StepCheck | None = None
) -> GameState:
    """Play one game with random legal choices. ``on_step(state, before, index)`` runs on the
    new state (with ``before``/``index`` None for the initial state) so callers can check
    invariants at every decision point. Also checks the contract's universal properties:
    legal lists are never empty while running, and the current seat is valid."""
    state = game.new_game(players, seed)
    rng = random.Random(seed * 7919 + players)
    if on_step:
        on_step(state, None, None)
    guard = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert len(legal) > 0, f"empty legal list at {state.decision_kind}"
        assert state.current_seat is not None and 0 <= state.current_seat < players
        index = rng.randrange(len(legal))
        before = state.clone() if on_step else None
        state.apply_index(index)
        if on_step:
            on_step(state, before, index)
        guard += 1
        assert guard < 1_000_000, "game does not end"
    assert state.current_seat is None
    result = state.result()
    assert len(result.scores) == len(result.ranks) == players
    assert min(result.ranks) == 1
    return state


def random_decision_points(
    game: Game, players: int, seed: int, every: int = 7
) -> Iterator[GameState]:
    """Yield (copies of) every ``every``-th decision point of a random game."""
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over:
        if step % every == 0:
            yield state.clone()
        state.apply_index(rng.randrange(len(state.legal_actions())))
        step += 1
    yield state.clone()


def check_determinism(game: Game, players: int, seed: int) -> None:
    """Same seed and actions give identical full states at every step; replay reproduces all."""
    first = game.new_game(players, seed)
    second = game.new_game(players, seed)
    rng = random.Random(seed)
    digests = [first.digest()]
    assert first.digest() == second.digest()
    while not first.is_over:
        index = rng.randrange(len(first.legal_actions()))
        first.apply_index(index)
        second.apply_index(index)
        assert first.digest() == second.digest()
        digests.append(first.digest())
    replayed = game.new_game(players, seed)
    for step, index in enumerate(first.history):
        assert replayed.digest() == digests[step]
        replayed.apply_index(index)
    assert replayed.digest() == digests[-1]
    assert replayed.result() == first.result()
    logged = game.replay(players, seed, first.history, rules_version=game.rules_version)
    assert logged.result() == first.result()


def check_clone_independence(game: Game, players: int, seed: int) -> None:
    for state in random_decision_points(game, players, seed, every=5):
        if state.is_over:
            continue
        before = state.digest()
        copy = state.clone()
        assert copy.digest() == before
        rng = random.Random(seed)
        while not copy.is_over:
            copy.apply_index(rng.randrange(len(copy.legal_actions())))
        assert state.digest() == before, "acting on a clone changed the original"


def check_views_survive_resampling(game: Game, players: int, seed: int, every: int = 5) -> None:
    """The leak test: for every seat, a state resampled from that seat's view gives the seat the
    byte-identical view, and the same legal actions when it is that seat's decision."""
    rng = random.Random(seed)
    for state in random_decision_points(game, players, seed, every=every):
        for seat in range(players):
            view = state.view(seat)
            for _ in range(2):
                sampled = game.sample_state(view, rng)
                assert repr(sampled.view(seat)) == repr(view), (
                    f"seat {seat}'s view changed when hidden information was resampled"
                )
                if not state.is_over and state.current_seat == seat:
                    assert repr(sampled.legal_actions()) == repr(state.legal_actions())


def check_illegal_actions_rejected(game: Game, players: int, seed: int) -> None:
    for state in random_decision_points(game, players, seed, every=11):
        before = state.digest()
        if state.is_over:
            with pytest.raises(GameOverError):
                state.apply_index(0)
        else:
            n = len(state.legal_actions())
            for bad in (n, -1, n + 5):
                with pytest.raises(IllegalActionError):
                    state.apply_index(bad)
            with pytest.raises(IllegalActionError):
                state.apply(object())
        assert state.digest() == before, "a rejected action changed the state"
