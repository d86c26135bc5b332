"""The worked examples of rules section 9 (E1-E16), with the spec's exact numbers."""

from __future__ import annotations

from engine.merkator import catalog as cat
from engine.merkator import data
from engine.merkator.actions import (
    DecisionKind,
    FinalPlace,
    Fulfil,
    Invest,
    InvestOption,
    Join,
    SplitCubes,
    SpoilChoose,
    TradeInput,
    Travel,
)
from engine.merkator.enums import Colour, Good, Location
from engine.merkator.state import PLACE_NEXT
from tests.engine.merkator.scenario import (
    BONUS,
    BUILDING,
    COLOUR,
    CONTRACT,
    LOC,
    blank,
    empty_pile,
    goods_of,
    hand,
    kontor,
    legal,
    map_cubes,
    put_on_pile,
    set_discard,
    set_map,
    start,
    tile,
)

SELL = {c: Invest(InvestOption.SELL, contract=c) for c in data.CONTRACT_IDS}
DONE = Invest(InvestOption.DONE)
FULFIL_DONE = Fulfil(done=True)


def spoil_good(name: str) -> SpoilChoose:
    return SpoilChoose(good=Good[name])


def spoil_tile(name: str) -> SpoilChoose:
    return SpoilChoose(tile=Colour[name.upper()])


def trade_good(name: str) -> TradeInput:
    return TradeInput(good=Good[name])


# --- E1 -----------------------------------------------------------------------------------------


def test_e1a_one_cube_either_good_and_restock_of_russia():
    s = start(blank(4), DecisionKind.TRAVEL)
    markers = s.markers[0]
    s.apply(Travel(Location.RUS))
    assert s.decision_kind == "SPLIT_CUBES"
    assert legal(s) == [SplitCubes(0), SplitCubes(1)]
    s.apply(SplitCubes(0))
    assert goods_of(s, 0) == {"FISH_OIL": 1}
    # Russia emptied; its line neighbours Sweden and Danzig +1; no time change
    assert map_cubes(s) == [1, 1, 2, 2, 1, 1, 0, 1]
    assert s.markers[0] == markers


def test_e1b_two_cubes_split_automatically():
    s = blank(4)
    set_map(s, 1, 1, 1, 1, 2, 1, 1, 1)
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.ENG))
    assert goods_of(s, 0) == {"CLOTH": 1, "COAL": 1}
    assert s.history == [data.LOCATION_IDS.index("ENG")]  # the split was not a real decision


def test_e1c_three_cubes_and_a_bonus_card():
    s = blank(4)
    set_map(s, 1, 1, 1, 1, 1, 3, 1, 1)
    s.bonus[0] = [BONUS["B06"]]
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.FRA))
    assert legal(s) == [SplitCubes(1), SplitCubes(2)]
    black = s.pools[COLOUR["black"]]
    s.apply(SplitCubes(2))
    assert goods_of(s, 0) == {"PLUMS": 2, "WINE": 1, "IRON": 2}
    assert s.pools[COLOUR["black"]] == black - 2


def test_e1d_five_cubes_give_four_options():
    s = blank(4)
    set_map(s, 5, 1, 1, 1, 1, 1, 1, 1)
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.HAM))
    assert legal(s) == [SplitCubes(a) for a in (1, 2, 3, 4)]


# --- E2, E3: restocking -----------------------------------------------------------------------


def test_e2_restock_after_a_major():
    s = blank(4)
    set_map(s, 2, 0, 1, 3, 1, 2, 2, 4)
    start(s, DecisionKind.TRAVEL)
    board = s.board_next
    s.apply(Travel(Location.HAM))
    assert goods_of(s, 0) == {"LIVESTOCK": 1, "MUSKETS": 1}
    assert map_cubes(s) == [0, 1, 2, 4, 1, 2, 2, 4]
    assert s.markers[0] == 2
    assert s.board_next == board + 2


