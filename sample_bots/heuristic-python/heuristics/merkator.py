"""Merkator strategies: ``choose`` for the heuristic bot, ``rollout`` for the search bot.

``choose`` draws one full state consistent with the seat's view (``GAME.sample_state``; only the
view is used), then judges every legal option by a one-decision look-ahead: apply it on a copy,
let the fast policy finish the seat's part of the turn (cube split, spoilage, fulfilments and
trades), and score the position with ``merkator_value.relative_value`` (the seat's value minus the
best opponent's). Three refinements: a sale in the invest step is judged together with the best
purchase it pays for; a trip that may empty a time-board row is judged on several sampled states
(the letter it reveals is hidden); the re-flip choice uses the policy's expected-loss rule over
every letter. ``rollout`` is the fast policy alone (``merkator_policy``), on the state itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.merkator import GAME, data
from engine.merkator.actions import DecisionKind, InvestOption
from engine.merkator.state import MerkatorState
from engine.merkator.views import MerkatorView
from heuristics.merkator_policy import policy
from heuristics.merkator_value import relative_value

# a look-ahead stops at the next decision that starts a new plan: an invest step, a trip, or
# another seat's choice to join
_STOP = (DecisionKind.INVEST.value, DecisionKind.TRAVEL.value)
_JOIN = DecisionKind.JOIN.value
_PURCHASES = (InvestOption.BUY_BONUS, InvestOption.BUY_BUILDING)
MAX_TIME_GAIN = max(data.LOCATION_TIME)  # markers one trip may take from the board
ROW_END_SAMPLES = 3  # sampled states per trip option when the top row may empty


def choose(view: MerkatorView, actions: Sequence[Any], rng: random.Random) -> int:
    if len(actions) == 1:
        return 0
    state = GAME.sample_state(view, rng)
    if view.decision == DecisionKind.SPOILAGE_REFLIP:
        return policy(state, rng)  # weighs every letter the hidden marker may show
    if view.decision == DecisionKind.INVEST:
        scores = [_invest_value(state, i, view.seat) for i in range(len(actions))]
        return max(range(len(actions)), key=scores.__getitem__)
    scores = [0.0] * len(actions)
    for sample in range(_samples(view)):
        if sample:
            state = GAME.sample_state(view, rng)
        for i in range(len(actions)):
            scores[i] += _look_ahead(state, i, view.seat, rng)
    return max(range(len(actions)), key=scores.__getitem__)


def _samples(view: MerkatorView) -> int:
    """How many hidden states to average over: several when a trip may empty the top row of
    the time board, so that the letter it reveals is weighed by its odds, not by one guess."""
    board = view.time_board
    if view.decision == DecisionKind.TRAVEL and board:
        top_row_left = sum(1 for marker in board if marker.row == board[0].row)
        if top_row_left <= MAX_TIME_GAIN:
            return ROW_END_SAMPLES
    return 1


def rollout(state: MerkatorState, rng: random.Random) -> int:
    return policy(state, rng)


def _invest_value(state: MerkatorState, index: int, seat: int, follow_up: bool = True) -> float:
    """The value after an invest option; a sale is judged with the best purchase that may follow
    it, since its coins only pay off in a purchase."""
    after = state.clone()
    after.apply_index(index)
    best = relative_value(after, seat)
    sale = state.legal_actions()[index].option == InvestOption.SELL
    if follow_up and sale and after.stage == DecisionKind.INVEST.value:
        for follow, action in enumerate(after.legal_actions()):
            if action.option in _PURCHASES:
                best = max(best, _invest_value(after, follow, seat, follow_up=False))
    return best


def _look_ahead(state: MerkatorState, index: int, seat: int, rng: random.Random) -> float:
    after = state.clone()
    after.apply_index(index)
    while (
        not after.is_over
        and after.stage not in _STOP
        and not (after.stage == _JOIN and after.deciding != seat)
    ):
        after.apply_index(policy(after, rng))
    return relative_value(after, seat)
