"""Build a seat's view of a state (rules 6): all public state and nothing secret.

Secret, and therefore absent: the letters of face-down markers, the order of piles below their
top cards, the contents of the discard pile (only its size), the order of both decks (only their
sizes) and the RNG. Every seat sees the same information; only ``seat`` differs.
"""

from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING

from engine.merkator import catalog as cat
from engine.merkator import data
from engine.merkator.actions import DecisionKind
from engine.merkator.enums import COLOURS, LOCATIONS
from engine.merkator.views import (
    BonusSlot,
    BuildingSlot,
    HeldContract,
    MapCubes,
    MerkatorView,
    Pile,
    Player,
    TimeMarker,
)
from engine.parts import PartCache, field_values, interned

if TYPE_CHECKING:
    from engine.merkator.state import MerkatorState

_DECISIONS = {kind.value: kind for kind in DecisionKind}  # a look-up; DecisionKind(n) costs more
_MAP_ROWS = tuple((LOCATIONS[m], COLOURS[data.LOCATION_COLOUR[m]]) for m in data.MAJORS)


_view_fields = field_values(MerkatorView)


def build_view(state: MerkatorState, seat: int) -> MerkatorView:
    return MerkatorView(*view_fields(state, seat))


def view_fields(state: MerkatorState, seat: int) -> tuple:
    """``build_view``'s fields in order (``engine.core.GameState.view_fields``)."""
    over = state.is_over
    misprint = state.misprint
    n = state.num_players
    return _view_fields(
        seat=seat,
        join_needs_permission=state.permission,
        alsterhaus_misprint=misprint,
        max_rounds=state.max_rounds,
        decision=None if over else _DECISIONS[state.stage],
        deciding_seat=None if over else state.deciding,
        active_seat=state.active,
        turn=state.turn,
        round=(state.turn - 1) // n + 1,
        end_triggered=state.end_triggered,
        final_phase=state.final_phase,
        final_turns_left=state.final_turns_left,
        figure=LOCATIONS[state.figure] if state.figure >= 0 else None,
        map=_map(tuple(state.map_cubes)),
        pools=tuple(state.pools),
        time_board=_time_board(
            (state.board_next, tuple(state.board_face_up), tuple(state.board_letters))
        ),
        piles=_piles(tuple(zip(state.piles, map(tuple, state.piles.values())))),
        discard_count=len(state.discard),
        bonus_deck_count=len(state.bonus_deck),
        bonus_slots=_bonus_slots(tuple(state.bonus_slots)),
        building_deck_count=len(state.building_deck),
        building_slots=_building_slots((tuple(state.building_slots), misprint)),
        players=_players(state),
        gain_left=state.gain_left,
        spoil_letters=state.spoil_letters,
        spoil_loss_left=state.spoil_loss_left,
        trade_contract=(
            data.CONTRACT_IDS[state.trade_contract] if state.trade_contract >= 0 else ""
        ),
        trades_left=state.trades_left,
        trade_inputs=state.trade_inputs,
        joiner=state.joiner if state.joiner >= 0 else None,
        final_place_colour=(
            COLOURS[state.final_place_colour] if state.final_place_colour >= 0 else None
        ),
    )


# Parts by the state content they show (engine.parts).
def _build_map(cubes: tuple[int, ...]) -> tuple[MapCubes, ...]:
    return tuple(
        [_map_cubes((loc, colour, cubes[m])) for m, (loc, colour) in zip(data.MAJORS, _MAP_ROWS)]
    )


def _build_time_board(
    board: tuple[int, tuple[bool, ...], tuple[str, ...]],
) -> tuple[TimeMarker, ...]:
    first, face_up, letters = board
    return tuple(
        [
            _time_marker(
                (
                    i // data.ROW_SPACES + 1,
                    i % data.ROW_SPACES + 1,
                    letters[i] if face_up[i] else "",
                )
            )
            for i in range(first, data.BOARD_SPACES)
        ]
    )


def _build_piles(piles: tuple[tuple[int, tuple[int, ...]], ...]) -> tuple[Pile, ...]:
    """From (value, cards) per pile (a key made by C-level maps): the views show each pile's
    size and top card only."""
    return tuple(
        [
            _pile((value, len(pile), cat.CONTRACT_CARDS[pile[-1]] if pile else None))
            for value, pile in piles
        ]
    )


def _build_bonus_slots(slots: tuple[int, ...]) -> tuple[BonusSlot, ...]:
    return tuple(
        [_bonus_slot((k + 1, cat.BONUS_CARDS[b] if b >= 0 else None)) for k, b in enumerate(slots)]
    )


def _build_building_slots(slots: tuple[tuple[int, ...], bool]) -> tuple[BuildingSlot, ...]:
    cards, misprint = slots
    return tuple(
        [
            _building_slot((k + 1, cat.building_card(b, misprint) if b >= 0 else None))
            for k, b in enumerate(cards)
        ]
    )


def _build_player(player: tuple) -> Player:
    """From the seat's fields as ``_players`` lists them."""
    q, coins, markers, contracts, done, kontor, tile, bonus, buildings, misprint = player
    return Player(
        seat=q,
        coins=coins,
        markers=markers,
        contracts=tuple([_held_contract((cat.CONTRACT_CARDS[c], c in done)) for c in contracts]),
        kontor=kontor,
        tile=tuple([COLOURS[c] for c, present in enumerate(tile) if present]),
        bonus_cards=tuple([cat.BONUS_CARDS[b] for b in bonus]),
        buildings=tuple([cat.building_card(b, misprint) for b in buildings]),
    )


_map_cubes = interned(MapCubes)
_time_marker = interned(TimeMarker)
_pile = interned(Pile)
_bonus_slot = interned(BonusSlot)
_building_slot = interned(BuildingSlot)
_held_contract = interned(HeldContract)
_map = PartCache(_build_map)
_time_board = PartCache(_build_time_board)
_piles = PartCache(_build_piles)
_bonus_slots = PartCache(_build_bonus_slots)
_building_slots = PartCache(_build_building_slots)
_player_by_fields = PartCache(_build_player)


def _players(state: MerkatorState) -> tuple[Player, ...]:
    # Each seat's fields, zipped and looked up by C-level maps (a view shows every seat).
    return tuple(
        map(
            _player_by_fields,
            zip(
                range(state.num_players),
                state.coins,
                state.markers,
                map(tuple, state.contracts),
                map(frozenset, state.fulfilled),
                map(tuple, state.kontor),
                map(tuple, state.tile),
                map(tuple, state.bonus),
                map(tuple, state.buildings),
                repeat(state.misprint),
            ),
        )
    )