def test_e3_restock_after_a_minor_with_threshold():
    s = blank(4)
    set_map(s, 3, 1, 2, 4, 0, 3, 2, 5)
    s.markers[0] = 3
    s.bonus[0] = [BONUS["B11"]]
    start(s, DecisionKind.TRAVEL)
    to_newfoundland = s.clone()
    s.apply(Travel(Location.BOH))
    assert goods_of(s, 0) == {"COPPER": 2}
    assert map_cubes(s) == [4, 1, 2, 5, 0, 4, 2, 6]
    assert 3 not in map_cubes(s)
    assert s.markers[0] == 1
    to_newfoundland.apply(Travel(Location.NEW))
    assert map_cubes(to_newfoundland) == [4, 2, 3, 5, 0, 4, 3, 6]


# --- E4-E6: spoilage ---------------------------------------------------------------------------


def _e4_position():
    s = blank(4, active=1)
    set_map(s, 1, 2, 1, 1, 1, 1, 1, 1)
    s.board_next = 17  # rows 1-2 empty, row 3 holds only space 6
    s.board_letters[17] = "E"
    s.board_letters[18] = "BB"
    kontor(s, 1, HAM=1, CITRUS=2, COAL=2)
    kontor(s, 2, PLUMS=1)
    kontor(s, 3, HAM=3, COPPER=1)
    tile(s, 3, "blue", "red")
    kontor(s, 0, COAL=1)
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.HOL))
    return s


def test_e4_row_emptied_offers_reflip():
    s = _e4_position()
    assert goods_of(s, 1) == {"VEGETABLES": 1, "CALFSKIN": 1, "HAM": 1, "CITRUS": 2, "COAL": 2}
    assert map_cubes(s) == [2, 0, 1, 1, 2, 2, 1, 1]
    assert s.decision_kind == "SPOILAGE_REFLIP" and s.current_seat == 1
    assert s.spoil_letters == "E"
    assert legal(s) == [cat.KEEP, cat.REFLIP]


def test_e4_keep_spoils_column_e_automatically():
    s = _e4_position()
    s.apply(cat.KEEP)
    assert goods_of(s, 1) == {"VEGETABLES": 1, "CALFSKIN": 1, "HAM": 1, "CITRUS": 2, "COAL": 1}
    assert goods_of(s, 2) == {"PLUMS": 1}
    assert goods_of(s, 3) == {"HAM": 3}
    assert goods_of(s, 0) == {}
    assert s.decision_kind == "TRAVEL" and s.current_seat == 2  # all automatic


def test_e4_reflip_double_b_and_the_next_trip():
    s = _e4_position()
    s.apply(cat.REFLIP)
    assert s.view(0).time_board[0].letters == "BB"
    assert (s.view(0).time_board[0].row, s.view(0).time_board[0].space) == (4, 1)
    assert s.current_seat == 1
    assert legal(s) == [spoil_good("HAM"), spoil_good("CITRUS")]
    s.apply(spoil_good("CITRUS"))
    assert legal(s) == [spoil_good("HAM"), spoil_good("CITRUS")]
    s.apply(spoil_good("CITRUS"))
    # seat 2 loses its only Plums automatically; seat 3 decides
    assert goods_of(s, 2) == {}
    assert s.current_seat == 3
    assert legal(s) == [spoil_good("HAM"), spoil_tile("blue"), spoil_tile("red")]
    s.apply(spoil_good("HAM"))
    assert legal(s) == [spoil_good("HAM"), spoil_tile("blue"), spoil_tile("red")]
    s.apply(spoil_good("HAM"))
    assert goods_of(s, 1) == {"VEGETABLES": 1, "CALFSKIN": 1, "HAM": 1, "COAL": 2}
    assert goods_of(s, 3) == {"HAM": 1, "COPPER": 1}
    assert s.tile[3][COLOUR["blue"]] == s.tile[3][COLOUR["red"]] == 1
    assert goods_of(s, 0) == {"COAL": 1}
    # next turn: seat 2 to Hamburg takes row 4 spaces 1 (the face-up BB) and 2, no check
    assert s.decision_kind == "TRAVEL" and s.current_seat == 2
    s.apply(Travel(Location.HAM))
    assert s.board_next == 20
    assert s.markers[2] == 2
    assert len([m for m in s.view(0).time_board if m.row == 4]) == 4
    assert s.decision_kind == "TRAVEL" and s.current_seat == 3


