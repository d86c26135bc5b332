"""Determinized Monte Carlo search over any arena game (game-independent).

The bot knows only its seat's view. Each round of the search draws one full state consistent with
that view through the engine's own sampler (``Game.sample_state``), so the search never sees the
referee's true hidden state, and plays every candidate action out on that same sample with the
same rollout randomness (common random numbers): candidates are compared on identical deals and
identical futures, which removes most of the luck from the comparison and lets a few dozen
samples separate them (perfect-information Monte Carlo, a simple, robust form of information-set
search).

Some decisions have hundreds of options (an Oregon PLAY can have 300), far more than the playouts
a decision can afford, so the search considers at most ``width`` candidates: the prior's pick (the
heuristic bot's choice) and the rollout policy's picks on a few samples.
"""

from __future__ import annotations

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
    """Half the share of opponents beaten (ties count half), half the relative score margin over
    the best opponent: both in [0, 1]. The margin term grades wins and losses, which makes
    candidates distinguishable with fewer playouts than win/loss alone."""
    others = [s for s in range(len(result.ranks)) if s != seat]
    mine = result.ranks[seat]
    beaten = sum(1.0 if mine < result.ranks[o] else 0.5 if mine == result.ranks[o] else 0.0
                 for o in others) / len(others)
    best_other = max(result.scores[o] for o in others)
    margin = (result.scores[seat] - best_other) / (abs(result.scores[seat]) + abs(best_other) + 1)
    return 0.5 * beaten + 0.25 * (1.0 + margin)


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
) -> int:
    """Index of the candidate with the best mean utility after about ``iterations`` playouts in
    all, or fewer if ``budget_s`` seconds run out first (the hard cap that keeps the bot in time).
    Ties go to the earlier candidate, so the prior's pick stands unless something beats it."""
    deadline = time.perf_counter() + budget_s
    # Decisions with a single option never reach a bot (the engine applies them), so there is
    # always a choice to make.
    actions = game.sample_state(view, rng).legal_actions()
    roots = candidates(game, view, actions, width, prior, rollout, rng)
    if len(roots) == 1:
        return roots[0]
    totals = [0.0] * len(roots)
    for _ in range(max(1, iterations // len(roots))):
        sample = game.sample_state(view, rng)
        future = rng.getrandbits(64)
        for arm, action in enumerate(roots):
            state = sample.clone()
            state.apply_index(action)
            playout_rng = random.Random(future)
            while not state.is_over:
                state.apply_index(rollout(state, playout_rng))
            totals[arm] += utility(state.result(), view.seat)
        if time.perf_counter() >= deadline:
            break
    best = max(range(len(roots)), key=lambda arm: (totals[arm], -arm))
    return roots[best]
