"""Build a full Merkator state from one seat's view (``Game.sample_state``).

Everything public is copied from the view. The secrets (rules 6) are drawn from ``rng``: the
letters of face-down markers (from the 42 backs minus the letters showing on the board), the order
of each contract pile below its top card, the discard pile, both decks and the state's own RNG.
The discard pile's contents follow from public facts: every contract that is neither held, nor a
pile's top card, nor hidden in the pile of its own value lies there.
"""

from __future__ import annotations

import random

from engine.core import EngineError
from engine.merkator import data
from engine.merkator.state import OVER, MerkatorState
from engine.merkator.views import MerkatorView


def sample_state(view: MerkatorView, rng: random.Random) -> MerkatorState:
    options = {
        "join_needs_permission": view.join_needs_permission,
        "alsterhaus_misprint": view.alsterhaus_misprint,
        "max_rounds": view.max_rounds,
    }
    state = MerkatorState(len(view.players), rng.getrandbits(63), options)
    _copy_public(state, view)
    _sample_board(state, view, rng)
    _sample_contracts(state, view, rng)
    state.bonus_deck = _sample_deck(
        data.BONUS_IDS,
        [
            *(c.id for p in view.players for c in p.bonus_cards),
            *(s.card.id for s in view.bonus_slots if s.card),
        ],
        view.bonus_deck_count,
        rng,
        "bonus deck",
    )
    state.building_deck = _sample_deck(
        data.BUILDING_IDS,
        [
            *(b.id for p in view.players for b in p.buildings),
            *(s.card.id for s in view.building_slots if s.card),
        ],
        view.building_deck_count,
        rng,
        "building deck",
    )
    if view.decision is None:
        state.stage = OVER
        state._finish()
    else:
        assert view.deciding_seat is not None  # a pending decision always has a deciding seat
        state.stage = view.decision.value
        state.deciding = view.deciding_seat
        state._legal = state._LEGAL[state.stage](state)
    return state


def _copy_public(state: MerkatorState, view: MerkatorView) -> None:
    state.pools = list(view.pools)
    for cubes in view.map:
        state.map_cubes[cubes.location - 1] = cubes.cubes
    for p in view.players:
        q = p.seat
        state.coins[q] = p.coins
        state.markers[q] = p.markers
        state.kontor[q] = list(p.kontor)
        state.tile[q] = [0] * data.NUM_COLOURS
        for colour in p.tile:
            state.tile[q][colour - 1] = 1
        state.contracts[q] = sorted(data.CONTRACT_INDEX[h.contract.id] for h in p.contracts)
        state.fulfilled[q] = {
            data.CONTRACT_INDEX[h.contract.id] for h in p.contracts if h.fulfilled_this_turn
        }
        state.bonus[q] = sorted(data.BONUS_IDS.index(b.id) for b in p.bonus_cards)
        state.buildings[q] = sorted(data.BUILDING_IDS.index(b.id) for b in p.buildings)
    state.bonus_slots = [
        data.BONUS_IDS.index(s.card.id) if s.card else -1 for s in view.bonus_slots
    ]
    state.building_slots = [
        data.BUILDING_IDS.index(s.card.id) if s.card else -1 for s in view.building_slots
    ]
    state.figure = view.figure - 1 if view.figure is not None else -1
    state.active = view.active_seat
    state.turn = view.turn
    state.end_triggered = view.end_triggered
    state.final_phase = view.final_phase
    state.final_turns_left = view.final_turns_left
    state.gain_left = view.gain_left
    state.spoil_letters = view.spoil_letters
    state.spoil_loss_left = view.spoil_loss_left
    state.trade_contract = data.CONTRACT_INDEX[view.trade_contract] if view.trade_contract else -1
    state.trades_left = view.trades_left
    state.trade_inputs = view.trade_inputs
    state.joiner = view.joiner if view.joiner is not None else -1
    state.final_place_colour = (
        view.final_place_colour - 1 if view.final_place_colour is not None else -1
    )


def _sample_board(state: MerkatorState, view: MerkatorView, rng: random.Random) -> None:
    hidden = list(data.MARKER_LETTERS)
    for marker in view.time_board:
        if marker.letters:
            hidden.remove(marker.letters)
    rng.shuffle(hidden)
    state.board_next = data.BOARD_SPACES - len(view.time_board)
    for marker in view.time_board:
        i = (marker.row - 1) * data.ROW_SPACES + marker.space - 1
        state.board_face_up[i] = bool(marker.letters)
        state.board_letters[i] = marker.letters or hidden.pop()


def _sample_contracts(state: MerkatorState, view: MerkatorView, rng: random.Random) -> None:
    known = {h.contract.id for p in view.players for h in p.contracts}
    known |= {p.top.id for p in view.piles if p.top}
    unknown: dict[int, list[int]] = {v: [] for v in data.PILE_VALUES}
    for c, cid in enumerate(data.CONTRACT_IDS):
        if cid not in known:
            unknown[data.CONTRACT_VALUE[c]].append(c)
    for pile in view.piles:
        cards = unknown[pile.value]
        rng.shuffle(cards)
        below = pile.count - 1 if pile.top else 0
        if below > len(cards):
            raise EngineError(f"merkator: view has too many cards in pile {pile.value}")
        hidden, unknown[pile.value] = cards[:below], cards[below:]
        state.piles[pile.value] = hidden + ([data.CONTRACT_INDEX[pile.top.id]] if pile.top else [])
    state.discard = [c for cards in unknown.values() for c in cards]
    rng.shuffle(state.discard)
    if len(state.discard) != view.discard_count:
        raise EngineError("merkator: the view's card counts do not add up to 78 contracts")


def _sample_deck(
    ids: tuple[str, ...], seen: list[str], count: int, rng: random.Random, what: str
) -> list[int]:
    deck = [i for i, card in enumerate(ids) if card not in set(seen)]
    if len(deck) != count:
        raise EngineError(f"merkator: the view's {what} size does not fit its cards")
    rng.shuffle(deck)
    return deck
