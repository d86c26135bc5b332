"""Determinized Monte Carlo search over any arena game (game-independent).

The bot knows only its seat's view. Each iteration draws one full state consistent with that view
through the engine's own sampler (``Game.sample_state``), so the search never sees the referee's
true hidden state; it then picks a root action by UCB1, plays the rest of the game out with a
rollout policy, and scores the outcome from the bot's seat. Statistics are kept per root action
across determinizations (perfect-information Monte Carlo with a UCB root, a simple and robust
form of information-set search).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Game, GameState, Result

RolloutPolicy = Callable[[GameState, random.Random], int]


def random_rollout(state: GameState, rng: random.Random) -> int:
    return rng.randrange(len(state.legal_actions()))


def utility(result: Result, seat: int) -> float:
    """Share of opponents beaten (ties count half), in [0, 1], plus a small score-margin term
    that breaks ties between rollouts with the same placing."""
    others = [s for s in range(len(result.ranks)) if s != seat]
    mine = result.ranks[seat]
    beaten = sum(1.0 if mine < result.ranks[o] else 0.5 if mine == result.ranks[o] else 0.0
                 for o in others)
    best_other = max(result.scores[o] for o in others)
    margin = result.scores[seat] - best_other
    return beaten / len(others) + 0.01 * math.tanh(margin / 10.0)


def choose(
    game: Game,
    view: Any,
    budget_s: float,
    rng: random.Random,
    rollout: RolloutPolicy = random_rollout,
    exploration: float = 0.7,
    max_iterations: int | None = None,
) -> int:
    """Index of the root action with the best mean utility after ``budget_s`` seconds."""
    deadline = time.perf_counter() + budget_s
    seat = view.seat
    first = game.sample_state(view, rng)
    n_actions = len(first.legal_actions())
    if n_actions == 1:
        return 0
    visits = [0] * n_actions
    totals = [0.0] * n_actions
    iteration = 0
    state = first
    while True:
        # Visit every action once before trusting the UCB formula.
        if iteration < n_actions:
            action = iteration
        else:
            log_n = math.log(iteration)
            action = max(
                range(n_actions),
                key=lambda a: totals[a] / visits[a] + exploration * math.sqrt(log_n / visits[a]),
            )
        state.apply_index(action)
        while not state.is_over:
            state.apply_index(rollout(state, rng))
        visits[action] += 1
        totals[action] += utility(state.result(), seat)
        iteration += 1
        if time.perf_counter() >= deadline or (max_iterations and iteration >= max_iterations):
            break
        state = game.sample_state(view, rng)
    return best_action(visits, totals)


def best_action(visits: Sequence[int], totals: Sequence[float]) -> int:
    return max(
        (a for a in range(len(visits)) if visits[a]),
        key=lambda a: (totals[a] / visits[a], visits[a]),
    )