def test_e5a_gain_across_a_row_boundary_takes_the_reflipped_marker():
    s = blank(3)
    set_map(s, 2, 1, 1, 1, 1, 1, 1, 1)
    s.board_next = 17
    s.board_letters[17] = "C"
    s.board_letters[18] = "FF"
    kontor(s, 1, CLOTH=3)
    kontor(s, 2, CALFSKIN=1)
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.HAM))
    assert s.spoil_letters == "C"
    s.apply(cat.REFLIP)
    assert goods_of(s, 1) == {"CLOTH": 1}
    assert goods_of(s, 2) == {}
    assert s.board_next == 19  # the FF marker was the second marker of the gain
    assert len([m for m in s.view(0).time_board if m.row == 4]) == 5
    assert s.markers[0] == 2


def test_e5b_last_marker_spoils_without_reflip_and_triggers_the_end():
    s = blank(3)
    set_map(s, 2, 1, 1, 1, 1, 1, 1, 1)
    s.board_next = 35
    s.board_letters[35] = "A"
    kontor(s, 1, GRAIN=1)
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.HAM))
    assert goods_of(s, 0) == {"MUSKETS": 1}  # the Livestock spoiled (column A)
    assert goods_of(s, 1) == {}
    assert s.board_next == data.BOARD_SPACES
    assert s.markers[0] == 2  # the second marker came from the general supply
    assert s.end_triggered and s.final_phase
    assert s.active == 1 and s.final_turns_left == 3


def _e6_position():
    s = blank(3)
    kontor(s, 0, GRAIN=1)
    tile(s, 0, "green", "orange", "blue")
    kontor(s, 1, LIVESTOCK=1, VEGETABLES=2)
    tile(s, 1, "blue")
    tile(s, 2, "green")
    s._begin_spoilage("AA")
    s._settle()
    return s


def test_e6_double_letter_single_cube_and_tile_cubes():
    s = _e6_position()
    assert s.current_seat == 0
    assert legal(s) == [spoil_good("GRAIN"), spoil_tile("green"), spoil_tile("orange")]
    grain = s.clone()
    grain.apply(spoil_good("GRAIN"))
    assert goods_of(grain, 0) == {} and sum(grain.tile[0]) == 3  # lost 1 cube only
    assert grain.current_seat == 1

    s.apply(spoil_tile("green"))
    assert legal(s) == [spoil_good("GRAIN"), spoil_tile("orange")]
    keep_grain = s.clone()
    keep_grain.apply(spoil_tile("orange"))
    assert goods_of(keep_grain, 0) == {"GRAIN": 1}
    assert keep_grain.tile[0] == [1 if c == "blue" else 0 for c in data.COLOUR_IDS]
    s.apply(spoil_good("GRAIN"))
    assert goods_of(s, 0) == {}
    assert s.tile[0] == [1 if c in ("orange", "blue") else 0 for c in data.COLOUR_IDS]

    assert s.current_seat == 1
    assert legal(s) == [spoil_good("LIVESTOCK"), spoil_good("VEGETABLES")]
    s.apply(spoil_good("VEGETABLES"))
    s.apply(spoil_good("VEGETABLES"))
    assert goods_of(s, 1) == {"LIVESTOCK": 1}
    # Z (seat 2) has an empty column A: not asked, tile untouched; the game moved on
    assert s.decision_kind != "SPOIL_CHOOSE"
    assert s.tile[2][COLOUR["green"]] == 1


# --- E7: travel options -------------------------------------------------------------------------


