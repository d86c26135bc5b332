"""Random play: conservation and the rules' invariants (rules 8.18) at every decision point,
actions of the wrong kind, options and the round cap. Determinism, replay, clones and bad input
in general: tests/engine/test_contract.py."""

from __future__ import annotations

import random

import pytest

from engine.core import IllegalActionError, OptionError
from engine.merkator import GAME, data
from engine.merkator import catalog as cat
from engine.merkator.actions import (
    FinalPlace,
    Fulfil,
    Invest,
    Join,
    PermitJoin,
    SplitCubes,
    SpoilageReflip,
    SpoilChoose,
    TradeInput,
    Travel,
)
from engine.merkator.state import MerkatorState
from tests.engine import harness
from tests.engine.merkator.recount import recount

PLAYER_COUNTS = (2, 3, 4)
ACTION_OF_KIND = {
    "INVEST": Invest,
    "TRAVEL": Travel,
    "SPLIT_CUBES": SplitCubes,
    "SPOILAGE_REFLIP": SpoilageReflip,
    "SPOIL_CHOOSE": SpoilChoose,
    "FULFIL": Fulfil,
    "TRADE_INPUT": TradeInput,
    "JOIN": Join,
    "PERMIT_JOIN": PermitJoin,
    "FINAL_PLACE": FinalPlace,
}


def _colour_total(s: MerkatorState, colour: int) -> int:
    good_a, good_b = data.COLOUR_GOODS[colour]
    on_map = sum(s.map_cubes[m] for m in data.MAJORS if data.LOCATION_COLOUR[m] == colour)
    in_kontors = sum(k[good_a] + k[good_b] for k in s.kontor)
    on_tiles = sum(t[colour] for t in s.tile)
    return s.pools[colour] + on_map + in_kontors + on_tiles


# A pool can lose at most this many cubes between two decisions before a restock (two bonus
# cards of the colour's two goods, 2 cubes each), so a restock that found it empty started there.
_POOL_DRAIN_PER_STEP = 4


def _pool_may_have_run_out(before: MerkatorState, location: int) -> bool:
    return before.pools[data.LOCATION_COLOUR[location]] <= _POOL_DRAIN_PER_STEP


def _check_restocking(s: MerkatorState, before: MerkatorState, index: int) -> None:
    """Rules 8.18: no two majors on a line both empty, and after a visit to a minor with
    threshold T no major holds exactly T cubes, unless a pool ran out during that restock."""
    for a, b in data.DATA["lines"]:
        la, lb = data.LOCATION_IDS.index(a), data.LOCATION_IDS.index(b)
        newly_empty = not (s.map_cubes[la] or s.map_cubes[lb]) and (
            before.map_cubes[la] or before.map_cubes[lb]
        )
        if newly_empty:
            assert _pool_may_have_run_out(before, la) or _pool_may_have_run_out(before, lb)
    if before.decision_kind == "TRAVEL" and not data.IS_MAJOR[s.figure]:
        threshold = data.RESTOCK_THRESHOLD[s.figure]
        for m in data.MAJORS:
            if s.map_cubes[m] == threshold:
                assert _pool_may_have_run_out(before, m)


def check_invariants(s: MerkatorState, before: MerkatorState | None, index: int | None) -> None:
    n = s.num_players
    # conservation: cubes, contracts, bonus cards, buildings
    for colour in range(data.NUM_COLOURS):
        assert _colour_total(s, colour) == data.CUBES_PER_COLOUR[colour]
    contracts = [c for pile in s.piles.values() for c in pile] + s.discard
    contracts += [c for held in s.contracts for c in held]
    assert sorted(contracts) == list(range(data.NUM_CONTRACTS))
    for pile_value, pile in s.piles.items():
        assert all(data.CONTRACT_VALUE[c] == pile_value for c in pile)
    bonus = s.bonus_deck + [b for b in s.bonus_slots if b >= 0] + [b for h in s.bonus for b in h]
    assert sorted(bonus) == list(range(data.NUM_BONUS))
    buildings = s.building_deck + [b for b in s.building_slots if b >= 0]
    buildings += [b for h in s.buildings for b in h]
    assert sorted(buildings) == list(range(data.NUM_BUILDINGS))
    # markers: never negative; the board empties from the top, one space at a time
    assert min(s.markers) >= 0 and min(s.coins) >= 0
    assert all(letters == "" for letters in s.board_letters[: s.board_next])
    assert all(s.board_letters[s.board_next :])
    if before is not None:
        assert s.board_next >= before.board_next
        assert s.turn >= before.turn
        # every applied action was one of the legal options, of the decision's kind
        legal = before.legal_actions()
        assert 0 <= index < len(legal)
        assert type(legal[index]) is ACTION_OF_KIND[before.decision_kind]
    if before is not None:
        _check_restocking(s, before, index)
    if s.is_over:
        assert not any(any(t) for t in s.tile)
        return
    # coins change only while investing and every invest step ends at <= 15
    for seat in range(n):
        if not (seat == s.active and s.decision_kind == "INVEST"):
            assert s.coins[seat] <= data.COIN_CAP
    # TRAVEL always follows the invest step directly: at most 5 contracts outside the final phase
    if s.decision_kind == "TRAVEL" and not s.final_phase:
        assert len(s.contracts[s.active]) <= data.CONTRACT_LIMIT
    # a contract is fulfilled at most once per turn, and stays with its owner
    for seat in range(n):
        assert s.fulfilled[seat] <= set(s.contracts[seat])
    if s.decision_kind == "FULFIL":
        for action in s.legal_actions():
            if not action.done:
                assert data.CONTRACT_INDEX[action.contract] not in s.fulfilled[s.current_seat]
    assert len(s.legal_actions()) >= 2  # single options are never presented


