"""A static value of a Merkator position for one seat, in points: what the seat would score now
plus discounted worth of what it can still turn into points (rules 5.2 for the exact part).

- Contracts: the five highest in full; the others count half in the final phase, and outside it
  as the coins they fetch when the invest step forces their sale.
- Contract potential: a contract whose goods the seat already holds will soon be fulfilled, which
  keeps it and draws a reward card of the next value. Each contract adds a share of that reward's
  marginal worth, growing with the square of the fraction of its goods covered (cubes are shared
  out over contracts from the highest value down, so one cube is never counted twice).
- The next trip: a share of the best score ``merkator_needs.trip_scores`` gives a trip the seat
  could make next (contracts it could fulfil there, needed cubes waiting there).
- Cubes, time markers and bonus cards: small per-item worths that fade as the seat's remaining
  turns run out; coins: worth their building points until the seat's last invest step is over;
  buildings: the points their rule gives on the current holdings.
"""

from __future__ import annotations

from engine.merkator import data
from engine.merkator.actions import DecisionKind
from engine.merkator.scoring import building_points
from engine.merkator.state import MerkatorState
from heuristics.merkator_needs import UNITS, trip_scores

COIN = 0.35  # a coin buys roughly this many building points
MARKER = 0.3  # a quarter of a trade, a trip to a minor, a join
CUBE = 0.25  # a Kontor cube: trade material that spoilage may take
TILE_CUBE = 0.35  # a supply-tile cube: fits either good of its colour and cannot spoil
BONUS_CARD = 0.6  # two free goods on each trip to its location
POTENTIAL = 0.5  # share of a reward's worth credited to a fully covered contract
NEXT_TRIP = 0.2  # share of the best next trip's worth (merkator_needs.trip_scores)
MARKERS_PER_TURN = 1.2  # board markers taken per turn, to estimate the game's remaining length

_FULL = data.FULL_VALUE_CONTRACTS
_PLANNING = (DecisionKind.INVEST.value, DecisionKind.TRAVEL.value)


def turns_left(state: MerkatorState, seat: int) -> float:
    """The seat's expected number of trips still to come (its current one if not yet made)."""
    n = state.num_players
    offset = (seat - state.active) % n
    if state.final_phase:
        if offset == 0:
            return 1.0 if state.stage in _PLANNING else 0.0
        return 1.0 if offset < state.final_turns_left else 0.0
    board_left = data.BOARD_SPACES - state.board_next
    current = 1.0 if offset == 0 and state.stage in _PLANNING else 0.0
    return board_left / (n * MARKERS_PER_TURN) + 1.0 + current  # 1: every seat's final turn


def _invests_again(state: MerkatorState, seat: int) -> bool:
    """Whether the seat has an invest step after the current one (coins are only spent there)."""
    if not state.final_phase:
        return True
    offset = (seat - state.active) % state.num_players
    return 0 < offset < state.final_turns_left


def contract_points(values: list[int], final: bool) -> float:
    """Points of held contract values (sorted, highest first) at the end of the game."""
    extra = sum(values[_FULL:])
    return sum(values[:_FULL]) + (0.5 * extra if final else COIN * extra)


def value(state: MerkatorState, seat: int) -> float:
    if state.is_over:
        return state.result().scores[seat]
    turns = turns_left(state, seat)
    final = state.final_phase
    contracts = state.contracts[seat]
    values = sorted((data.CONTRACT_VALUE[c] for c in contracts), reverse=True)
    points = contract_points(values, final)
    total = points + _potential(state, seat, values, points, final) * min(1.0, turns / 2)
    buildings = state.buildings[seat]
    if buildings:
        holdings = state.holdings()
        total += sum(building_points(b, seat, holdings, state.misprint) for b in buildings)
    live = min(1.0, turns)
    total += live * (
        CUBE * sum(state.kontor[seat])
        + TILE_CUBE * sum(state.tile[seat])
        + MARKER * state.markers[seat]
    )
    if _invests_again(state, seat):
        total += COIN * state.coins[seat]
    total += BONUS_CARD * len(state.bonus[seat]) * min(1.0, turns / 4)
    if turns >= 1:
        total += NEXT_TRIP * max(trip_scores(state, seat))
    return total + 0.01 * state.markers[seat]  # markers break ties (rules 5.3)


def relative_value(state: MerkatorState, seat: int) -> float:
    """The seat's value minus the best other seat's: what a decision should maximise."""
    if state.is_over:
        scores = state.result().scores
        return scores[seat] - max(s for q, s in enumerate(scores) if q != seat)
    best_other = max(value(state, q) for q in range(state.num_players) if q != seat)
    return value(state, seat) - best_other


def _potential(
    state: MerkatorState, seat: int, values: list[int], points: float, final: bool
) -> float:
    kontor = list(state.kontor[seat])
    tile = list(state.tile[seat])
    gains: dict[int, float] = {}
    total = 0.0
    for c in sorted(state.contracts[seat], key=data.CONTRACT_VALUE.__getitem__, reverse=True):
        if c == data.PEACE:
            continue
        covered = 0
        for good, need in data.CONTRACT_GOODS[c]:
            take = min(need, kontor[good])
            kontor[good] -= take
            covered += take
            colour = data.GOOD_COLOUR[good]
            if take < need and tile[colour]:
                tile[colour] = 0
                covered += 1
        if not covered:
            continue
        reward = data.REWARD_TARGET[data.CONTRACT_VALUE[c]]
        if reward not in gains:
            with_reward = sorted([*values, reward], reverse=True)
            gains[reward] = contract_points(with_reward, final) - points
        share = covered / UNITS[c]
        total += gains[reward] * share * share
    return POTENTIAL * total
