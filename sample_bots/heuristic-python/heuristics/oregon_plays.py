"""Ranking of Oregon PLAY options (rules 4.3) without building the action objects.

The engine's option list is a few segments (one per card combination) of target spaces; an
option's index is the segment's offset plus the space's rank in the segment's mask. We score
(segment, space) pairs directly with ``oregon_scoring`` and turn the best pair into its index.

Two depths share the same immediate scoring:
- ``best_play``: every option, plus positional terms (what a farmer sets up for later buildings
  and groups, what a building leaves for farmers we can reach next) and end-of-game timing;
- ``greedy_play``: for playouts, only the spaces where something scores now (around buildings,
  next to own farmers), falling back to a random option when nothing scores.
"""

from __future__ import annotations

import random

from engine.oregon import data
from engine.oregon.play_options import Segment, play_segments
from engine.oregon.state import OregonState
from heuristics.oregon_scoring import (
    CHURCH, COAL_PIT, COAL_VALUE, EXTRA_TURN_VALUE, GOLD_MINE, GOLD_VALUE, JOKER_VALUE, PER_FARMER,
    TRAIN_STATION, WAREHOUSE, Board, group_bonus,
)

_S = data.NUM_SYMBOLS
_FULL = (1 << data.SPACES) - 1
_NOT_FIRST_COL = data.mask_of(sp for sp in range(data.SPACES) if sp % data.COLS)
_NOT_LAST_COL = data.mask_of(sp for sp in range(data.SPACES) if sp % data.COLS != data.COLS - 1)

# What one farmer next to a new building of each type is worth, for positional estimates.
SITE_VALUE = tuple(
    4.0 if b == CHURCH else COAL_VALUE if b == COAL_PIT else GOLD_VALUE if b == GOLD_MINE
    else PER_FARMER[b] + (1.0 if b in (WAREHOUSE, TRAIN_STATION) else 0.0)
    for b in range(data.NUM_BUILDINGS)
)
SETUP_WEIGHT = 0.2  # share of a neighbouring building site's value a farmer banks for later
PAIR_VALUE = 1.5  # a farmer that makes an unscored pair: a step towards the group bonus
REACHABLE_WEIGHT = 0.5  # share of a new building's farmer value we expect to collect ourselves
OTHERS_WEIGHT = 0.15  # ... and the share on spaces we cannot reach with the cards we keep
TRIGGER_STAKE = 15.0  # ending the game while ahead wins it; while behind loses it
POINTS_PER_LATER_TURN = 8.0  # what an opponent still to move this round is expected to gain


def segments(state: OregonState) -> list[Segment]:
    """The pending PLAY decision's options, exactly as the engine enumerates them."""
    a = state.active
    return play_segments(state.hands[a], state.joker[a], state.supply[a] > 0, state.stacks,
                         state.free)


def option_index(segs: list[Segment], chosen: int, sp: int) -> int:
    offset = sum(seg.count for seg in segs[:chosen])
    return offset + (segs[chosen].mask & ((1 << sp) - 1)).bit_count()


def dilate(mask: int) -> int:
    """The spaces touching ``mask`` (8-neighbourhood), and ``mask`` itself."""
    row = mask | ((mask << 1) & _NOT_FIRST_COL) | ((mask >> 1) & _NOT_LAST_COL)
    return (row | (row << data.COLS) | (row >> data.COLS)) & _FULL


def orthogonal(mask: int) -> int:
    """The spaces sharing a side with ``mask``, and ``mask`` itself."""
    return (mask | ((mask << 1) & _NOT_FIRST_COL) | ((mask >> 1) & _NOT_LAST_COL)
            | (mask << data.COLS) | (mask >> data.COLS)) & _FULL


def greedy_play(state: OregonState, rng: random.Random) -> int:
    """The playout policy: the best immediate gain among the spaces that can score now."""
    a = state.active
    segs = segments(state)
    board = Board(state, a)
    buildings = 0
    for mask in state.building_mask:
        buildings |= mask
    farmer_hot = dilate(buildings) | orthogonal(board.mine)
    building_hot = dilate(board.mine)
    joker, extra = state.joker[a], state.extra[a]
    best, best_value = None, 0.0
    for i, seg in enumerate(segs):
        joker_after = joker and not seg.joker
        penalty = JOKER_VALUE if seg.joker else 0.0
        if seg.building < 0:
            hot = seg.mask & farmer_hot
            for sp in data.spaces_of(hot):
                value = board.farmer_gain(sp, joker_after, extra) - penalty
                if value > best_value:
                    best, best_value = (i, sp), value
        else:
            hot = seg.mask & building_hot
            for sp in data.spaces_of(hot):
                value = board.building_gain(sp, seg.building, joker_after, extra) - penalty
                if value > best_value:
                    best, best_value = (i, sp), value
    if best is None:
        return rng.randrange(sum(seg.count for seg in segs))
    return option_index(segs, *best)


def best_play(state: OregonState, rng: random.Random) -> int:
    """The heuristic bot's PLAY: immediate gain plus positional terms over every option."""
    return max(evaluate_plays(state), key=lambda scored: (scored[0], rng.random()))[1]


