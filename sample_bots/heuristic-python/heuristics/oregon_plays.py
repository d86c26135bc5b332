"""Ranking of Oregon PLAY options (rules 4.3) without building the action objects.

The engine's option list is a few segments (one per card combination) of target spaces; an
option's index is the segment's offset plus the space's rank in the segment's mask. We score
(segment, space) pairs directly with ``oregon_scoring`` and turn the best pair into its index.

Two depths share the same immediate scoring:
- ``best_play``: every option, plus positional terms (the building sites and the group a
  farmer prepares) and, with the extra-turn token, what the extra play after it would earn;
- ``greedy_play``: for playouts, only the spaces where something scores now (around buildings,
  next to own farmers), falling back to a random option when nothing scores.
"""

from __future__ import annotations

import random

from engine.oregon import data
from engine.oregon.actions import DecisionKind
from engine.oregon.play_options import Segment, play_segments
from engine.oregon.state import OregonState
from heuristics.oregon_scoring import (
    CHURCH,
    COAL_PIT,
    COAL_VALUE,
    GOLD_MINE,
    GOLD_VALUE,
    JOKER_VALUE,
    PER_FARMER,
    TRAIN_STATION,
    WAREHOUSE,
    Board,
    merged_group,
)

_FULL = (1 << data.SPACES) - 1
_NOT_FIRST_COL = data.mask_of(sp for sp in range(data.SPACES) if sp % data.COLS)
_NOT_LAST_COL = data.mask_of(sp for sp in range(data.SPACES) if sp % data.COLS != data.COLS - 1)

# What one farmer next to a new building of each type is worth, for positional estimates.
SITE_VALUE = tuple(
    4.0
    if b == CHURCH
    else COAL_VALUE
    if b == COAL_PIT
    else GOLD_VALUE
    if b == GOLD_MINE
    else PER_FARMER[b] + (1.0 if b in (WAREHOUSE, TRAIN_STATION) else 0.0)
    for b in range(data.NUM_BUILDINGS)
)
SETUP_WEIGHT = 0.1  # share of a neighbouring building site's value a farmer banks for later
PAIR_VALUE = 1.5  # a farmer that makes an unscored pair: a step towards the group bonus
EXTRA_PLAY_THRESHOLD = 3.0  # keep the extra-turn token unless the extra play earns this much
FOLLOW_UP_CANDIDATES = 4  # first plays whose extra play is looked at (each costs a full ranking)


def segments(state: OregonState) -> list[Segment]:
    """The pending PLAY decision's options, exactly as the engine enumerates them."""
    a = state.active
    return play_segments(
        state.hands[a], state.joker[a], state.supply[a] > 0, state.stacks, state.free
    )


def option_index(segs: list[Segment], chosen: int, sp: int) -> int:
    offset = sum(seg.size for seg in segs[:chosen])
    return offset + (segs[chosen].mask & ((1 << sp) - 1)).bit_count()


def dilate(mask: int) -> int:
    """The spaces touching ``mask`` (8-neighbourhood), and ``mask`` itself."""
    row = mask | ((mask << 1) & _NOT_FIRST_COL) | ((mask >> 1) & _NOT_LAST_COL)
    return (row | (row << data.COLS) | (row >> data.COLS)) & _FULL


def orthogonal(mask: int) -> int:
    """The spaces sharing a side with ``mask``, and ``mask`` itself."""
    return (
        mask
        | ((mask << 1) & _NOT_FIRST_COL)
        | ((mask >> 1) & _NOT_LAST_COL)
        | (mask << data.COLS)
        | (mask >> data.COLS)
    ) & _FULL


