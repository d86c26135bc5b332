"""A fast rule-based Merkator policy on a full engine state: one cheap rule per decision kind, no
copying of the state. It plays the search bot's rollouts and finishes the heuristic bot's
look-ahead (the rest of a turn after the option being judged).

The rules: travel where held contracts become payable with the cubes waiting there, else where
the most needed cubes lie; split cubes by what the contracts still lack; fulfil the contract
whose reward adds the most points beyond the trades it needs, and stop when none does; pay
trades and spoilage with the cubes the contracts need least (markers from 4 on); join a trip
only for such a fulfilment; sell the least covered contract when forced; buy a building when the
points it already scores beat what its coins are worth kept.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.merkator import catalog as cat
from engine.merkator import data
from engine.merkator.actions import DecisionKind, InvestOption
from engine.merkator.scoring import building_points
from engine.merkator.state import MerkatorState
from heuristics.merkator_needs import (
    GOOD_A,
    GOOD_B,
    is_payable,
    missing_units,
    surplus,
    trip_scores,
)
from heuristics.merkator_value import contract_points

KEEP_MARKERS = 4  # pay trades with markers only from this many on
BUY_RATIO = 0.35  # buy a building when it already scores this many points per coin
TRADE_COST = 1.5  # points a trade gives away (four cubes or four markers)
JOIN_MARKER = 0.6  # points a marker paid to the active player costs a joiner


def policy(state: MerkatorState, rng: random.Random) -> int:
    """Index of the chosen option among ``state.legal_actions()``."""
    return _RULES[state.stage](state, rng)


def _invest(state: MerkatorState, rng: random.Random) -> int:
    legal = state.legal_actions()
    seat = state.active
    buys = [i for i, a in enumerate(legal) if a.option == InvestOption.BUY_BUILDING]
    if buys:
        worth = _building_worth(state, seat, legal, buys)
        best = max(buys, key=worth.__getitem__)
        if worth[best] > 0:
            return best
    if cat.INVEST_DONE in legal:
        return legal.index(cat.INVEST_DONE)
    if cat.DISCARD_COIN in legal:
        if buys:  # coins above the limit would be lost: the dearest building keeps most of them
            return max(buys, key=lambda i: data.BUILDING_COST[_slot_building(state, legal[i])])
        return legal.index(cat.DISCARD_COIN)
    # six or more contracts: sell the one whose goods are furthest from being held
    kontor, tile = state.kontor[seat], state.tile[seat]

    def keep_worth(i: int) -> float:
        c = data.CONTRACT_INDEX[legal[i].contract]
        missing, _ = missing_units(kontor, tile, c)
        return data.CONTRACT_VALUE[c] - 0.5 * missing

    sells = [i for i, a in enumerate(legal) if a.option == InvestOption.SELL]
    return min(sells, key=keep_worth)


def _slot_building(state: MerkatorState, action: Any) -> int:
    return state.building_slots[action.slot - 1]


def _building_worth(
    state: MerkatorState, seat: int, legal: Sequence[Any], buys: list[int]
) -> dict[int, float]:
    """Points each affordable building would score on the current holdings, less what its coins
    are worth kept (nothing in the seat's last invest step)."""
    holdings = state.holdings()
    last_invest = state.final_phase
    worth = {}
    for i in buys:
        building = _slot_building(state, legal[i])
        points = building_points(building, seat, holdings, state.misprint)
        kept = 0.0 if last_invest else BUY_RATIO * data.BUILDING_COST[building]
        worth[i] = points - kept
    return worth


def _travel(state: MerkatorState, rng: random.Random) -> int:
    scores = trip_scores(state, state.active)
    return max(range(len(scores)), key=lambda i: scores[i] + 0.01 * rng.random())


def _split(state: MerkatorState, rng: random.Random) -> int:
    seat = state.active
    legal = state.legal_actions()
    colour = data.LOCATION_COLOUR[state.figure]
    a, b = GOOD_A[colour], GOOD_B[colour]
    cubes = state.map_cubes[state.figure]
    spare = surplus(state, seat)
    lack_a, lack_b = max(0, -spare[a]), max(0, -spare[b])
    to_a = min(lack_a, cubes)
    to_b = min(lack_b, cubes - to_a)
    rest = cubes - to_a - to_b
    if lack_a >= lack_b:  # the rest goes to the good asked for more
        to_a += rest
    lowest, highest = legal[0].good_a, legal[-1].good_a
    return min(max(to_a, lowest), highest) - lowest


def _reflip(state: MerkatorState, rng: random.Random) -> int:
    """REFLIP (index 1) when the known letter costs this seat more, relative to the others, than
    an unknown marker would on average."""
    seat = state.active

    def relative_loss(letters: str) -> float:
        column = data.COLUMN_GOODS[letters[0]]
        losses = [
            min(len(letters), sum(state.kontor[q][g] for g in column))
            for q in range(state.num_players)
        ]
        return losses[seat] - sum(losses) / len(losses)

    keep = relative_loss(state.spoil_letters)
    unknown = sum(map(relative_loss, data.MARKER_LETTERS)) / len(data.MARKER_LETTERS)
    return 1 if unknown < keep else 0


def _least_needed(state: MerkatorState, seat: int, skip: int = -1) -> Callable[[int], float]:
    """Sort key for GOOD/TILE options: the cube whose loss hurts the seat's contracts least."""
    legal = state.legal_actions()
    spare = surplus(state, seat, skip)

    def key(i: int) -> float:
        action = legal[i]
        if action.good is not None:
            return spare[action.good - 1]
        colour = action.tile - 1  # a tile cube fits two goods and never spoils: keep it longest
        return max(spare[GOOD_A[colour]], spare[GOOD_B[colour]]) - 3

    return key


def _spoil(state: MerkatorState, rng: random.Random) -> int:
    legal = state.legal_actions()
    return max(range(len(legal)), key=_least_needed(state, state.deciding))


def fulfil_worth(state: MerkatorState, seat: int, contract: int) -> float:
    """What fulfilling a payable contract now gains: the marginal points of its reward card, less
    the trades it needs (the contract itself stays in hand)."""
    missing, _ = missing_units(state.kontor[seat], state.tile[seat], contract)
    values = sorted((data.CONTRACT_VALUE[c] for c in state.contracts[seat]), reverse=True)
    reward = data.REWARD_TARGET[data.CONTRACT_VALUE[contract]]
    with_reward = sorted([*values, reward], reverse=True)
    final = state.final_phase
    gain = contract_points(with_reward, final) - contract_points(values, final)
    return gain - TRADE_COST * missing


def _fulfil(state: MerkatorState, rng: random.Random) -> int:
    legal = state.legal_actions()
    seat = state.deciding
    contracts = range(len(legal) - 1)  # the last option is DONE
    worth = [fulfil_worth(state, seat, data.CONTRACT_INDEX[legal[i].contract]) for i in contracts]
    best = max(contracts, key=worth.__getitem__)
    return best if worth[best] > 0 else len(legal) - 1


def _trade(state: MerkatorState, rng: random.Random) -> int:
    legal = state.legal_actions()
    seat = state.deciding
    if legal[0] == cat.TRADE_MARKERS and state.markers[seat] >= KEEP_MARKERS:
        return 0
    cubes = [i for i, a in enumerate(legal) if not a.markers]
    if not cubes:
        return 0
    return max(cubes, key=_least_needed(state, seat, state.trade_contract))


def _join(state: MerkatorState, rng: random.Random) -> int:
    """JOIN (index 0) when a contract there is worth fulfilling, beyond the markers paid to the
    active player (a loss for us and a gain for a rival)."""
    seat, loc = state.deciding, state.figure
    worth = max(
        (
            fulfil_worth(state, seat, c)
            for c in state.contracts[seat]
            if data.CONTRACT_LOCATION[c] == loc and is_payable(state, seat, c)
        ),
        default=0.0,
    )
    return 0 if worth > JOIN_MARKER * data.JOIN_COST[loc] else 1


def _permit(state: MerkatorState, rng: random.Random) -> int:
    return 1  # REFUSE: a joiner's fulfilment is worth more to it than its markers to us


def _final_place(state: MerkatorState, rng: random.Random) -> int:
    """The good (A or B) that more of the seat's buildings count."""
    seat = state.deciding
    colour = state.final_place_colour
    counts = [0, 0]
    for k in state.buildings[seat]:
        goods = data.scoring_goods(data.BUILDING_SCORING[k])
        counts[0] += GOOD_A[colour] in goods
        counts[1] += GOOD_B[colour] in goods
    return 1 if counts[1] > counts[0] else 0


_RULES: dict[int, Callable[[MerkatorState, random.Random], int]] = {
    DecisionKind.INVEST.value: _invest,
    DecisionKind.TRAVEL.value: _travel,
    DecisionKind.SPLIT_CUBES.value: _split,
    DecisionKind.SPOILAGE_REFLIP.value: _reflip,
    DecisionKind.SPOIL_CHOOSE.value: _spoil,
    DecisionKind.FULFIL.value: _fulfil,
    DecisionKind.TRADE_INPUT.value: _trade,
    DecisionKind.JOIN.value: _join,
    DecisionKind.PERMIT_JOIN.value: _permit,
    DecisionKind.FINAL_PLACE.value: _final_place,
}