def _check_game(
    players: int, seed: int, options: dict | None = None, kinds: set[str] | None = None
) -> MerkatorState:
    """One random game with every invariant checked; ``kinds`` collects the decision kinds."""
    if options:
        state = GAME.new_game(players, seed, options)
        rng = random.Random(seed)
        check_invariants(state, None, None)
        while not state.is_over:
            if kinds is not None:
                kinds.add(state.decision_kind)
            before = state.clone()
            index = rng.randrange(len(state.legal_actions()))
            state.apply_index(index)
            check_invariants(state, before, index)
    else:
        state = harness.play_random_game(GAME, players, seed, check_invariants)
    assert list(state.result().scores) == recount(state)
    # the end comes at the latest one final round after the round cap
    assert state.turn <= (state.max_rounds + 1) * players
    return state


@pytest.mark.slow  # many random games
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_keep_every_invariant(players):
    for seed in range(harness.property_game_count(default=40)):
        _check_game(players, seed)


@pytest.mark.slow  # many random games
@pytest.mark.parametrize(
    "options",
    [{"join_needs_permission": True}, {"alsterhaus_misprint": True}, {"max_rounds": 3}],
)
def test_random_games_under_each_option(options):
    kinds: set[str] = set()
    for seed in range(harness.property_game_count(default=8)):
        _check_game(4, seed, options, kinds)
    assert ("PERMIT_JOIN" in kinds) == bool(options.get("join_needs_permission"))
    if options.get("join_needs_permission"):
        assert kinds == set(ACTION_OF_KIND)  # random play reaches every decision kind


def test_round_cap_triggers_the_end():
    state = GAME.new_game(3, 11, {"max_rounds": 1})
    rng = random.Random(0)
    while not state.is_over:
        if state.decision_kind == "TRAVEL":
            # Denmark/France/England/Russia never take board markers: only the cap can end it
            travel = [a for a in state.legal_actions() if data.LOCATION_TIME[a.location - 1] <= 0]
            state.apply(rng.choice(travel))
        else:
            state.apply_index(rng.randrange(len(state.legal_actions())))
    assert state.turn == 6  # round 1 (3 turns), then one final turn each
    assert state.board_next == (data.FILLED_ROWS[3][0] - 1) * data.ROW_SPACES


def test_action_of_another_kind_or_value_is_rejected_without_change():
    wrong = [cat.INVEST_DONE, cat.TRAVEL[0], cat.SPLIT[5], cat.FULFIL[3], cat.JOIN, cat.ALLOW]
    for state in harness.random_decision_points(GAME, 4, seed=9, every=3):
        if state.is_over:
            continue
        digest = state.digest()
        for action in wrong:
            if action not in state.legal_actions():
                with pytest.raises(IllegalActionError):
                    state.apply(action)
        with pytest.raises(IllegalActionError):
            state.apply_index(True)  # a bool is not an index
        assert state.digest() == digest


def test_setup_follows_the_rules():
    for players, rows, discard, deck in ((2, 4, 3, 8), (3, 5, 2, 6), (4, 6, 1, 4)):
        s = GAME.new_game(players, seed=5)
        assert data.BOARD_SPACES - s.board_next == rows * data.ROW_SPACES
        assert len(s.discard) == discard and all(data.CONTRACT_VALUE[c] == 2 for c in s.discard)
        assert s.piles[2] == [] and s.piles[14] == [data.PEACE]
        assert len(s.bonus_deck) == deck and len(s.building_deck) == 22
        expected_markers = [0] + [1] * (players - 2) + [2]
        for seat in range(players):
            assert sorted(data.CONTRACT_VALUE[c] for c in s.contracts[seat]) == [2, 3, 4, 5]
            assert sorted(data.BONUS_COST[b] for b in s.bonus[seat]) == [3, 4]
            assert s.tile[seat] == [1] * data.NUM_COLOURS
        # seat 0 has no markers and so cannot pay for a time cost before its first trip
        assert [s.markers[q] for q in range(players)] == expected_markers
        assert all(s.map_cubes[m] == 1 for m in data.MAJORS)


def test_default_option_for_a_replaced_seat():
    """Rules 8.17: the option used when a seat's answer is missing or invalid."""
    seen = set()
    for state in harness.random_decision_points(GAME, 4, seed=12, every=1):
        if state.is_over:
            continue
        action = state.legal_actions()[state.default_action_index()]
        kind = state.decision_kind
        seen.add(kind)
        if kind == "INVEST":
            options = state.legal_actions()
            if cat.INVEST_DONE in options:
                assert action == cat.INVEST_DONE
            elif cat.DISCARD_COIN in options:
                assert action == cat.DISCARD_COIN
            else:
                held = state.contracts[state.active]
                cheapest = min(held, key=lambda c: (data.CONTRACT_VALUE[c], c))
                assert action == cat.SELL[cheapest]
        elif kind == "FULFIL":
            assert action == cat.FULFIL_DONE
        elif kind == "JOIN":
            assert action == cat.PASS
        else:
            assert action == state.legal_actions()[0]
    assert {"INVEST", "FULFIL", "JOIN", "TRAVEL"} <= seen


def test_bad_option_values_are_rejected():
    """Unknown options and player counts: tests/engine/test_contract.py."""
    with pytest.raises(OptionError):
        GAME.new_game(3, 1, {"max_rounds": 0})
    with pytest.raises(OptionError):
        GAME.new_game(3, 1, {"join_needs_permission": 1})
