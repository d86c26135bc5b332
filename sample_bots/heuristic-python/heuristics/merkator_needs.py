"""What a Merkator player still needs: the goods its held contracts ask for, measured against its
Kontor and supply tile with the engine's payment rule (rules 4.5). Shared by the position value
(merkator_value) and the fast policy (merkator_policy); reads a full engine state."""

from __future__ import annotations

from collections.abc import Sequence

from engine.merkator import data
from engine.merkator.state import MerkatorState

REWARD_WEIGHT = 0.6  # points per value of a contract payable at the destination
NEEDED_CUBE = 0.6  # a cube the contracts still lack
SPARE_CUBE = 0.3  # any other cube
MARKER = 0.4  # a time marker gained or paid by the trip

GOOD_A = tuple(a for a, _ in data.COLOUR_GOODS)
GOOD_B = tuple(b for _, b in data.COLOUR_GOODS)
UNITS = tuple(sum(n for _, n in goods) for goods in data.CONTRACT_GOODS)
_LOCATIONS = range(data.NUM_LOCATIONS)
_TIME = data.LOCATION_TIME
_COLOUR = data.LOCATION_COLOUR
_CONTRACT_LOCATION = data.CONTRACT_LOCATION


def missing_units(kontor: Sequence[int], tile: Sequence[int], contract: int) -> tuple[int, int]:
    """(units still missing, cubes used) when paying ``contract`` from Kontor then tile."""
    used = missing = 0
    tile_used = 0  # bit mask of tile colours already spent on this contract
    for good, need in data.CONTRACT_GOODS[contract]:
        have = kontor[good]
        if have >= need:
            used += need
            continue
        used += have
        short = need - have
        colour = data.GOOD_COLOUR[good]
        if tile[colour] and not tile_used >> colour & 1:
            tile_used |= 1 << colour
            used += 1
            short -= 1
        missing += short
    return missing, used


def is_payable(state: MerkatorState, seat: int, contract: int) -> bool:
    """The engine's payment test: missing units are covered by 4:1 trades of cubes or markers."""
    kontor, tile = state.kontor[seat], state.tile[seat]
    missing, used = missing_units(kontor, tile, contract)
    if not missing:
        return True
    free = sum(kontor) + sum(tile) - used
    return state.markers[seat] // data.TRADE_MARKERS + free // data.TRADE_CUBES >= missing


def demand(state: MerkatorState, seat: int, skip: int = -1) -> list[int]:
    """Units of each good asked for by the seat's contracts (all but ``skip``), one card each."""
    wanted = [0] * data.NUM_GOODS
    for c in state.contracts[seat]:
        if c != skip:
            for good, need in data.CONTRACT_GOODS[c]:
                wanted[good] += need
    return wanted


def surplus(state: MerkatorState, seat: int, skip: int = -1) -> list[int]:
    """Kontor cubes of each good beyond what the seat's contracts ask for (negative: a deficit)."""
    wanted = demand(state, seat, skip)
    kontor = state.kontor[seat]
    return [kontor[g] - wanted[g] for g in range(data.NUM_GOODS)]


def trip_scores(state: MerkatorState, seat: int) -> list[float]:
    """How good a trip to each reachable location looks (location order, as TRAVEL lists them):
    contracts payable there with the cubes it gives, other needed cubes, and the time markers
    won or paid."""
    kontor, tile = state.kontor[seat], state.tile[seat]
    wanted = demand(state, seat)
    markers = state.markers[seat]
    trades = markers // data.TRADE_MARKERS
    held = sum(kontor) + sum(tile)
    contracts_at: dict[int, list[int]] = {}
    for c in state.contracts[seat]:
        contracts_at.setdefault(_CONTRACT_LOCATION[c], []).append(c)
    bonus_at: dict[int, list[tuple[int, int]]] = {}
    for card in state.bonus[seat]:
        bonus_at.setdefault(data.BONUS_LOCATION[card], []).append(
            (data.BONUS_GOOD[card], data.BONUS_TRAVEL[card])
        )
    map_cubes = state.map_cubes
    scores = []
    for loc in _LOCATIONS:
        time = _TIME[loc]
        if markers + time < 0:
            continue
        score = MARKER * time
        gains: list[tuple[int, int]] = []
        cubes = map_cubes[loc]
        if cubes:
            colour = _COLOUR[loc]
            a, b = GOOD_A[colour], GOOD_B[colour]
            lack_a, lack_b = max(0, wanted[a] - kontor[a]), max(0, wanted[b] - kontor[b])
            useful = min(cubes, lack_a + lack_b)
            score += NEEDED_CUBE * useful + SPARE_CUBE * (cubes - useful)
            to_a = min(lack_a, cubes)
            gains = [(a, to_a), (b, cubes - to_a)]
        bonus = bonus_at.get(loc)
        if bonus:
            gains.extend(bonus)
            score += SPARE_CUBE * sum(count for _, count in bonus)
        here = contracts_at.get(loc)
        if here:
            after = list(kontor)
            for good, count in gains:
                after[good] += count
            free = held + sum(count for _, count in gains)
            for c in here:
                missing, used = missing_units(after, tile, c)
                if missing <= trades + (free - used) // data.TRADE_CUBES:
                    score += REWARD_WEIGHT * data.CONTRACT_VALUE[c] - missing
        scores.append(score)
    return scores
