"""Build a full state from one seat's view (``Game.sample_state``): everything the seat can see
is copied from the view, everything hidden (other hands, deck orders, other seats' coal and gold
values, the coal/gold stacks) is drawn at random from the pool of what is still unaccounted for."""

from __future__ import annotations

import random
from collections import Counter

from engine.core import EngineError
from engine.oregon import data
from engine.oregon.state import OregonState
from engine.oregon.views import OregonView

_S = data.NUM_SYMBOLS


def sample_state(view: OregonView, rng: random.Random) -> OregonState:
    p = view.num_players
    state = OregonState(p, 0, {})
    state.rng = random.Random(rng.getrandbits(64))
    for farmer in view.farmers:
        state.add_farmer(data.space(farmer.row, farmer.col), farmer.seat)
    for building in view.buildings:
        state.add_building(
            data.space(building.row, building.col), building.building - 1, building.start_tile
        )
    for info in view.players:
        s = info.seat
        state.score[s] = info.score
        state.supply[s] = info.farmers_in_supply
        state.joker[s] = info.joker_active
        state.extra[s] = info.extra_turn_active
        state.start_tile[s] = info.start_tile - 1
        state.start_placed[s] = info.start_tile_placed
    state.stacks = list(view.stacks)
    state.discards = [
        [c - 1 for c in view.landscape_discard],
        [c - 1 for c in view.building_discard],
    ]
    state.out_of_game = [c - 1 for c in view.out_of_game]
    state.round = view.round
    state.active = view.active_seat if view.active_seat is not None else p - 1
    state.phase = view.decision
    state.in_extra = view.in_extra_play
    state.end_triggered = view.end_triggered
    state.turns = [_turns_taken(view, s) for s in range(p)]
    _deal_hidden_cards(state, view, rng)
    _deal_hidden_tiles(state, view, rng)
    return state


def _turns_taken(view: OregonView, seat: int) -> int:
    if view.round == 1:
        return 0
    if view.active_seat is None:  # the game is over
        return view.round - 1
    return view.round - 1 if seat <= view.active_seat else view.round - 2


def _deal_hidden_cards(state: OregonState, view: OregonView, rng: random.Random) -> None:
    """Deal the unseen cards of each deck type to the other hands and the face-down deck."""
    own = Counter(c - 1 for c in view.hand)
    for c, n in own.items():
        state.hands[view.seat][c] = n
    seen = (
        own + Counter(state.discards[0]) + Counter(state.discards[1]) + Counter(state.out_of_game)
    )
    copies = data.LANDSCAPE_COPIES + data.BUILDING_CARD_COPIES
    for deck, cards in ((0, range(_S)), (1, range(_S, data.NUM_CARDS))):
        pool = [c for c in cards for _ in range(copies[c] - seen[c])]
        rng.shuffle(pool)
        for info in view.players:
            if info.seat != view.seat:
                for _ in range(info.landscape_cards if deck == 0 else info.building_cards):
                    state.hands[info.seat][pool.pop()] += 1
        size = view.landscape_deck_size if deck == 0 else view.building_deck_size
        if len(pool) != size:
            raise EngineError("oregon: the view's card counts do not add up")
        state.decks[deck] = pool


def _deal_hidden_tiles(state: OregonState, view: OregonView, rng: random.Random) -> None:
    for kind, total, stack_size in (
        ("coal", data.COAL_TILES, view.coal_stack_size),
        ("gold", data.GOLD_TILES, view.gold_stack_size),
    ):
        owned = getattr(state, kind)
        pool = Counter(total)
        for info in view.players:
            values = getattr(info, f"{kind}_values")
            owned[info.seat] = list(values)
            pool -= Counter(values)
        tiles = sorted(pool.elements())
        rng.shuffle(tiles)
        for info in view.players:
            while len(owned[info.seat]) < getattr(info, f"{kind}_tiles"):
                owned[info.seat].append(tiles.pop())
        if len(tiles) != stack_size:
            raise EngineError(f"oregon: the view's {kind} counts do not add up")
        setattr(state, f"{kind}_stack", tiles)
