"""Prebuilt immutable objects: every possible action and the public form of every card.

Legal-action lists and views are assembled from these shared instances, so random play allocates
almost nothing per decision.
"""

from __future__ import annotations

from engine.merkator import data
from engine.merkator.actions import (
    FinalPlace,
    Fulfil,
    Invest,
    InvestOption,
    Join,
    PermitJoin,
    SplitCubes,
    SpoilageReflip,
    SpoilChoose,
    TradeInput,
    Travel,
)
from engine.merkator.enums import COLOURS, GOODS, LOCATIONS
from engine.merkator.views import BonusCard, Building, Contract, GoodCount

SELL = tuple(Invest(InvestOption.SELL, contract=c) for c in data.CONTRACT_IDS)
BUY_BONUS = tuple(Invest(InvestOption.BUY_BONUS, slot=k + 1) for k in range(data.DISPLAY_SIZE))
BUY_BUILDING = tuple(
    Invest(InvestOption.BUY_BUILDING, slot=k + 1) for k in range(data.DISPLAY_SIZE)
)
DISCARD_COIN = Invest(InvestOption.DISCARD_COIN)
INVEST_DONE = Invest(InvestOption.DONE)

TRAVEL = tuple(Travel(loc) for loc in LOCATIONS)
# SPLIT[a]: a cubes become good A; a major can hold every cube of its colour
SPLIT = tuple(SplitCubes(a) for a in range(max(data.CUBES_PER_COLOUR) + 1))
KEEP = SpoilageReflip(False)
REFLIP = SpoilageReflip(True)
SPOIL_GOOD = tuple(SpoilChoose(good=g) for g in GOODS)
SPOIL_TILE = tuple(SpoilChoose(tile=c) for c in COLOURS)
FULFIL = tuple(Fulfil(contract=c) for c in data.CONTRACT_IDS)
FULFIL_DONE = Fulfil(done=True)
TRADE_MARKERS = TradeInput(markers=True)
TRADE_GOOD = tuple(TradeInput(good=g) for g in GOODS)
TRADE_TILE = tuple(TradeInput(tile=c) for c in COLOURS)
JOIN = Join(True)
PASS = Join(False)
ALLOW = PermitJoin(True)
REFUSE = PermitJoin(False)
FINAL_PLACE = tuple(FinalPlace(g) for g in GOODS)
# the two FINAL_PLACE options of each colour: good A, good B
FINAL_PLACE_OPTIONS = tuple((FINAL_PLACE[a], FINAL_PLACE[b]) for a, b in data.COLOUR_GOODS)

CONTRACT_CARDS = tuple(
    Contract(
        id=data.CONTRACT_IDS[c],
        value=data.CONTRACT_VALUE[c],
        location=LOCATIONS[data.CONTRACT_LOCATION[c]] if data.CONTRACT_LOCATION[c] >= 0 else None,
        goods=tuple(GoodCount(GOODS[g], n) for g, n in data.CONTRACT_GOODS[c]),
    )
    for c in range(data.NUM_CONTRACTS)
)
BONUS_CARDS = tuple(
    BonusCard(
        id=data.BONUS_IDS[b],
        location=LOCATIONS[data.BONUS_LOCATION[b]],
        good=GOODS[data.BONUS_GOOD[b]],
        cost=data.BONUS_COST[b],
    )
    for b in range(data.NUM_BONUS)
)


def building_card(k: int, misprint: bool) -> Building:
    """Building ``k`` as shown in views; the Alsterhaus misprint option changes its rule."""
    return _BUILDING_CARDS[misprint][k]


def _building(k: int, misprint: bool) -> Building:
    alsterhaus = misprint and k == data.ALSTERHAUS
    scoring = data.ALSTERHAUS_MISPRINT if alsterhaus else data.BUILDING_SCORING[k]
    return Building(
        id=data.BUILDING_IDS[k],
        name=data.BUILDING_NAMES[k],
        cost=data.BUILDING_COST[k],
        type_dependent=data.BUILDING_TYPE_DEPENDENT[k] and not alsterhaus,
        rule=data.building_rule_text(scoring),
    )


_BUILDING_CARDS = {
    misprint: tuple(_building(k, misprint) for k in range(data.NUM_BUILDINGS))
    for misprint in (False, True)
}
