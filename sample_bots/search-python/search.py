"""Determinized Monte Carlo search over any arena game (game-independent).

The bot knows only its seat's view. Each iteration draws one full state consistent with that view
through the engine's own sampler (``Game.sample_state``), so the search never sees the referee's
true hidden state; it then picks a root action by UCB1, plays the rest of the game out with a
rollout policy, and scores the outcome from the bot's seat. Statistics are kept per root action
across determinizations (perfect-information Monte Carlo with a UCB root, a simple and robust
form of information-set search).

Some decisions have hundreds of options (an Oregon PLAY can have 300), far more than the few
hundred playouts a decision can afford, so the root considers at most ``width`` candidates: the
prior's pick (the heuristic bot's choice) and the rollout policy's picks on a few samples.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engine.core import Game, GameState, Result

RolloutPolicy = Callable[[GameState, random.Random], int]
Prior = Callable[[Any, Sequence[Any], random.Random], int]  # (view, legal actions, rng) -> index


def random_rollout(state: GameState, rng: random.Random) -> int:
    return rng.randrange(len(state.legal_actions()))


def utility(result: Result, seat: int) -> float:
    """Share of opponents beaten (ties count half), in [0, 1], plus a small score-margin term
    that breaks ties between playouts with the same placing."""
    others = [s for s in range(len(result.ranks)) if s != seat]
    mine = result.ranks[seat]
    beaten = sum(1.0 if mine < result.ranks[o] else 0.5 if mine == result.ranks[o] else 0.0
                 for o in others)
    margin = result.scores[seat] - max(result.scores[o] for o in others)
    return beaten / len(others) + 0.01 * math.tanh(margin / 10.0)


def candidates(game: Game, view: Any, actions: Sequence[Any], width: int, prior: Prior,
               rollout: RolloutPolicy, rng: random.Random) -> list[int]:
    """At most ``width`` root actions worth searching: the prior's pick first, then the playout
    policy's picks on a few samples. Options no policy would consider are never played out:
    with a few hundred playouts, spreading them over hundreds of options only adds noise."""
    chosen = [prior(view, actions, rng)]
    for _ in range(2 * width):
        if len(chosen) >= width:
            break
        pick = rollout(game.sample_state(view, rng), rng)
        if pick not in chosen:
            chosen.append(pick)
    return chosen


def choose(
    game: Game,
    view: Any,
    rng: random.Random,
    *,
    iterations: int,
    budget_s: float,
    prior: Prior,
    rollout: RolloutPolicy = random_rollout,
    width: int = 4,
    exploration: float = 0.7,
) -> int:
    """Index of the root action with the best mean utility after ``iterations`` playouts, or
    fewer if ``budget_s`` seconds run out first (the hard cap that keeps the bot in time)."""
    deadline = time.perf_counter() + budget_s
    actions = game.sample_state(view, rng).legal_actions()
    if len(actions) == 1:
        return 0
    roots = candidates(game, view, actions, width, prior, rollout, rng)
    if len(roots) == 1:
        return roots[0]
    visits = [0] * len(roots)
    totals = [0.0] * len(roots)
    for iteration in range(max(iterations, len(roots))):
        if iteration < len(roots):  # every candidate once before trusting UCB
            arm = iteration
        else:
            log_n = math.log(iteration)
            arm = max(range(len(roots)), key=lambda a: totals[a] / visits[a]
                      + exploration * math.sqrt(log_n / visits[a]))
        state = game.sample_state(view, rng)
        state.apply_index(roots[arm])
        while not state.is_over:
            state.apply_index(rollout(state, rng))
        visits[arm] += 1
        totals[arm] += utility(state.result(), view.seat)
        if time.perf_counter() >= deadline:
            break
    # Ties go to the earlier candidate, so the prior's pick stands unless beaten.
    best = max((a for a in range(len(roots)) if visits[a]),
               key=lambda a: (totals[a] / visits[a], -a))
    return roots[best]
