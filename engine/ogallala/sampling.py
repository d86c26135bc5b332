"""A full state from one seat's view (``Game.sample_state``): what the view does not show, the
order of the stacks and how the unseen cards split among the original stacks, is drawn at random."""

from __future__ import annotations

import random

from engine.ogallala.data import KIND_INDEX, NO_CARD
from engine.ogallala.display import Display
from engine.ogallala.state import OgallalaState
from engine.ogallala.views import KindCount, OgallalaView


def _expand(counts: tuple[KindCount, ...]) -> list[int]:
    return [KIND_INDEX[entry.kind] for entry in counts for _ in range(entry.count)]


def sample_state(view: OgallalaView, rng: random.Random) -> OgallalaState:
    state = OgallalaState(view.num_players, rng.getrandbits(63), {})
    state.displays = [
        Display.from_cards([(card.row, card.col, KIND_INDEX[card.kind]) for card in seat.cards])
        for seat in view.displays
    ]
    unseen = _expand(view.unseen)
    rng.shuffle(unseen)
    for stack in view.stacks:
        if stack.refilled:
            cards = _expand(stack.contents)
            rng.shuffle(cards)
        else:  # the original stacks share the unseen cards, in unknown order and split
            cards, unseen = unseen[: stack.size], unseen[stack.size :]
        state.stacks[stack.index] = cards
        state.refilled[stack.index] = stack.refilled
    state.discard = [KIND_INDEX[kind] for kind in view.discard]
    state.turn = view.turn
    state.stall = view.stall_turns
    state.active = view.active_seat
    state.draws = view.draws
    state.card = KIND_INDEX[view.card] if view.card else NO_CARD
    state.duplicate = view.duplicate
    state.completed = view.completed
    state.changed = view.display_changed
    if view.attack_card is not None:
        state.attack_row = view.attack_card.row
        own = state.displays[view.active_seat]
        state.attack_kind = own.rows[view.attack_card.row][view.attack_card.col]
    state.captured = [KIND_INDEX[kind] for kind in view.captured]
    state.end_reason = view.end_reason
    state.resume(view.decision)
    return state