def best_play_value(state: OregonState) -> float:
    return max(value for value, _ in evaluate_plays(state))


def evaluate_plays(state: OregonState) -> list[tuple[float, int]]:
    """(value, option index) of every PLAY option of the active seat."""
    a = state.active
    board = Board(state, a)
    planner = _Planner(state, board)
    scored: list[tuple[float, int]] = []
    index = 0
    for seg in segments(state):
        for sp in data.spaces_of(seg.mask):
            scored.append((planner.value(seg, sp), index))
            index += 1
    return scored


class _Planner:
    """Values one (segment, space) option; caches what does not depend on the cards spent."""

    def __init__(self, state: OregonState, board: Board) -> None:
        self.state, self.board = state, board
        a = board.seat
        self.seat = a
        self.hand = state.hands[a]
        self.joker, self.extra = state.joker[a], state.extra[a]
        # Positional terms pay off only if the game goes on after this round.
        self.future = 0.0 if state.end_triggered else 1.0
        self.site_values: dict[int, float] = {}
        self.lead = _estimated_lead(state, a)
        self.empty_stacks = sum(1 for tiles in state.stacks if tiles == 0)
        self.later_seats = state.num_players - 1 - a  # seats still to move this round

    def value(self, seg: Segment, sp: int) -> float:
        joker_after = self.joker and not seg.joker
        value = -JOKER_VALUE if seg.joker else 0.0
        if seg.building < 0:
            gain = self.board.farmer_gain(sp, joker_after, self.extra)
            value += gain + self.future * self._farmer_setup(sp)
            triggers = self.state.supply[self.seat] == 1
        else:
            gain = self.board.building_gain(sp, seg.building, joker_after, self.extra)
            value += gain + self.future * self._building_setup(seg, sp, joker_after)
            triggers = (self.state.stacks[seg.building] == 1 and self.empty_stacks + 1
                        >= data.EMPTY_STACKS_TO_END[self.state.num_players])
        if triggers and not self.state.end_triggered:
            margin = self.lead + gain - self.later_seats * POINTS_PER_LATER_TURN
            value += TRIGGER_STAKE if margin > 0 else -TRIGGER_STAKE
        return value

    def _farmer_setup(self, sp: int) -> float:
        """Building sites around the farmer (a later building there pays per farmer) and a
        first step towards a group."""
        free = data.NEIGHBOUR_MASK[sp] & self.state.free
        value = SETUP_WEIGHT * sum(self._site_value(n) for n in data.spaces_of(free))
        if not group_bonus(self.state, sp, self.seat) and _joins_own(self.state, sp, self.seat):
            value += PAIR_VALUE
        return value

    def _site_value(self, sp: int) -> float:
        if sp not in self.site_values:
            stacks = self.state.stacks
            self.site_values[sp] = max(
                (SITE_VALUE[b] for b in range(data.NUM_BUILDINGS)
                 if stacks[b] and data.BUILDING_LEGAL[b] >> sp & 1),
                default=0.0,
            )
        return self.site_values[sp]

    def _building_setup(self, seg: Segment, sp: int, joker_after: bool) -> float:
        """Farmer spaces the new building leaves open: worth more where the cards we keep can
        put a farmer next turn."""
        free = data.NEIGHBOUR_MASK[sp] & self.state.free & data.FARMER_LEGAL
        if not free:
            return 0.0
        reach = farmer_reach(self.hand, seg.cards, joker_after)
        near = (free & reach).bit_count()
        far = free.bit_count() - near
        per_farmer = SITE_VALUE[seg.building]
        if seg.building == TRAIN_STATION:
            per_farmer += EXTRA_TURN_VALUE * 0.2
        return per_farmer * (REACHABLE_WEIGHT * near + OTHERS_WEIGHT * far)


def _joins_own(state: OregonState, sp: int, seat: int) -> bool:
    return any(state.owner[n] == seat for n in data.ORTHOGONAL[sp])


def farmer_reach(hand: list[int], spent: tuple[int, ...], joker: bool) -> int:
    """Spaces a farmer can reach with the landscape cards left after spending ``spent``."""
    left = [hand[x] - spent.count(x) for x in range(_S)]
    lands = [x for x in range(_S) if left[x]]
    reach = 0
    for i, x in enumerate(lands):
        if joker:
            reach |= data.FARMER_JOKER_TARGETS[x]
        for y in lands[i:]:
            if y != x or left[x] >= 2:
                reach |= data.FARMER_PAIR_TARGETS[x][y]
    return reach


def _estimated_lead(state: OregonState, seat: int) -> float:
    """The seat's total minus the best other total, others' tiles at their mean value."""
    def total(s: int) -> float:
        if s == seat:
            return state.score[s] + sum(state.coal[s]) + sum(state.gold[s])
        return state.score[s] + len(state.coal[s]) * COAL_VALUE + len(state.gold[s]) * GOLD_VALUE
    return total(seat) - max(total(s) for s in range(state.num_players) if s != seat)
