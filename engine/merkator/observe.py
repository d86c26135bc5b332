"""Build a seat's view of a state (rules 6): all public state and nothing secret.

Secret, and therefore absent: the letters of face-down markers, the order of piles below their
top cards, the contents of the discard pile (only its size), the order of both decks (only their
sizes) and the RNG. Every seat sees the same information; only ``seat`` differs.
"""

from __future__ import annotations

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

if TYPE_CHECKING:
    from engine.merkator.state import MerkatorState

_MAP_ROWS = tuple((LOCATIONS[m], COLOURS[data.LOCATION_COLOUR[m]]) for m in data.MAJORS)


def build_view(state: MerkatorState, seat: int) -> MerkatorView:
    over = state.is_over
    misprint = state.misprint
    n = state.num_players
    return MerkatorView(
        seat=seat,
        join_needs_permission=state.permission,
        alsterhaus_misprint=misprint,
        max_rounds=state.max_rounds,
        decision=None if over else DecisionKind(state.stage),
        deciding_seat=None if over else state.deciding,
        active_seat=state.active,
        turn=state.turn,
        round=(state.turn - 1) // n + 1,
        end_triggered=state.end_triggered,
        final_phase=state.final_phase,
        final_turns_left=state.final_turns_left,
        figure=LOCATIONS[state.figure] if state.figure >= 0 else None,
        map=tuple(
            MapCubes(loc, colour, state.map_cubes[m])
            for m, (loc, colour) in zip(data.MAJORS, _MAP_ROWS)
        ),
        pools=tuple(state.pools),
        time_board=tuple(
            TimeMarker(
                row=i // data.ROW_SPACES + 1,
                space=i % data.ROW_SPACES + 1,
                letters=state.board_letters[i] if state.board_face_up[i] else "",
            )
            for i in range(state.board_next, data.BOARD_SPACES)
        ),
        piles=tuple(
            Pile(value, len(pile), cat.CONTRACT_CARDS[pile[-1]] if pile else None)
            for value, pile in state.piles.items()
        ),
        discard_count=len(state.discard),
        bonus_deck_count=len(state.bonus_deck),
        bonus_slots=tuple(
            BonusSlot(k + 1, cat.BONUS_CARDS[b] if b >= 0 else None)
            for k, b in enumerate(state.bonus_slots)
        ),
        building_deck_count=len(state.building_deck),
        building_slots=tuple(
            BuildingSlot(k + 1, cat.building_card(b, misprint) if b >= 0 else None)
            for k, b in enumerate(state.building_slots)
        ),
        players=tuple(_player(state, q) for q in range(n)),
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


def _player(state: MerkatorState, q: int) -> Player:
    done = state.fulfilled[q]
    return Player(
        seat=q,
        coins=state.coins[q],
        markers=state.markers[q],
        contracts=tuple(HeldContract(cat.CONTRACT_CARDS[c], c in done) for c in state.contracts[q]),
        kontor=tuple(state.kontor[q]),
        tile=tuple(COLOURS[c] for c, present in enumerate(state.tile[q]) if present),
        bonus_cards=tuple(cat.BONUS_CARDS[b] for b in state.bonus[q]),
        buildings=tuple(cat.building_card(b, state.misprint) for b in state.buildings[q]),
    )
