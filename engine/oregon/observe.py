"""Build a seat's view of a state: exactly the rows of rules section 6 that seat may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.oregon import data
from engine.oregon.enums import BUILDING_TYPES, CARDS, Card
from engine.oregon.views import OregonView, PlacedBuilding, PlacedFarmer, PlayerInfo
from engine.parts import PartCache, field_values, interned

if TYPE_CHECKING:
    from engine.oregon.state import OregonState

_S = data.NUM_SYMBOLS
_view_fields = field_values(OregonView)


def build_view(state: OregonState, seat: int) -> OregonView:
    return OregonView(*view_fields(state, seat))


def view_fields(state: OregonState, seat: int) -> tuple:
    """``build_view``'s fields in order (``engine.core.GameState.view_fields``)."""
    over = state.phase is None
    return _view_fields(
        seat=seat,
        num_players=state.num_players,
        round=state.round,
        active_seat=None if over else state.active,
        decision=state.phase,
        in_extra_play=state.in_extra,
        end_triggered=state.end_triggered,
        game_over=over,
        terrain=data.TERRAIN,
        players=_players(state, seat, over),
        hand=_hand(tuple(state.hands[seat])),
        farmers=_farmers(tuple(state.farmer_mask)),
        buildings=_buildings((tuple(state.building_mask), state.start_mask)),
        stacks=tuple(state.stacks),
        landscape_deck_size=len(state.decks[0]),
        building_deck_size=len(state.decks[1]),
        landscape_discard=_cards(tuple(state.discards[0])),
        building_discard=_cards(tuple(state.discards[1])),
        out_of_game=_cards(tuple(state.out_of_game)),
        coal_stack_size=len(state.coal_stack),
        gold_stack_size=len(state.gold_stack),
    )


# Parts by the state content they show (engine.parts): the farmers by each seat's farmer mask,
# the buildings by each type's mask and the start tiles' mask, a hand by its counts per card.
def _build_farmers(masks: tuple[int, ...]) -> tuple[PlacedFarmer, ...]:
    owner = {sp: seat for seat, mask in enumerate(masks) for sp in data.spaces_of(mask)}
    return tuple([_farmer((*data.row_col(sp), owner[sp])) for sp in sorted(owner)])


def _build_buildings(masks: tuple[tuple[int, ...], int]) -> tuple[PlacedBuilding, ...]:
    by_type, start_mask = masks
    kind = {sp: b for b, mask in enumerate(by_type) for sp in data.spaces_of(mask)}
    return tuple(
        [
            _building((*data.row_col(sp), BUILDING_TYPES[kind[sp]], bool(start_mask >> sp & 1)))
            for sp in sorted(kind)
        ]
    )


def _build_hand(counts: tuple[int, ...]) -> tuple[Card, ...]:
    return tuple(CARDS[c] for c in range(data.NUM_CARDS) for _ in range(counts[c]))


_farmer = interned(PlacedFarmer)
_building = interned(PlacedBuilding)
_farmers = PartCache(_build_farmers)
_buildings = PartCache(_build_buildings)
_hand = PartCache(_build_hand)
_cards: PartCache[tuple[int, ...], tuple[Card, ...]] = PartCache(
    lambda cards: tuple(CARDS[c] for c in cards)  # a pile, by card indices
)
_player_info: PartCache[tuple, PlayerInfo] = PartCache(lambda fields: PlayerInfo(*fields))


def _players(state: OregonState, seat: int, over: bool) -> tuple[PlayerInfo, ...]:
    # Each seat's content, zipped and looked up by C-level maps (a view shows every seat).
    return tuple(
        map(
            _player,
            zip(
                range(state.num_players),
                state.score,
                state.supply,
                state.farmer_mask,
                state.joker,
                state.extra,
                state.start_tile,
                state.start_placed,
                map(tuple, state.hands),
                map(tuple, state.coal),
                map(tuple, state.gold),
                _REVEALED if over else _REVEALED_TO[seat],
            ),
        )
    )


def _build_player(content: tuple) -> PlayerInfo:
    s, score, supply, farmers, joker, extra, start_tile, placed, hand, coal, gold, reveal = content
    # In PlayerInfo's field order.
    return _player_info(
        (
            s,
            score,
            supply,
            farmers.bit_count(),
            joker,
            extra,
            BUILDING_TYPES[start_tile],
            placed,
            sum(hand[:_S]),
            sum(hand[_S:]),
            len(coal),
            len(gold),
            # Values are private until final scoring (5.6); sorted so the order of receipt,
            # which is public anyway, is not needed to rebuild the view.
            tuple(sorted(coal)) if reveal else (),
            tuple(sorted(gold)) if reveal else (),
        )
    )


# A seat's info by its content (hands, tiles and all) and whether its tiles' values show, to the
# viewing seat or to everyone once the game is over.
_player = PartCache(_build_player)
_REVEALED = (True,) * data.MAX_PLAYERS
_REVEALED_TO = [
    tuple(s == seat for s in range(data.MAX_PLAYERS)) for seat in range(data.MAX_PLAYERS)
]
