"""A bot that keeps its history from its events alone: rebuilding the stacks (sizes, which were
refilled) and the unseen pool from the events agrees with the engine's view at every decision of
every seat and at the end; each drawn card is the card the next PLACE_CARD is about."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.ogallala import GAME
from engine.ogallala.actions import Draw
from engine.ogallala.data import INITIAL_STACK_SIZES, KIND_NAMES, full_deck
from engine.ogallala.events import ActionTaken, CardDrawn, StackRefilled
from engine.ogallala.views import OgallalaView
from tests.engine.harness import play_telling_events, property_game_count


class Record:
    def __init__(self) -> None:
        self.sizes = list(INITIAL_STACK_SIZES)
        self.refilled = [False] * len(self.sizes)
        self.unseen = Counter(KIND_NAMES[kind] for kind in full_deck())
        self.last_drawn = ""

    def apply(self, event) -> None:
        if type(event) is CardDrawn:
            self.sizes[event.stack] -= 1
            if not self.refilled[event.stack]:
                self.unseen[event.card] -= 1
            self.last_drawn = event.card
        elif type(event) is StackRefilled:
            self.sizes[event.stack] = event.size
            self.refilled[event.stack] = True
        else:
            assert type(event) is ActionTaken
            if type(event.action) is not Draw:
                self.last_drawn = ""

    def catch_up(self, events: list, view: OgallalaView) -> None:
        for event in events:
            self.apply(event)
        self.check(view)

    def check(self, view: OgallalaView) -> None:
        assert [stack.size for stack in view.stacks] == self.sizes
        assert [stack.refilled for stack in view.stacks] == self.refilled
        assert {entry.kind: entry.count for entry in view.unseen} == +self.unseen
        if view.decision is not None and view.decision.name == "PLACE_CARD":
            assert view.card == self.last_drawn


@pytest.mark.parametrize("players", (GAME.min_players, GAME.max_players))
def test_every_seat_rebuilds_the_stacks_from_its_events(players):
    for seed in range(property_game_count(6)):
        records = [Record() for _ in range(players)]
        state = play_telling_events(
            GAME,
            players,
            seed,
            lambda seat, events, state, records=records: records[seat].catch_up(
                events, state.view(seat)
            ),
        )
        # Nothing is private: every seat's history is the same.
        assert all(state.events_for(seat) == state.events_for(0) for seat in range(players))
