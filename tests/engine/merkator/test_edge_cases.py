"""Edge cases of rules section 8 that no worked example covers."""

from __future__ import annotations

from engine.merkator import catalog as cat
from engine.merkator import data
from engine.merkator.actions import DecisionKind, FinalPlace, Travel
from engine.merkator.enums import Colour, Good, Location
from engine.merkator.state import PLACE_NEXT
from tests.engine.merkator.scenario import (
    BONUS,
    BUILDING,
    COLOUR,
    blank,
    goods_of,
    hand,
    kontor,
    legal,
    map_cubes,
    set_map,
    start,
    tile,
)


def test_empty_pools_skip_restock_and_shorten_bonus_goods():
    """8.6 / R14: a cube due from an empty pool is not placed; bonus goods take what is there."""
    s = blank(4)
    set_map(s, 2, 1, 1, 1, 1, 1, 1, 1)
    s.pools[COLOUR["yellow"]] = 0
    s.pools[COLOUR["blue"]] = 1
    s.bonus[0] = [BONUS["B01"]]  # Hamburg: Wine (blue)
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.HAM))
    assert map_cubes(s) == [0, 2, 1, 2, 1, 1, 1, 1]  # Danzig (yellow) got nothing
    assert goods_of(s, 0) == {"LIVESTOCK": 1, "MUSKETS": 1, "WINE": 1}
    assert s.pools[COLOUR["blue"]] == 0


def test_a_single_contract_cannot_be_sold():
    """8.3 / R5."""
    s = blank(3)
    hand(s, 0, "C30")
    s.coins[0] = 3
    start(s, DecisionKind.INVEST)
    assert cat.SELL[data.CONTRACT_INDEX["C30"]] not in legal(s)
    affordable = [k for k in range(4) if data.BONUS_COST[s.bonus_slots[k]] <= 3]
    assert legal(s) == [cat.BUY_BONUS[k] for k in affordable] + [cat.INVEST_DONE]


def test_peace_sold_in_a_final_turn_goes_to_the_discard_pile_without_a_new_trigger():
    """8.10 / 8.11 / R24: selling the Peace pays 14 and DONE waits until 15 coins or fewer."""
    s = blank(3)
    s.end_triggered = s.final_phase = True
    s.final_turns_left = 3
    hand(s, 0, "C78", "C02")
    s.bonus_slots = [BONUS["B09"], -1, -1, -1]  # costs 4
    s.bonus_deck = []
    s.building_slots = [-1] * 4
    s.coins[0] = 5
    start(s, DecisionKind.INVEST)
    s.apply(cat.SELL[data.PEACE])
    assert s.coins[0] == 19 and data.PEACE in s.discard
    assert legal(s) == [cat.BUY_BONUS[0], cat.DISCARD_COIN]
    s.apply(cat.DISCARD_COIN)
    # 18 coins: buying is still possible; after buying, 14 coins and DONE is the only option
    s.apply(cat.BUY_BONUS[0])
    assert s.coins[0] == 14 and s.decision_kind == "TRAVEL"
    assert s.final_turns_left == 3 and s.end_triggered


# --- 5.2 step 1: FINAL_PLACE for every tile cube of an owner of a type-dependent building -------
def _final_placement(
    buildings: tuple[str, ...], colours: tuple[str, ...], misprint: bool = False, **goods: int
):
    s = blank(2, alsterhaus_misprint=misprint)
    s.buildings[0] = [BUILDING[b] for b in buildings]
    kontor(s, 0, **goods)
    tile(s, 0, *colours)
    s.stage = PLACE_NEXT
    s.deciding = 0
    s._settle()
    return s


def test_final_place_is_asked_for_every_tile_cube_in_colour_order():
    """Table 4.9: "once per tile cube", whether or not that cube's goods are the ones the
    building reads (5.2 step 1 decides by the building, not by the cube)."""
    s = _final_placement(("K05",), ("red", "green", "blue"))  # Gewuerzspeicher: 2 per Spices
    asked = []
    while not s.is_over:
        assert s.decision_kind == "FINAL_PLACE" and s.current_seat == 0
        asked.append(s.view(0).final_place_colour)
        s.apply(s.legal_actions()[1])  # good B
    assert asked == [Colour.GREEN, Colour.BLUE, Colour.RED]
    assert goods_of(s, 0) == {"MUSKETS": 1, "WINE": 1, "SPICES": 1}


def test_final_place_is_asked_even_where_both_goods_score_alike():
    # Trankocherei pays at most at 4 Fish oil cubes: a fifth cannot change it, but the rules ask
    # by the building (type_dependent), not by the score.
    s = _final_placement(("K08",), ("purple",), FISH_OIL=4)
    assert s.decision_kind == "FINAL_PLACE" and s.view(0).final_place_colour == Colour.PURPLE
    s.apply(FinalPlace(Good.HAM))
    assert s.is_over and goods_of(s, 0) == {"FISH_OIL": 4, "HAM": 1}


def test_final_place_is_not_asked_without_a_type_dependent_building():
    # Boerse scores time markers; the misprinted Alsterhaus counts every cube alike (2.6).
    s = _final_placement(("K14",), ("green", "purple"))
    assert s.is_over and goods_of(s, 0) == {"LIVESTOCK": 1, "HAM": 1}
    s = _final_placement(("K01",), ("purple",), misprint=True)
    assert s.is_over and goods_of(s, 0) == {"HAM": 1}
    assert _final_placement(("K01",), ("purple",)).decision_kind == "FINAL_PLACE"
