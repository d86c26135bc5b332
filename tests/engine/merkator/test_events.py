"""A bot that keeps its history from its events alone: starting from nothing but the setup's
events, rebuilding the contract piles (sizes and top cards), the discard pile's size, the display
slots, every seat's contracts, bonus cards and buildings, and the face-up letters of the time board
agrees with the engine's view at every decision of every seat and at the end; a pending spoilage's
letters were always told first (R18: public). The setup's events show exactly what the first view
shows, and a reward draw's new top card is told only once it is face up."""

from __future__ import annotations

import pytest

from engine.merkator import GAME, data
from engine.merkator.actions import Invest, InvestOption
from engine.merkator.events import (
    ActionTaken,
    ContractDrawn,
    HandDealt,
    MarkerRevealed,
    PileRebuilt,
    PileTopShown,
    SlotRefilled,
)
from engine.merkator.views import MerkatorView
from tests.engine.harness import play_telling_events, property_game_count

PLAYER_COUNTS = range(GAME.min_players, GAME.max_players + 1)
_UNKNOWN = "?"  # a rebuilt pile's top, until a PileTopShown tells it


class Record:
    def __init__(self, players: int) -> None:
        self.slots = {False: [""] * data.DISPLAY_SIZE, True: [""] * data.DISPLAY_SIZE}
        self.piles: dict[int, tuple[int, str]] = {}  # value -> (size, top ID)
        # the value-2 cards nobody was dealt (rules 3, step 5)
        self.discard = data.CONTRACT_VALUE.count(min(data.PILE_VALUES)) - players
        self.contracts: list[set[str]] = [set() for _ in range(players)]
        self.bonus: list[set[str]] = [set() for _ in range(players)]
        self.buildings: list[set[str]] = [set() for _ in range(players)]
        self.letters: dict[tuple[int, int], str] = {}
        self.last_letters = ""

    def apply(self, event) -> None:
        if type(event) is HandDealt:
            self.contracts[event.seat] = set(event.contracts)
            self.bonus[event.seat] = set(event.bonus_cards)
        elif type(event) is PileTopShown:
            self.piles[event.value] = (event.size, event.contract)
        elif type(event) is PileRebuilt:
            assert self.piles[event.value][0] == 0, "a pile was rebuilt before it was empty"
            self.piles[event.value] = (event.size, _UNKNOWN)
            self.discard -= event.size
        elif type(event) is ContractDrawn:
            value = data.CONTRACT_VALUE[data.CONTRACT_IDS.index(event.contract)]
            size, top = self.piles[value]
            assert top in (event.contract, _UNKNOWN), "the drawn card was not the top shown"
            self.piles[value] = (size - 1, _UNKNOWN)  # until its PileTopShown
            self.contracts[event.seat].add(event.contract)
        elif type(event) is SlotRefilled:
            self.slots[event.building][event.slot - 1] = event.card
        elif type(event) is ActionTaken and type(event.action) is Invest:
            self.invest(event.seat, event.action)
        elif type(event) is MarkerRevealed:
            self.letters[event.row, event.space] = event.letters
            self.last_letters = event.letters

    def invest(self, seat: int, action: Invest) -> None:
        if action.option == InvestOption.SELL:
            self.contracts[seat].remove(action.contract)
            self.discard += 1
        elif action.option == InvestOption.BUY_BONUS:  # told before its slot is refilled
            self.bonus[seat].add(self.slots[False][action.slot - 1])
        elif action.option == InvestOption.BUY_BUILDING:
            self.buildings[seat].add(self.slots[True][action.slot - 1])

    def catch_up(self, events: list, view: MerkatorView) -> None:
        for event in events:
            self.apply(event)
        self.check(view)

    def check(self, view: MerkatorView) -> None:
        assert [s.card.id if s.card else "" for s in view.bonus_slots] == self.slots[False]
        assert [s.card.id if s.card else "" for s in view.building_slots] == self.slots[True]
        assert {p.value: (p.count, p.top.id if p.top else "") for p in view.piles} == self.piles
        assert view.discard_count == self.discard
        for player in view.players:
            assert {h.contract.id for h in player.contracts} == self.contracts[player.seat]
            assert {b.id for b in player.bonus_cards} == self.bonus[player.seat]
            assert {b.id for b in player.buildings} == self.buildings[player.seat]
        for marker in view.time_board:
            if marker.letters:
                assert self.letters[marker.row, marker.space] == marker.letters
        if view.spoil_letters:  # a spoilage is pending: its letters are the last ones told
            assert view.spoil_letters == self.last_letters


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_seat_rebuilds_the_public_cards_and_revealed_letters_from_its_events(players):
    for seed in range(property_game_count(6)):
        records = [Record(players) for _ in range(players)]
        state = play_telling_events(
            GAME,
            players,
            seed,
            lambda seat, events, state, records=records: records[seat].catch_up(
                events, state.view(seat)
            ),
        )
        assert all(state.events_for(seat) == state.events_for(0) for seat in range(players))


def setup_events_of(view: MerkatorView) -> list:
    """The setup's events as a function of the first view alone: they can tell nothing else."""

    def ids(cards) -> tuple[str, ...]:
        return tuple(card.id for card in cards)

    return [
        *(
            HandDealt(p.seat, p.markers, ids(h.contract for h in p.contracts), ids(p.bonus_cards))
            for p in view.players
        ),
        *(PileTopShown(p.value, p.count, p.top.id if p.top else "") for p in view.piles),
        *(SlotRefilled(False, s.slot, s.card.id if s.card else "") for s in view.bonus_slots),
        *(SlotRefilled(True, s.slot, s.card.id if s.card else "") for s in view.building_slots),
    ]


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_setup_events_show_what_the_first_view_shows_and_no_more(players):
    for seed in range(property_game_count(20)):
        state = GAME.new_game(players, seed)
        for seat in range(players):
            assert state.events_for(seat) == setup_events_of(state.view(seat))