def greedy_play(state: OregonState, rng: random.Random) -> int:
    """The playout policy: the best immediate gain among the spaces that can score now.

    A space's gain does not depend on the cards spent, so each space is valued once: first in
    the segments that keep the joker, then, on the spaces only the joker reaches, at the
    joker's price."""
    a = state.active
    segs = segments(state)
    board = Board(state, a)
    hot_for_farmer = dilate(board.buildings) | orthogonal(board.mine)
    hot_for_building = dilate(board.mine)
    joker, extra = state.joker[a], state.extra[a]
    seen = [0] * (data.NUM_BUILDINGS + 1)  # spaces valued so far, per building type (-1: farmer)
    best, best_value = None, 0.0
    for with_joker in (False, True):
        penalty = JOKER_VALUE if with_joker else 0.0
        for i, seg in enumerate(segs):
            if seg.joker is not with_joker:
                continue
            b = seg.building
            hot = seg.mask & (hot_for_farmer if b < 0 else hot_for_building) & ~seen[b]
            seen[b] |= hot
            for sp in data.spaces_of(hot):
                if b < 0:
                    value = board.farmer_gain(sp, joker, extra) - penalty
                else:
                    value = board.building_gain(sp, b, joker, extra) - penalty
                if value > best_value:
                    best, best_value = (i, sp), value
    if best is not None:
        return option_index(segs, *best)
    # Nothing scores: a farmer without the joker at least gets on the board; a building
    # would waste its card and could feed the others' farmers.
    plain = [i for i, seg in enumerate(segs) if seg.building < 0 and not seg.joker]
    if not plain:
        return rng.randrange(sum(seg.size for seg in segs))
    i = rng.choice(plain)
    return option_index(segs, i, data.nth_space(segs[i].mask, rng.randrange(segs[i].size)))


def best_play(state: OregonState, rng: random.Random) -> int:
    """The heuristic bot's PLAY: immediate gain plus positional terms over every option; with
    the extra-turn token in hand, the best few first plays also count what the extra play
    after them would earn with the cards left."""
    ranked = sorted(evaluate_plays(state), key=lambda scored: (-scored[0], rng.random()))
    a = state.active
    if not state.extra[a] or state.in_extra:
        return ranked[0][1]
    return max(
        ranked[:FOLLOW_UP_CANDIDATES],
        key=lambda scored: scored[0] + _extra_play_surplus(state, scored[1]),
    )[1]


def _extra_play_surplus(state: OregonState, index: int) -> float:
    """What taking the extra play after option ``index`` earns beyond keeping the token."""
    after = state.clone()
    after.apply_index(index)
    if after.phase is not DecisionKind.USE_EXTRA_TURN:
        return 0.0
    after.apply_index(1)  # use the extra turn
    if after.phase is not DecisionKind.PLAY or after.active != state.active:
        return 0.0  # the engine played the only option itself: nothing to compare
    return max(0.0, best_play_value(after) - EXTRA_PLAY_THRESHOLD)


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
    """Values one (segment, space) option of the active seat."""

    def __init__(self, state: OregonState, board: Board) -> None:
        self.state, self.board = state, board
        self.joker, self.extra = state.joker[board.seat], state.extra[board.seat]
        # Positional terms pay off only if the game goes on after this round.
        self.future = 0.0 if state.end_triggered else 1.0
        self.site_values: dict[int, float] = {}
        self.setups: dict[int, float] = {}  # the same space recurs under several card choices

    def value(self, seg: Segment, sp: int) -> float:
        joker_after = self.joker and not seg.joker
        value = -JOKER_VALUE if seg.joker else 0.0
        if seg.building >= 0:
            return value + self.board.building_gain(sp, seg.building, joker_after, self.extra)
        value += self.board.farmer_gain(sp, joker_after, self.extra)
        if sp not in self.setups:
            self.setups[sp] = self.future * self._farmer_setup(sp)
        return value + self.setups[sp]

    def _farmer_setup(self, sp: int) -> float:
        """Building sites around the farmer (a later building there pays per farmer) and a
        first step towards a group bonus."""
        free = data.NEIGHBOUR_MASK[sp] & self.state.free
        value = SETUP_WEIGHT * sum(self._site_value(n) for n in data.spaces_of(free))
        size, scored = merged_group(self.state, sp, self.board.seat)
        if size == data.GROUP_MIN_SIZE - 1 and not scored:
            value += PAIR_VALUE
        return value

    def _site_value(self, sp: int) -> float:
        """The best per-farmer value of a building that may still go on ``sp``."""
        if sp not in self.site_values:
            stacks = self.state.stacks
            self.site_values[sp] = max(
                (
                    SITE_VALUE[b]
                    for b in range(data.NUM_BUILDINGS)
                    if stacks[b] and data.BUILDING_LEGAL[b] >> sp & 1
                ),
                default=0.0,
            )
        return self.site_values[sp]
