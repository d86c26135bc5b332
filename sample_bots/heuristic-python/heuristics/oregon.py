"""Oregon strategy: score every option by what it earns now and what it sets up.

``choose`` rebuilds a full state from the seat's view with the engine's sampler (hidden cards and
tiles are drawn at random and never read: only the board, tokens, stacks and the seat's own hand
and tiles are used) and ranks the options with ``oregon_plays.best_play``. ``rollout`` is the
cheap greedy version for the search bot's playouts; ``ranking`` and ``position_value`` give the
search bot its candidates and the static evaluation where its playouts stop.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.oregon import GAME, data
from engine.oregon.actions import DecisionKind, DiscardWhenStuck, Draw, PlaceStartTile
from engine.oregon.enums import Deck
from engine.oregon.scoring import final_total
from engine.oregon.state import OregonState
from engine.oregon.views import OregonView
from heuristics.oregon_plays import (
    EXTRA_PLAY_THRESHOLD,
    SITE_VALUE,
    best_play,
    best_play_value,
    evaluate_plays,
    greedy_play,
)
from heuristics.oregon_scoring import EXTRA_TURN_VALUE, JOKER_VALUE

_S = data.NUM_SYMBOLS
_NO, _YES = 0, 1  # USE_EXTRA_TURN options: False, True
# Start tile: weight of a free neighbour we cannot reach / reach with the joker / with a card pair.
REACH_WEIGHT = (0.2, 0.5, 1.0)


def choose(view: OregonView, actions: Sequence, rng: random.Random) -> int:
    state = GAME.sample_state(view, rng)
    kind = view.decision
    if kind is DecisionKind.PLAY:
        return best_play(state, rng)
    if kind is DecisionKind.USE_EXTRA_TURN:
        return _YES if _extra_play_pays(state) else _NO
    if kind is DecisionKind.DRAW:
        return _deck_index(actions, preferred_deck(state))
    if kind is DecisionKind.DISCARD_WHEN_STUCK:
        return discard_index(state, actions)
    return start_tile_index(state, actions)


def ranking(view: OregonView, actions: Sequence, rng: random.Random, k: int) -> list[int]:
    """The ``k`` options the heuristic values most, best first (the search bot's candidates)."""
    state = GAME.sample_state(view, rng)
    kind = view.decision
    if kind is DecisionKind.PLAY:
        scored = sorted(evaluate_plays(state), key=lambda pair: (-pair[0], rng.random()))
        return [index for _, index in scored[:k]]
    if kind is DecisionKind.DISCARD_WHEN_STUCK:
        values = [-discard_cost(state, action) for action in actions]
    elif kind is DecisionKind.PLACE_START_TILE:
        values = start_tile_values(state, actions)
    else:  # DRAW and USE_EXTRA_TURN have at most 3 options: the search weighs them all
        values = [0.0] * len(actions)
    return sorted(range(len(actions)), key=lambda i: -values[i])[:k]


def position_value(state: OregonState, seat: int) -> float:
    """The search bot's static evaluation: the seat's points (coal and gold included) and active
    tokens, minus the best opponent's. Tokens are worth nothing once the game is over."""
    tokens = 0.0 if state.is_over else 1.0
    worth = [
        final_total(state, s)
        + tokens * (JOKER_VALUE * state.joker[s] + EXTRA_TURN_VALUE * state.extra[s])
        for s in range(state.num_players)
    ]
    mine = worth.pop(seat)
    return mine - max(worth)


def rollout(state: OregonState, rng: random.Random) -> int:
    phase = state.phase
    if phase is DecisionKind.PLAY:
        return greedy_play(state, rng)
    if phase is DecisionKind.USE_EXTRA_TURN:
        return _YES
    if phase is DecisionKind.DRAW:
        return _deck_index(state.legal_actions(), preferred_deck(state))
    if phase is DecisionKind.DISCARD_WHEN_STUCK:
        return discard_index(state, state.legal_actions())
    return start_tile_index(state, state.legal_actions())


def _extra_play_pays(state: OregonState) -> bool:
    """Take the extra play if it earns enough now, or if the game ends this round anyway."""
    after = state.clone()
    after.apply_index(_YES)
    if after.phase is not DecisionKind.PLAY or after.active != state.active:
        return True  # the engine applied the only play itself
    return state.end_triggered or best_play_value(after) >= EXTRA_PLAY_THRESHOLD


def preferred_deck(state: OregonState) -> Deck:
    """Hold a single live building card and fill up with landscape cards: every play needs
    landscape cards, and more of them reach more farmer spaces (measured in self-play: this
    rule wins about 2 games of 3 against keeping two building cards once farmers are out)."""
    a = state.active
    hand = state.hands[a]
    live = any(hand[_S + b] and state.stacks[b] for b in range(data.NUM_BUILDINGS))
    return Deck.LANDSCAPE if live else Deck.BUILDING


def _deck_index(actions: Sequence[Draw], deck: Deck) -> int:
    for i, action in enumerate(actions):
        if action.deck is deck:
            return i
    return 0


def discard_index(state: OregonState, actions: Sequence[DiscardWhenStuck]) -> int:
    """Throw away dead building cards first, then spare copies of a landscape symbol."""
    return min(range(len(actions)), key=lambda i: discard_cost(state, actions[i]))


def discard_cost(state: OregonState, action: DiscardWhenStuck) -> float:
    hand = state.hands[state.active]

    def keep_value(card: int) -> float:
        if card >= _S:
            return 2.0 if state.stacks[card - _S] else -10.0
        return 0.5 if hand[card] >= 2 else 1.0

    return sum(keep_value(c - 1) for c in action.cards)


def start_tile_index(state: OregonState, actions: Sequence[PlaceStartTile]) -> int:
    """The space whose free neighbours our hand can fill with farmers soonest."""
    values = start_tile_values(state, actions)
    return max(range(len(actions)), key=values.__getitem__)


def start_tile_values(state: OregonState, actions: Sequence[PlaceStartTile]) -> list[float]:
    a = state.active
    per_farmer = SITE_VALUE[state.start_tile[a]]
    by_pair = farmer_reach(state.hands[a], joker=False)
    by_joker = farmer_reach(state.hands[a], joker=state.joker[a])

    def value(action: PlaceStartTile) -> float:
        sp = data.space(action.row, action.col)
        free = data.NEIGHBOUR_MASK[sp] & state.free & data.FARMER_LEGAL
        pair = (free & by_pair).bit_count()
        joker = (free & by_joker).bit_count() - pair
        rest = free.bit_count() - pair - joker
        return per_farmer * (
            REACH_WEIGHT[2] * pair + REACH_WEIGHT[1] * joker + REACH_WEIGHT[0] * rest
        )

    return [value(action) for action in actions]


def farmer_reach(hand: list[int], joker: bool) -> int:
    """Spaces a farmer can reach with the landscape cards of ``hand`` (and the joker)."""
    lands = [x for x in range(_S) if hand[x]]
    reach = 0
    for i, x in enumerate(lands):
        if joker:
            reach |= data.FARMER_JOKER_TARGETS[x]
        for y in lands[i:]:
            if y != x or hand[x] >= 2:
                reach |= data.FARMER_PAIR_TARGETS[x][y]
    return reach
