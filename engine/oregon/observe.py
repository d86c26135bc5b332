"""Build a seat's view of a state: exactly the rows of rules section 6 that seat may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.oregon import data
from engine.oregon.enums import BUILDING_TYPES, CARDS
from engine.oregon.views import OregonView, PlacedBuilding, PlacedFarmer, PlayerInfo

if TYPE_CHECKING:
    from engine.oregon.state import OregonState

_S = data.NUM_SYMBOLS


def build_view(state: OregonState, seat: int) -> OregonView:
    over = state.phase is None
    return OregonView(
        seat=seat,
        num_players=state.num_players,
        round=state.round,
        active_seat=None if over else state.active,
        decision=state.phase,
        in_extra_play=state.in_extra,
        end_triggered=state.end_triggered,
        game_over=over,
        terrain=data.TERRAIN,
        players=tuple(
            _player(state, s, reveal=over or s == seat) for s in range(state.num_players)
        ),
        hand=_cards_of(state.hands[seat]),
        farmers=tuple(
            PlacedFarmer(*data.row_col(sp), state.owner[sp])
            for sp in data.spaces_of(state.all_farmers())
        ),
        buildings=tuple(
            PlacedBuilding(
                *data.row_col(sp),
                BUILDING_TYPES[state.building_at[sp]],
                bool(state.start_mask >> sp & 1),
            )
            for sp in data.spaces_of(_all_buildings(state))
        ),
        stacks=tuple(state.stacks),
        landscape_deck_size=len(state.decks[0]),
        building_deck_size=len(state.decks[1]),
        landscape_discard=tuple(CARDS[c] for c in state.discards[0]),
        building_discard=tuple(CARDS[c] for c in state.discards[1]),
        out_of_game=tuple(CARDS[c] for c in state.out_of_game),
        coal_stack_size=len(state.coal_stack),
        gold_stack_size=len(state.gold_stack),
    )


def _all_buildings(state: OregonState) -> int:
    mask = 0
    for m in state.building_mask:
        mask |= m
    return mask


def _cards_of(hand: list[int]):
    return tuple(CARDS[c] for c in range(data.NUM_CARDS) for _ in range(hand[c]))


def _player(state: OregonState, s: int, reveal: bool) -> PlayerInfo:
    hand = state.hands[s]
    return PlayerInfo(
        seat=s,
        score=state.score[s],
        farmers_in_supply=state.supply[s],
        farmers_on_board=state.farmer_mask[s].bit_count(),
        joker_active=state.joker[s],
        extra_turn_active=state.extra[s],
        start_tile=BUILDING_TYPES[state.start_tile[s]],
        start_tile_placed=state.start_placed[s],
        landscape_cards=sum(hand[:_S]),
        building_cards=sum(hand[_S:]),
        coal_tiles=len(state.coal[s]),
        gold_tiles=len(state.gold[s]),
        # Values are private until final scoring (5.6); sorted so the order of receipt,
        # which is public anyway, is not needed to rebuild the view.
        coal_values=tuple(sorted(state.coal[s])) if reveal else (),
        gold_values=tuple(sorted(state.gold[s])) if reveal else (),
    )
