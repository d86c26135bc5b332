"""A bot that keeps its history from its events alone: rebuilding the display slots and the face-up
letters of the time board from the events agrees with the engine's view at every decision of
every seat and at the end; a pending spoilage's letters were always told first (R18: public)."""

from __future__ import annotations

import pytest

from engine.merkator import GAME
from engine.merkator.events import MarkerRevealed, SlotRefilled
from engine.merkator.views import MerkatorView
from tests.engine.harness import play_telling_events, property_game_count


class Record:
    def __init__(self, first: MerkatorView) -> None:
        self.slots = {
            False: [slot.card.id if slot.card else "" for slot in first.bonus_slots],
            True: [slot.card.id if slot.card else "" for slot in first.building_slots],
        }
        self.letters: dict[tuple[int, int], str] = {}
        self.last_letters = ""

    def apply(self, event) -> None:
        if type(event) is SlotRefilled:
            self.slots[event.building][event.slot - 1] = event.card
        elif type(event) is MarkerRevealed:
            self.letters[event.row, event.space] = event.letters
            self.last_letters = event.letters

    def catch_up(self, events: list, view: MerkatorView) -> None:
        for event in events:
            self.apply(event)
        self.check(view)

    def check(self, view: MerkatorView) -> None:
        assert [s.card.id if s.card else "" for s in view.bonus_slots] == self.slots[False]
        assert [s.card.id if s.card else "" for s in view.building_slots] == self.slots[True]
        for marker in view.time_board:
            if marker.letters:
                assert self.letters[marker.row, marker.space] == marker.letters
        if view.spoil_letters:  # a spoilage is pending: its letters are the last ones told
            assert view.spoil_letters == self.last_letters


@pytest.mark.parametrize("players", range(GAME.min_players, GAME.max_players + 1))
def test_every_seat_rebuilds_the_slots_and_revealed_letters_from_its_events(players):
    for seed in range(property_game_count(6)):
        first = GAME.new_game(players, seed)  # the slots as set up (play starts the same way)
        records = [Record(first.view(seat)) for seat in range(players)]
        state = play_telling_events(
            GAME,
            players,
            seed,
            lambda seat, events, state, records=records: records[seat].catch_up(
                events, state.view(seat)
            ),
        )
        assert all(state.events_for(seat) == state.events_for(0) for seat in range(players))
