"""What one Oregon placement is worth right now (rules 2.4, 5.1-5.4), read from an engine state.

Only public parts of the state are read (board, tokens, stacks, supplies), so the same code
serves the heuristic bot (on a state sampled from its view) and the search bot's playouts.
Coal and gold count at the mean value of their tiles; a token that a placement turns active is
worth a fixed number of points, because it buys a later, wider or extra play.
"""

from __future__ import annotations

from statistics import fmean

from engine.oregon import data
from engine.oregon.state import OregonState

COAL_VALUE = fmean(data.COAL_TILES)
GOLD_VALUE = fmean(data.GOLD_TILES)
JOKER_VALUE = 3.0  # an active joker: one more card's worth of reach for a later play
EXTRA_TURN_VALUE = 5.0  # an active extra-turn token: roughly half of a later play

CHURCH = data.BUILDINGS.index("CHURCH")
WAREHOUSE = data.BUILDINGS.index("WAREHOUSE")
TRAIN_STATION = data.BUILDINGS.index("TRAIN_STATION")
COAL_PIT = data.BUILDINGS.index("COAL_PIT")
GOLD_MINE = data.BUILDINGS.index("GOLD_MINE")
# Points per adjacent farmer for the buildings that pay a fixed amount (church: see below).
PER_FARMER = tuple(effect.points_per_farmer for effect in data.EFFECTS)


class Board:
    """The public facts one decision of ``seat`` needs, extracted once from the state."""

    __slots__ = (
        "state",
        "seat",
        "everyone",
        "mine",
        "buildings",
        "coal_left",
        "gold_left",
        "opponent_weight",
    )

    def __init__(self, state: OregonState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.everyone = state.all_farmers()
        self.mine = state.farmer_mask[seat]
        self.buildings = 0
        for mask in state.building_mask:
            self.buildings |= mask
        self.coal_left = len(state.coal_stack)
        self.gold_left = len(state.gold_stack)
        # A point given to one of several opponents hurts less than one given to the only one.
        self.opponent_weight = 1.0 / (state.num_players - 1)

    def farmer_gain(self, sp: int, joker_after: bool, extra_after: bool) -> float:
        """Points (tiles and tokens at their value) the seat gets for a new farmer on ``sp``;
        ``joker_after``/``extra_after`` are the token states once the play's cards are spent."""
        building_at = self.state.building_at
        gain = 0.0
        joker_woken = extra_woken = False
        for n in data.spaces_of(data.NEIGHBOUR_MASK[sp] & self.buildings):
            b = building_at[n]
            if b == CHURCH:
                gain += (data.NEIGHBOUR_MASK[n] & self.everyone).bit_count() + 1
            elif b == COAL_PIT:
                gain += COAL_VALUE if self.coal_left else 0.0
            elif b == GOLD_MINE:
                gain += GOLD_VALUE if self.gold_left else 0.0
            else:
                gain += PER_FARMER[b]
                joker_woken |= b == WAREHOUSE
                extra_woken |= b == TRAIN_STATION
        if joker_woken and not joker_after:
            gain += JOKER_VALUE
        if extra_woken and not extra_after:
            gain += EXTRA_TURN_VALUE
        return gain + group_bonus(self.state, sp, self.seat)

    def building_gain(self, sp: int, b: int, joker_after: bool, extra_after: bool) -> float:
        """The seat's points minus the weighted points of the others for building ``b`` on
        ``sp`` (5.2: every seat with farmers around it scores)."""
        state = self.state
        around = data.NEIGHBOUR_MASK[sp]
        if not around & self.everyone:
            return 0.0
        church_count = (around & self.everyone).bit_count()
        coal_left, gold_left = self.coal_left, self.gold_left
        net = 0.0
        for i in range(state.num_players):  # seat order of 5.2, for the tile shares
            seat = (self.seat + i) % state.num_players
            k = (around & state.farmer_mask[seat]).bit_count()
            if not k:
                continue
            if b == CHURCH:
                value = k * church_count
            elif b == COAL_PIT:
                taken = min(k, coal_left)
                coal_left -= taken
                value = taken * COAL_VALUE
            elif b == GOLD_MINE:
                taken = min(k, gold_left)
                gold_left -= taken
                value = taken * GOLD_VALUE
            else:
                value = k * PER_FARMER[b]
                mine = seat == self.seat
                if b == WAREHOUSE and not (joker_after if mine else state.joker[seat]):
                    value += JOKER_VALUE
                if b == TRAIN_STATION and not (extra_after if mine else state.extra[seat]):
                    value += EXTRA_TURN_VALUE
            net += value if seat == self.seat else -self.opponent_weight * value
        return net


def group_bonus(state: OregonState, sp: int, seat: int) -> int:
    """5.3: the bonus a new farmer of ``seat`` on ``sp`` would score."""
    size, scored = merged_group(state, sp, seat)
    return data.GROUP_POINTS if size >= data.GROUP_MIN_SIZE and not scored else 0


def merged_group(state: OregonState, sp: int, seat: int) -> tuple[int, bool]:
    """Size of the group a new farmer on ``sp`` would form, and whether a merged part has
    already scored (size >= 3, see the engine's union-find). Reads the union-find only."""
    owner = state.owner
    roots = {_root(state.parent, n) for n in data.ORTHOGONAL[sp] if owner[n] == seat}
    parts = [state.size[r] for r in roots]
    return 1 + sum(parts), any(p >= data.GROUP_MIN_SIZE for p in parts)


def _root(parent: list[int], sp: int) -> int:
    while parent[sp] != sp:
        sp = parent[sp]
    return sp