def test_e7_travel_options_and_costs():
    s = blank(4)
    s.markers[0] = 1
    start(s, DecisionKind.TRAVEL)
    majors = [Travel(Location[m]) for m in ("HAM", "HOL", "DAN", "SWE", "ENG", "FRA", "RUS", "SPA")]
    assert legal(s) == majors + [Travel(Location.DEN)]
    s.markers[0] = 0
    start(s, DecisionKind.TRAVEL)
    assert legal(s) == majors[:7]
    s.markers[0] = 2
    s.figure = LOC["ITA"]  # the previous player went to Italy
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.ITA))
    assert s.markers[0] == 0
    assert data.JOIN_COST[LOC["SPA"]] == 1 and data.LOCATION_TIME[LOC["SPA"]] == -1
    assert data.JOIN_COST[LOC["DEN"]] == 2 and data.LOCATION_TIME[LOC["DEN"]] == -1


# --- E8: fulfilling with a trade ------------------------------------------------------------------


def _e8_position(markers: int = 3):
    s = blank(4)
    s.figure = LOC["DAN"]
    hand(s, 0, "C12", "C36", "C20")
    kontor(s, 0, IRON=2, FISH_OIL=1, GRAIN=3, WINE=2, MUSKETS=1, COPPER=1)
    tile(s, 0, "orange")
    s.markers[0] = markers
    put_on_pile(s, "C48")
    put_on_pile(s, "C17")
    return start(s, DecisionKind.FULFIL)


def test_e8_fulfil_with_a_four_to_one_trade():
    s = _e8_position()
    assert legal(s) == [Fulfil("C12"), Fulfil("C36"), FULFIL_DONE]
    pools = list(s.pools)
    s.apply(Fulfil("C36"))
    assert s.decision_kind == "TRADE_INPUT"
    options = [trade_good(g) for g in ("MUSKETS", "GRAIN", "COPPER", "WINE")]
    assert legal(s) == options
    s.apply(trade_good("GRAIN"))
    s.apply(trade_good("GRAIN"))
    assert legal(s) == options
    s.apply(trade_good("GRAIN"))
    assert legal(s) == [trade_good(g) for g in ("MUSKETS", "COPPER", "WINE")]
    s.apply(trade_good("WINE"))
    assert goods_of(s, 0) == {"WINE": 1, "MUSKETS": 1, "COPPER": 1}
    assert s.tile[0] == [0] * data.NUM_COLOURS
    assert s.markers[0] == 3
    returned = {c: s.pools[COLOUR[c]] - pools[COLOUR[c]] for c in data.COLOUR_IDS}
    assert returned == {
        "green": 0,
        "yellow": 3,
        "black": 2,
        "purple": 1,
        "orange": 1,
        "grey": 0,
        "blue": 1,
        "red": 0,
    }
    assert s.contracts[0] == sorted(CONTRACT[c] for c in ("C12", "C20", "C36", "C48"))
    # C12 and C48 are not payable: FULFIL held only DONE, applied automatically
    assert s.active == 1


def test_e8_order_matters():
    s = _e8_position()
    s.apply(Fulfil("C12"))
    assert not s._payable(0, CONTRACT["C36"])
    assert s.active == 1  # only DONE was left
    assert goods_of(s, 0)["IRON"] == 2


def test_e8_variant_with_four_markers():
    s = _e8_position(markers=4)
    s.apply(Fulfil("C36"))
    assert legal(s) == [cat.TRADE_MARKERS] + [
        trade_good(g) for g in ("MUSKETS", "GRAIN", "COPPER", "WINE")
    ]
    s.apply(cat.TRADE_MARKERS)
    assert s.markers[0] == 0
    assert goods_of(s, 0) == {"GRAIN": 3, "WINE": 2, "MUSKETS": 1, "COPPER": 1}
    assert legal(s) == [Fulfil("C12"), FULFIL_DONE]
    s.apply(Fulfil("C12"))
    assert legal(s) == [trade_good("GRAIN"), trade_good("WINE")]
    for good in ("GRAIN", "GRAIN", "WINE", "WINE"):
        s.apply(trade_good(good))
    assert goods_of(s, 0) == {"GRAIN": 1}
    assert s.active == 1


