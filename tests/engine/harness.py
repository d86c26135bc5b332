"""Random play for the tests of every engine (the contract tests in ``test_contract.py`` and each
game's own property tests).

Random play runs ``property_game_count()`` seeded games per player count: a CI-sized subset by
default, the full 1,000 with ``ARENA_FULL_PROPERTIES=1`` (see README, "Tests"). The costlier
whole-game checks run ``deep_check_count()`` games: a few in CI, 100 in the full run.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator

from engine.core import Game, GameState

FULL_COUNT = 1000
DEEP_CHECKS_IN_FULL_RUN = 100


def property_game_count(default: int = 60) -> int:
    return FULL_COUNT if os.environ.get("ARENA_FULL_PROPERTIES") == "1" else default


def deep_check_count(ci_default: int) -> int:
    """Games per player count for the costly whole-game checks (determinism, clones, bad input,
    leak test): ``ci_default`` in CI, 100 in the full run."""
    return min(property_game_count(ci_default), DEEP_CHECKS_IN_FULL_RUN)


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


EventsSeen = Callable[[int, list, GameState], None]


def play_telling_events(game: Game, players: int, seed: int, on_events: EventsSeen) -> GameState:
    """Play a random game as the referee tells it: at each decision, ``on_events(seat, events,
    state)`` with the deciding seat's events since its previous decision; at the end, the same
    for every seat with the events since its last one."""
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    told = [0] * players
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        on_events(seat, state.events_for(seat, told[seat]), state)
        told[seat] = len(state.event_log)
        state.apply_index(rng.randrange(len(state.legal_actions())))
    for seat in range(players):
        on_events(seat, state.events_for(seat, told[seat]), state)
    return state
