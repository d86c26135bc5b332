"""The view a Merkator seat receives (rules 6): all public state and nothing secret.

Each dataclass mirrors a message of proto/arena/bot/v1/merkator.proto field by field (the .proto
documents every field for bot authors)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.merkator.actions import DecisionKind
from engine.merkator.enums import Colour, Good, Location


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
    decision: DecisionKind | None
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