# --- E9: reward draws --------------------------------------------------------------------------


def _fulfil_position(contract: str, location: str, **goods: int):
    s = blank(4)
    s.figure = LOC[location]
    hand(s, 0, contract)
    kontor(s, 0, **goods)
    return s


def test_e9a_empty_pile_rebuilt_from_the_discard_pile():
    s = _fulfil_position("C57", "SWE", CALFSKIN=2, WINE=2, CITRUS=2, GRAIN=1)
    empty_pile(s, 8)
    set_discard(s, "C02", "C05", "C39", "C63", "C66")
    start(s, DecisionKind.FULFIL)
    s.apply(Fulfil("C57"))
    eights = {CONTRACT["C63"], CONTRACT["C66"]}
    (reward,) = set(s.contracts[0]) - {CONTRACT["C57"]}
    assert reward in eights
    assert s.piles[8] == list(eights - {reward})
    assert sorted(s.discard) == sorted(CONTRACT[c] for c in ("C02", "C05", "C39"))


def _e9_c70_position():
    s = _fulfil_position("C70", "SWE", PLUMS=2, CITRUS=2, CALFSKIN=2, CLOTH=2, LIVESTOCK=1)
    empty_pile(s, 10)
    empty_pile(s, 9)
    set_discard(s)
    return s


def test_e9b_same_value_fallback():
    s = _e9_c70_position()
    put_on_pile(s, "C73")
    start(s, DecisionKind.FULFIL)
    s.apply(Fulfil("C70"))
    assert s.contracts[0] == [CONTRACT["C70"], CONTRACT["C73"]]


def test_e9c_no_card_at_all():
    s = _e9_c70_position()
    start(s, DecisionKind.FULFIL)
    s.apply(Fulfil("C70"))
    assert s.contracts[0] == [CONTRACT["C70"]]
    assert goods_of(s, 0) == {}  # C70 was still fulfilled (paid)


def test_e9d_ten_after_the_peace():
    goods = dict(SPICES=2, FISH_OIL=2, WINE=2, MUSKETS=2, GRAIN=2)
    peace_discarded = _fulfil_position("C74", "HOL", **goods)
    set_discard(peace_discarded, "C78")
    start(peace_discarded, DecisionKind.FULFIL)
    peace_discarded.apply(Fulfil("C74"))
    assert data.PEACE in peace_discarded.contracts[0]

    no_peace = _fulfil_position("C74", "HOL", **goods)
    empty_pile(no_peace, 14)
    put_on_pile(no_peace, "C75")
    start(no_peace, DecisionKind.FULFIL)
    no_peace.apply(Fulfil("C74"))
    assert no_peace.contracts[0] == [CONTRACT["C74"], CONTRACT["C75"]]
    assert not no_peace.end_triggered


def test_e9e_value_two_rebuilds_pile_two():
    s = _fulfil_position("C05", "SWE", MUSKETS=1, SALTPETER=1)
    empty_pile(s, 3)
    set_discard(s, "C01", "C02", "C39")
    start(s, DecisionKind.FULFIL)
    s.apply(Fulfil("C05"))
    twos = {CONTRACT["C01"], CONTRACT["C02"]}
    (reward,) = set(s.contracts[0]) - {CONTRACT["C05"]}
    assert reward in twos
    assert s.piles[2] == list(twos - {reward})
    assert s.discard == [CONTRACT["C39"]]


# --- E10: forced investment --------------------------------------------------------------------


def _e10_position():
    s = blank(4)
    hand(s, 0, "C03", "C20", "C33", "C45", "C56", "C69")
    s.coins[0] = 10
    s.bonus_slots = [BONUS[b] for b in ("B05", "B12", "B02", "B16")]
    s.building_slots = [BUILDING[b] for b in ("K05", "K14", "K21", "K08")]
    s.building_deck = [b for b in s.building_deck if b != BUILDING["K16"]] + [BUILDING["K16"]]
    return start(s, DecisionKind.INVEST)


