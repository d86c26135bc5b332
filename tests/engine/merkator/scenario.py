"""Build hand-made Merkator positions for the worked examples of rules section 9.

A scenario starts from a real setup, then clears every player's holdings so that each example
states exactly what matters; the engine then runs from the chosen step with its own rules.
"""

from __future__ import annotations

from engine.merkator import GAME, data
from engine.merkator.actions import DecisionKind
from engine.merkator.state import MerkatorState

GOOD = {g: i for i, g in enumerate(data.GOOD_IDS)}
COLOUR = {c: i for i, c in enumerate(data.COLOUR_IDS)}
LOC = {loc: i for i, loc in enumerate(data.LOCATION_IDS)}
CONTRACT = data.CONTRACT_INDEX
BONUS = {b: i for i, b in enumerate(data.BONUS_IDS)}
BUILDING = {b: i for i, b in enumerate(data.BUILDING_IDS)}


def blank(players: int, active: int = 0, **options: bool | int) -> MerkatorState:
    """A set-up game whose players hold nothing: no contracts, cards, cubes, coins or markers."""
    state = GAME.new_game(players, seed=1, options=options)
    for q in range(players):
        state.contracts[q] = []
        state.bonus[q] = []
        state.buildings[q] = []
        state.kontor[q] = [0] * data.NUM_GOODS
        state.tile[q] = [0] * data.NUM_COLOURS
        state.coins[q] = 0
        state.markers[q] = 0
    state.active = active
    return state


def kontor(state: MerkatorState, seat: int, **goods: int) -> None:
    for good, count in goods.items():
        state.kontor[seat][GOOD[good]] = count


def tile(state: MerkatorState, seat: int, *colours: str) -> None:
    state.tile[seat] = [1 if c in colours else 0 for c in data.COLOUR_IDS]


def hand(state: MerkatorState, seat: int, *contracts: str) -> None:
    state.contracts[seat] = sorted(take_out(state, *contracts))


def set_map(state: MerkatorState, *cubes: int) -> None:
    """Cubes on the majors, in the order HAM, HOL, DAN, SWE, ENG, FRA, RUS, SPA."""
    for major, count in zip(data.MAJORS, cubes, strict=True):
        state.map_cubes[major] = count


def map_cubes(state: MerkatorState) -> list[int]:
    return [state.map_cubes[m] for m in data.MAJORS]


def take_out(state: MerkatorState, *contracts: str) -> list[int]:
    """Remove contracts from wherever they are (piles, discard, hands); return their indices."""
    taken = [CONTRACT[c] for c in contracts]
    for cards in (*state.piles.values(), state.discard, *state.contracts):
        cards[:] = [c for c in cards if c not in taken]
    return taken


def put_on_pile(state: MerkatorState, contract: str) -> None:
    """Move ``contract`` to the top of its value's pile."""
    (c,) = take_out(state, contract)
    state.piles[data.CONTRACT_VALUE[c]].append(c)


def empty_pile(state: MerkatorState, value: int) -> None:
    """Empty a pile; its cards leave the game (scenarios do not check conservation)."""
    state.piles[value] = []


def set_discard(state: MerkatorState, *contracts: str) -> None:
    state.discard = take_out(state, *contracts)


def start(state: MerkatorState, decision: DecisionKind, seat: int | None = None) -> MerkatorState:
    """Resume the game at ``decision`` for ``seat`` (default: the active player)."""
    state.stage = decision.value
    state.deciding = state.active if seat is None else seat
    state._settle()
    return state


def goods_of(state: MerkatorState, seat: int) -> dict[str, int]:
    return {data.GOOD_IDS[g]: n for g, n in enumerate(state.kontor[seat]) if n}


def legal(state: MerkatorState) -> list:
    return list(state.legal_actions())
