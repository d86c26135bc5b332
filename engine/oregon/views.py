"""What one seat may see (rules section 6), as frozen dataclasses mirrored by oregon.proto."""

from __future__ import annotations

from dataclasses import dataclass

from engine.oregon.actions import DecisionKind
from engine.oregon.enums import Building, Card


@dataclass(frozen=True, slots=True)
class PlacedFarmer:
    row: int
    col: int
    seat: int


@dataclass(frozen=True, slots=True)
class PlacedBuilding:
    row: int
    col: int
    building: Building
    start_tile: bool


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """One seat's public state; ``coal_values``/``gold_values`` are filled only for the viewing
    seat itself, and for everyone once the game is over."""

    seat: int
    score: int  # track points, without coal and gold
    farmers_in_supply: int
    farmers_on_board: int
    joker_active: bool
    extra_turn_active: bool
    start_tile: Building
    start_tile_placed: bool
    landscape_cards: int
    building_cards: int
    coal_tiles: int
    gold_tiles: int
    coal_values: tuple[int, ...]
    gold_values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class OregonView:
    seat: int
    num_players: int
    round: int
    active_seat: int | None  # None once the game is over
    decision: DecisionKind | None  # the active seat's pending decision; None once over
    in_extra_play: bool  # the pending decision is the turn's extra PLAY (false at any other)
    end_triggered: bool
    game_over: bool
    terrain: tuple[str, ...]  # the map, one string of terrain letters per row
    players: tuple[PlayerInfo, ...]
    hand: tuple[Card, ...]  # the viewing seat's cards, canonical order
    farmers: tuple[PlacedFarmer, ...]  # row-major
    buildings: tuple[PlacedBuilding, ...]  # row-major
    stacks: tuple[int, ...]  # tiles left per building type, canonical order
    landscape_deck_size: int
    building_deck_size: int
    landscape_discard: tuple[Card, ...]  # bottom first
    building_discard: tuple[Card, ...]  # bottom first
    out_of_game: tuple[Card, ...]  # dead building cards, in the order they left
    coal_stack_size: int
    gold_stack_size: int