BUYS = [cat.BUY_BONUS[k] for k in range(4)] + [cat.BUY_BUILDING[k] for k in range(4)]


def test_e10_forced_investment_and_coin_limit():
    s = _e10_position()
    sells = [SELL[c] for c in ("C03", "C20", "C33", "C45", "C56", "C69")]
    assert legal(s) == sells + BUYS
    s.apply(SELL["C69"])
    assert s.coins[0] == 19
    assert legal(s) == sells[:5] + BUYS + [cat.DISCARD_COIN]
    discard = s.clone()
    s.apply(cat.BUY_BUILDING[0])
    assert s.coins[0] == 14
    assert s.building_slots[0] == BUILDING["K16"]
    assert legal(s) == sells[:5] + BUYS + [DONE]
    s.apply(DONE)
    assert s.decision_kind == "TRAVEL"
    assert len(s.contracts[0]) == 5 and s.coins[0] == 14
    assert s.buildings[0] == [BUILDING["K05"]]

    for _ in range(4):
        assert DONE not in legal(discard)
        discard.apply(cat.DISCARD_COIN)
    assert discard.coins[0] == 15
    assert legal(discard)[-1] == DONE and cat.DISCARD_COIN not in legal(discard)


# --- E11, E12: joining -------------------------------------------------------------------------


def _e11_position(**options):
    s = blank(4, **options)
    s.markers[0] = 2
    s.markers[1] = 3
    hand(s, 1, "C40")
    s.bonus[1] = [BONUS["B13"]]
    kontor(s, 1, CALFSKIN=2, MUSKETS=1)
    tile(s, 1, "yellow")
    s.markers[2] = 1
    hand(s, 2, "C28")
    s.markers[3] = 4
    put_on_pile(s, "C43")
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.ITA))
    return s


def test_e11_join_pays_the_active_player_and_gives_one_bonus_good():
    s = _e11_position()
    assert s.markers[0] == 0
    assert s.decision_kind == "JOIN" and s.current_seat == 1
    assert legal(s) == [Join(True), Join(False)]
    board = s.board_next
    s.apply(Join(True))
    assert s.markers[1] == 1 and s.markers[0] == 2
    assert goods_of(s, 1) == {"CALFSKIN": 2, "MUSKETS": 2}
    assert legal(s) == [Fulfil("C40"), FULFIL_DONE]
    s.apply(Fulfil("C40"))
    assert goods_of(s, 1) == {} and s.tile[1] == [0] * data.NUM_COLOURS
    assert s.contracts[1] == [CONTRACT["C40"], CONTRACT["C43"]]
    # seats 2 and 3 were not eligible: the turn ended
    assert s.active == 1 and s.decision_kind == "INVEST"
    assert s.markers[0] == 2 and s.board_next == board


def test_e11_with_permission_the_active_player_may_refuse():
    s = _e11_position(join_needs_permission=True)
    s.apply(Join(True))
    assert s.decision_kind == "PERMIT_JOIN" and s.current_seat == 0
    assert legal(s) == [cat.ALLOW, cat.REFUSE]
    s.apply(cat.REFUSE)
    assert s.markers[1] == 3 and s.markers[0] == 0
    assert goods_of(s, 1) == {"CALFSKIN": 2, "MUSKETS": 1}
    assert s.active == 1


