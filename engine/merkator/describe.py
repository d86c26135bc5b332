"""Merkator's actions in words, for people watching a game ("sell contract C05", "travel to
Hamburg")."""

from __future__ import annotations

import enum
from typing import Any

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


def _name(member: enum.Enum) -> str:
    return member.name.lower().replace("_", " ")


def _cube(good: Any, tile: Any) -> str:
    return f"a {_name(good)} cube" if good is not None else f"the {_name(tile)} supply-tile cube"


def describe_action(action: Any) -> str:
    if isinstance(action, Invest):
        return {
            InvestOption.SELL: f"sell contract {action.contract}",
            InvestOption.BUY_BONUS: f"buy the bonus card in slot {action.slot}",
            InvestOption.BUY_BUILDING: f"buy the building in slot {action.slot}",
            InvestOption.DISCARD_COIN: "discard a coin",
            InvestOption.DONE: "finish investing",
        }[action.option]
    if isinstance(action, Travel):
        return f"travel to {data.LOCATION_NAMES[action.location.value - 1]}"
    if isinstance(action, SplitCubes):
        return f"split the cubes: {action.good_a} of the colour's first good, the rest the second"
    if isinstance(action, SpoilageReflip):
        return "flip the spoilage marker again" if action.reflip else "keep the spoilage marker"
    if isinstance(action, SpoilChoose):
        return f"lose {_cube(action.good, action.tile)}"
    if isinstance(action, Fulfil):
        return "fulfil nothing more" if action.done else f"fulfil contract {action.contract}"
    if isinstance(action, TradeInput):
        return "pay 4 time markers" if action.markers else f"pay {_cube(action.good, action.tile)}"
    if isinstance(action, Join):
        return "join the trade" if action.join else "do not join"
    if isinstance(action, PermitJoin):
        return "allow the join" if action.allow else "refuse the join"
    if isinstance(action, FinalPlace):
        return f"place a {_name(action.good)} cube"
    raise TypeError(f"not a Merkator action: {action!r}")
