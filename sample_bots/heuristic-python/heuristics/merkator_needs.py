"""What a Merkator player still needs: the goods its held contracts ask for, measured against its
Kontor and supply tile with the engine's payment rule (rules 4.5). Shared by the position value
(merkator_value) and the fast policy (merkator_policy); reads a full engine state."""

from __future__ import annotations

from collections.abc import Sequence

from engine.merkator import data
from engine.merkator.state import MerkatorState

GOOD_A = tuple(a for a, _ in data.COLOUR_GOODS)
GOOD_B = tuple(b for _, b in data.COLOUR_GOODS)
UNITS = tuple(sum(n for _, n in goods) for goods in data.CONTRACT_GOODS)


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
