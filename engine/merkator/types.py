"""Merkator's public types: enums, the view a seat receives and the actions it may choose.

Each dataclass mirrors a message of proto/arena/bot/v1/merkator.proto field by field (the .proto
documents every field for bot authors). Goods, colours and locations enums are built from the data
file, in its canonical order, so enum value = data index + 1.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.merkator import data

Good = enum.IntEnum("Good", list(data.GOOD_IDS))
Colour = enum.IntEnum("Colour", [c.upper() for c in data.COLOUR_IDS])
Location = enum.IntEnum("Location", list(data.LOCATION_IDS))
GOODS: tuple[Good, ...] = tuple(Good)
COLOURS: tuple[Colour, ...] = tuple(Colour)
LOCATIONS: tuple[Location, ...] = tuple(Location)


class Decision(enum.IntEnum):
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


# --- actions: one dataclass per decision kind -----------------------------------------------------


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
    Invest | Travel | SplitCubes | SpoilageReflip | SpoilChoose | Fulfil | TradeInput | Join
    | PermitJoin | FinalPlace
)

# --- the view -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GoodCount:
    good: Good
    count: int


@dataclass(frozen=True, slots=True)
class Contract:
    id: str
    value: int
    location: Location | None  # None for the Peace of Westphalia
    goods: tuple[GoodCount, ...]


@dataclass(frozen=True, slots=True)
class HeldContract:
    contract: Contract
    fulfilled_this_turn: bool


@dataclass(frozen=True, slots=True)
class BonusCard:
    id: str
    location: Location
    good: Good
    cost: int


@dataclass(frozen=True, slots=True)
class Building:
    id: str
    name: str
    cost: int
    type_dependent: bool
    rule: str


@dataclass(frozen=True, slots=True)
class BonusSlot:
    slot: int
    card: BonusCard | None


@dataclass(frozen=True, slots=True)
class BuildingSlot:
    slot: int
    card: Building | None


@dataclass(frozen=True, slots=True)
class Pile:
    value: int
    count: int
    top: Contract | None


@dataclass(frozen=True, slots=True)
class TimeMarker:
    """A marker on the time board; ``letters`` is "" while it lies face down."""

    row: int
    space: int
    letters: str


@dataclass(frozen=True, slots=True)
class MapCubes:
    location: Location
    colour: Colour
    cubes: int


@dataclass(frozen=True, slots=True)
class Player:
    seat: int
    coins: int
    markers: int
    contracts: tuple[HeldContract, ...]
    kontor: tuple[int, ...]  # cubes per good, in Good order
    tile: tuple[Colour, ...]  # colours whose cube is still on the supply tile
    bonus_cards: tuple[BonusCard, ...]
    buildings: tuple[Building, ...]


@dataclass(frozen=True, slots=True)
class MerkatorView:
    seat: int
    # options of this game
    join_needs_permission: bool
    alsterhaus_misprint: bool
    max_rounds: int
    # whose decision, and where the turn stands
    decision: Decision | None
    deciding_seat: int | None
    active_seat: int
    turn: int
    round: int
    end_triggered: bool
    final_phase: bool
    final_turns_left: int
    # the board
    figure: Location | None
    map: tuple[MapCubes, ...]
    pools: tuple[int, ...]  # cubes per colour, in Colour order
    time_board: tuple[TimeMarker, ...]
    piles: tuple[Pile, ...]
    discard_count: int
    bonus_deck_count: int
    bonus_slots: tuple[BonusSlot, ...]
    building_deck_count: int
    building_slots: tuple[BuildingSlot, ...]
    players: tuple[Player, ...]
    # context of the pending decision
    gain_left: int
    spoil_letters: str
    spoil_loss_left: int
    trade_contract: str
    trades_left: int
    trade_inputs: int
    joiner: int | None
    final_place_colour: Colour | None