def test_e12_two_bonus_cards_at_a_minor_and_a_tile_cube_for_c25():
    s = blank(4)
    set_map(s, 4, 1, 2, 5, 0, 4, 2, 6)
    s.bonus[0] = [BONUS["B09"], BONUS["B10"]]
    s.markers[0] = 1
    hand(s, 0, "C25")
    kontor(s, 0, CITRUS=2, SPICES=1)
    tile(s, 0, "red")
    s.bonus[1] = [BONUS["B09"], BONUS["B10"]]
    s.markers[1] = 2
    put_on_pile(s, "C30")
    start(s, DecisionKind.TRAVEL)
    s.apply(Travel(Location.DEN))
    assert goods_of(s, 0) == {"LIVESTOCK": 2, "HAM": 2, "CITRUS": 2, "SPICES": 1}
    assert map_cubes(s) == [5, 1, 2, 6, 0, 5, 2, 7]
    assert s.markers[0] == 0
    assert legal(s) == [Fulfil("C25"), FULFIL_DONE]
    s.apply(Fulfil("C25"))
    assert goods_of(s, 0) == {"LIVESTOCK": 2, "HAM": 2}
    assert s.decision_kind == "JOIN" and s.current_seat == 1
    s.apply(Join(True))
    assert goods_of(s, 1) == {"LIVESTOCK": 1, "HAM": 1}
    assert s.markers[1] == 0 and s.markers[0] == 2


# --- E13: once per turn ---------------------------------------------------------------------------


def test_e13_once_per_turn_and_a_reward_fulfilled_at_once():
    s = blank(4)
    s.figure = LOC["HAM"]
    hand(s, 0, "C17")
    kontor(s, 0, HAM=4, CALFSKIN=1, COAL=2, IRON=2)
    s.markers[0] = 1
    put_on_pile(s, "C30")
    put_on_pile(s, "C43")
    start(s, DecisionKind.FULFIL)
    assert legal(s) == [Fulfil("C17"), FULFIL_DONE]
    s.apply(Fulfil("C17"))
    assert s.contracts[0] == [CONTRACT["C17"], CONTRACT["C30"]]
    assert legal(s) == [Fulfil("C30"), FULFIL_DONE]
    s.apply(Fulfil("C30"))
    assert goods_of(s, 0) == {}
    assert CONTRACT["C43"] in s.contracts[0]
    # seat 1's turn: seat 0 may join at Hamburg and fulfil C17 again
    assert s.active == 1 and s.decision_kind == "TRAVEL"
    assert s.fulfilled[0] == set()
    kontor(s, 0, HAM=2, CALFSKIN=1, COAL=1)
    s.apply(Travel(Location.HAM))
    s.apply(SplitCubes(1))
    assert s.decision_kind == "JOIN" and s.current_seat == 0
    s.apply(Join(True))
    assert legal(s) == [Fulfil("C17"), FULFIL_DONE]


# --- E14: the Peace and the final turns ----------------------------------------------------------


def _play_out(s, seat0_destination: Location = Location.HAM) -> list[int]:
    """Play to the end: pass every JOIN, DONE when listed, seat 0 travels to ``seat0_destination``
    and others to France; returns the active seat of every TRAVEL decision."""
    travellers = []
    while not s.is_over:
        options = legal(s)
        if s.decision_kind == "TRAVEL":
            travellers.append(s.active)
            where = seat0_destination if s.active == 0 else Location.FRA
            s.apply(Travel(where))
        elif s.decision_kind == "JOIN":
            s.apply(Join(False))
        elif s.decision_kind == "INVEST" and DONE in options:
            s.apply(DONE)
        elif s.decision_kind == "FULFIL":
            s.apply(FULFIL_DONE)
        else:
            s.apply_index(0)
    return travellers


def _e14_position():
    s = blank(4, active=2)
    s.figure = LOC["HOL"]
    hand(s, 2, "C74")
    kontor(s, 2, SPICES=2, FISH_OIL=2, WINE=2, MUSKETS=2, GRAIN=2)
    hand(s, 3, "C04", "C02", "C03", "C05", "C06", "C08", "C09")
    hand(s, 0, "C07")
    hand(s, 1, "C18")
    for seat in (3, 0, 1):
        s.markers[seat] = 1
    return s


