"""Merkator's decision kinds (rules 4.9) and its actions, one dataclass per kind;
``MerkatorAction`` is their union. Each dataclass mirrors a message of
proto/arena/bot/v1/merkator.proto field by field (the .proto documents every field)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.merkator.enums import Colour, Good, Location


class DecisionKind(enum.IntEnum):
    """The decision kinds of rules 4.9."""

    INVEST = 1
    TRAVEL = 2
    SPLIT_CUBES = 3
    SPOILAGE_REFLIP = 4
    SPOIL_CHOOSE = 5
    FULFIL = 6
    TRADE_INPUT = 7
    JOIN = 8
    PERMIT_JOIN = 9
    FINAL_PLACE = 10


class InvestOption(enum.IntEnum):
    SELL = 1
    BUY_BONUS = 2
    BUY_BUILDING = 3
    DISCARD_COIN = 4
    DONE = 5


@dataclass(frozen=True, slots=True)
class Invest:
    """INVEST: ``contract`` is set for SELL, ``slot`` (1-4) for BUY_BONUS / BUY_BUILDING."""

    option: InvestOption
    contract: str = ""
    slot: int = 0


@dataclass(frozen=True, slots=True)
class Travel:
    location: Location


@dataclass(frozen=True, slots=True)
class SplitCubes:
    """How many of the major's cubes become good A of its colour (the rest become good B)."""

    good_a: int


@dataclass(frozen=True, slots=True)
class SpoilageReflip:
    reflip: bool


@dataclass(frozen=True, slots=True)
class SpoilChoose:
    """Exactly one of ``good`` (a Kontor cube) and ``tile`` (a supply-tile cube) is set."""

    good: Good | None = None
    tile: Colour | None = None


@dataclass(frozen=True, slots=True)
class Fulfil:
    """Fulfil ``contract`` (an ID such as "C12"), or ``done`` to end the fulfil loop."""

    contract: str = ""
    done: bool = False


@dataclass(frozen=True, slots=True)
class TradeInput:
    """One input of a trade: 4 ``markers`` at once, or one cube (``good`` or ``tile``)."""

    markers: bool = False
    good: Good | None = None
    tile: Colour | None = None


@dataclass(frozen=True, slots=True)
class Join:
    join: bool


@dataclass(frozen=True, slots=True)
class PermitJoin:
    allow: bool


@dataclass(frozen=True, slots=True)
class FinalPlace:
    good: Good


MerkatorAction = (
    Invest
    | Travel
    | SplitCubes
    | SpoilageReflip
    | SpoilChoose
    | Fulfil
    | TradeInput
    | Join
    | PermitJoin
    | FinalPlace
)
