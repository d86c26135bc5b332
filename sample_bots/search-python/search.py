"""Determinized Monte Carlo search over any arena game (game-independent).

The bot knows only its seat's view. Each round of the search draws one full state consistent with
that view through the engine's own sampler (``Game.sample_state``), so the search never sees the
referee's true hidden state, and plays every candidate action out on that same sample with the
same playout randomness (common random numbers): candidates are compared on identical deals and
identical futures, so the per-sample utility differences between two candidates are paired and
most of the luck cancels out of them (perfect-information Monte Carlo, a simple, robust form of
information-set search).

The search improves on a prior (the heuristic bot's pick) and never trades it for noise: an
alternative replaces the prior's pick only when its mean paired difference over the prior exceeds
``z`` standard errors, and candidates that are clearly no better than the prior stop receiving
playouts, so the budget goes to the promising ones.

Some decisions have hundreds of options (an Oregon PLAY can have 300), far more than the playouts
a decision can afford, so the search considers at most ``width`` candidates: the prior's pick and
the next best of the strategy's ranking (or, without a ranking, the playout policy's picks on a
few samples).

Options the seat cannot tell apart (an Ogallala seat's draws from two stacks that share the unseen
cards at random) are searched once: a strategy's ``alike`` maps every option to one representative.

A playout either runs to the end of the game (utility of the result) or, with a static
``evaluate``, stops once the searching seat has started ``turns`` more turns and values the
position there: shorter playouts with a stronger policy, many more samples in the same time.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Game, GameState, Result

Policy = Callable[[GameState, random.Random], int]
Prior = Callable[[Any, Sequence[Any], random.Random], int]  # (view, legal actions, rng) -> index
# (view, legal actions, rng, k) -> up to k option indices, best first
Ranking = Callable[[Any, Sequence[Any], random.Random, int], list[int]]
Evaluation = Callable[[GameState, int], float]  # a seat's worth of a position (ended or not)
# (view, legal actions) -> for every option, the index of the option it is alike to (itself if
# it is the first of its kind)
Alike = Callable[[Any, Sequence[Any]], list[int]]

MIN_SAMPLES = 8  # paired samples before an alternative may be dropped or chosen


def random_rollout(state: GameState, rng: random.Random) -> int:
    return rng.randrange(len(state.legal_actions()))


def utility(result: Result, seat: int) -> float:
    """Half the share of opponents beaten (ties count half), half the relative score margin over
    the best opponent: both in [0, 1]. The margin term grades wins and losses, which makes
    candidates distinguishable with fewer playouts than win/loss alone."""
    others = [s for s in range(len(result.ranks)) if s != seat]
    mine = result.ranks[seat]
    beaten = sum(
        1.0 if mine < result.ranks[o] else 0.5 if mine == result.ranks[o] else 0.0 for o in others
    ) / len(others)
    best_other = max(result.scores[o] for o in others)
    margin = (result.scores[seat] - best_other) / (abs(result.scores[seat]) + abs(best_other) + 1)
    return 0.5 * beaten + 0.25 * (1.0 + margin)


@dataclass(frozen=True, slots=True)
class Playout:
    """How a candidate is played out on a sample: ``policy`` moves for every seat; with
    ``evaluate`` the playout stops when the searching seat starts its ``turns``-th turn after
    this decision (or at the end) and returns ``evaluate(state, seat)``; without, it runs to the
    end and returns ``utility``."""

    policy: Policy
    evaluate: Evaluation | None = None
    turns: int = 1

    def value(self, state: GameState, seat: int, rng: random.Random) -> float:
        if self.evaluate is None:
            while not state.is_over:
                state.apply_index(self.policy(state, rng))
            return utility(state.result(), seat)
        turns_started = 0
        mover = seat
        while not state.is_over:
            current = state.current_seat
            if current == seat and mover != seat:
                turns_started += 1
                if turns_started == self.turns:
                    break
            mover = current
            state.apply_index(self.policy(state, rng))
        return self.evaluate(state, seat)


def candidates(
    game: Game,
    view: Any,
    actions: Sequence[Any],
    width: int,
    prior: Prior,
    ranking: Ranking | None,
    rollout: Policy,
    rng: random.Random,
    alike: Alike | None = None,
) -> list[int]:
    """At most ``width`` root actions worth searching, the prior's pick first, one per group of
    ``alike`` options. Options neither the ranking nor the playout policy would consider are never
    played out: with a few hundred playouts, spreading them over hundreds of options only adds
    noise."""
    first_alike = alike(view, actions) if alike else range(len(actions))
    distinct = [i for i in range(len(actions)) if first_alike[i] == i]
    chosen = [first_alike[prior(view, actions, rng)]]
    if len(distinct) <= width:
        return chosen + [i for i in distinct if i != chosen[0]]
    if ranking is not None:
        picks = ranking(view, actions, rng, width)
    else:
        picks = [rollout(game.sample_state(view, rng), rng) for _ in range(2 * width)]
    for pick in picks:
        if len(chosen) >= width:
            break
        if first_alike[pick] not in chosen:
            chosen.append(first_alike[pick])
    return chosen


class PairedArm:
    """Running mean and variance of one alternative's utility minus the prior's, sample by
    sample (Welford), for the significance test."""

    __slots__ = ("count", "mean", "squares")

    def __init__(self) -> None:
        self.count, self.mean, self.squares = 0, 0.0, 0.0

    def add(self, difference: float) -> None:
        self.count += 1
        delta = difference - self.mean
        self.mean += delta / self.count
        self.squares += delta * (difference - self.mean)

    def standard_error(self) -> float:
        if self.count < 2:
            return math.inf
        return math.sqrt(self.squares / (self.count - 1) / self.count)

    def clearly_better(self, z: float) -> bool:
        return self.count >= MIN_SAMPLES and self.mean > z * self.standard_error()

    def clearly_not_better(self, z: float) -> bool:
        """Its upper bound is at or below the prior: more playouts are unlikely to promote it."""
        return self.count >= MIN_SAMPLES and self.mean + z * self.standard_error() <= 0.0


def choose(
    game: Game,
    view: Any,
    rng: random.Random,
    *,
    iterations: int,
    budget_s: float,
    prior: Prior,
    rollout: Policy = random_rollout,
    ranking: Ranking | None = None,
    alike: Alike | None = None,
    playout: Playout | None = None,
    width: int = 4,
    z: float = 2.0,
) -> int:
    """Index of the action to play: the prior's pick unless an alternative is clearly better
    (mean paired difference > ``z`` standard errors) after about ``iterations`` playouts in all,
    or fewer if ``budget_s`` seconds run out first (the hard cap that keeps the bot in time).
    Playouts follow ``playout`` (default: ``rollout`` to the end of the game)."""
    deadline = time.perf_counter() + budget_s
    playout = playout or Playout(rollout)
    # Decisions with a single option never reach a bot (the engine applies them), so there is
    # always a choice to make.
    actions = game.sample_state(view, rng).legal_actions()
    roots = candidates(game, view, actions, width, prior, ranking, rollout, rng, alike)
    arms = {arm: PairedArm() for arm in range(1, len(roots))}
    playouts = 0
    while arms and playouts < iterations and time.perf_counter() < deadline:
        sample = game.sample_state(view, rng)
        future = rng.getrandbits(64)
        values = {}
        for arm in (0, *arms):
            state = sample.clone()
            state.apply_index(roots[arm])
            values[arm] = playout.value(state, view.seat, random.Random(future))
        playouts += len(values)
        for arm, stats in list(arms.items()):
            stats.add(values[arm] - values[0])
            if stats.clearly_not_better(z):
                del arms[arm]
    promoted = [arm for arm, stats in arms.items() if stats.clearly_better(z)]
    if not promoted:
        return roots[0]
    return roots[max(promoted, key=lambda arm: arms[arm].mean)]