def test_e14_peace_triggers_the_end_and_the_final_turns():
    s = start(_e14_position(), DecisionKind.FULFIL)
    s.apply(Fulfil("C74"))
    assert s.end_triggered and not s.final_phase
    assert data.PEACE in s.contracts[2]
    # seat 2 has nothing more to fulfil; seats 3, 0 and 1 are offered JOIN as usual
    for seat in (3, 0, 1):
        assert s.decision_kind == "JOIN" and s.current_seat == seat
        s.apply(Join(False))
    assert s.final_phase and s.active == 3 and s.final_turns_left == 4
    assert s.decision_kind == "INVEST" and DONE in legal(s)  # seven contracts, no forced sale
    s.apply(DONE)
    board, letters = s.board_next, list(s.board_letters)
    markers = s.markers[0]
    travellers = _play_out(s)
    assert s.board_next == board and s.board_letters == letters  # from the general supply
    assert s.markers[0] == markers + 2
    assert travellers == [3, 0, 1, 2]
    assert s.is_over


def test_e14_peace_taken_by_a_joiner_gives_the_same_final_turns():
    s = blank(4, active=2)
    s.figure = LOC["HOL"]
    hand(s, 1, "C74")
    kontor(s, 1, SPICES=2, FISH_OIL=2, WINE=2, MUSKETS=2, GRAIN=2)
    s.markers[1] = 1
    start(s, DecisionKind.FULFIL)
    assert s.decision_kind == "JOIN" and s.current_seat == 1
    s.apply(Join(True))
    s.apply(Fulfil("C74"))
    assert s.end_triggered
    assert _play_out(s) == [3, 0, 1, 2]


# --- E15, E16: scoring and the tie-break ----------------------------------------------------------


def _scoring_position(b_markers: int):
    s = blank(2)
    hand(s, 0, "C78", "C74", "C71", "C57", "C45", "C46", "C33")
    s.buildings[0] = [BUILDING["K05"]]
    kontor(s, 0, SPICES=2)
    tile(s, 0, "red")
    s.markers[0] = 4
    hand(s, 1, "C75", "C70", "C62", "C53", "C55", "C30", "C17", "C02")
    s.buildings[1] = [BUILDING["K21"], BUILDING["K18"]]
    s.bonus[1] = [BONUS[b] for b in ("B01", "B02", "B03", "B04")]
    s.markers[1] = b_markers
    s.stage = PLACE_NEXT
    s.deciding = 0
    s._settle()
    return s


def test_e15_final_place_and_contract_halves():
    s = _scoring_position(b_markers=6)
    assert s.decision_kind == "FINAL_PLACE" and s.current_seat == 0
    assert legal(s) == [FinalPlace(Good.CITRUS), FinalPlace(Good.SPICES)]
    s.apply(FinalPlace(Good.SPICES))
    assert s.is_over
    assert goods_of(s, 0) == {"SPICES": 3}
    assert s.result().scores[0] == 57.5
    assert s.result().details[0].startswith("57.5 points: contracts 51.5, Gewuerzspeicher 6")


def test_e15_owner_of_only_boerse_is_not_asked():
    s = blank(2)
    s.buildings[0] = [BUILDING["K14"]]
    tile(s, 0, "green", "blue")
    s.stage = PLACE_NEXT
    s.deciding = 0
    s._settle()
    assert s.is_over
    assert goods_of(s, 0) == {"LIVESTOCK": 1, "PLUMS": 1}


def test_e16_tie_broken_by_time_markers():
    s = _scoring_position(b_markers=6)
    s.apply(FinalPlace(Good.SPICES))
    assert s.result().scores == (57.5, 57.5)
    assert (
        s.result()
        .details[1]
        .startswith("57.5 points: contracts 46.5, Waisenhaus 3, Admiralitaet 8")
    )
    assert s.result().ranks == (2, 1)
    equal = _scoring_position(b_markers=4)
    equal.apply(FinalPlace(Good.SPICES))
    assert equal.result().ranks == (1, 1)
