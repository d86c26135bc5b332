"""A bot that keeps its history from its events alone: for every seat, rebuilding the public
record (every seat's start tile and card counts by deck, the discard piles, the out-of-game pile,
the deck sizes) and its own hand from the events agrees with the engine's view at each of its
decisions and at the end; other seats' drawn cards and tile values never reach it, and the setup
tells the start tiles dealt, as the first view shows them, and never one nobody was dealt."""

from __future__ import annotations

import pytest

from engine.oregon import GAME, data
from engine.oregon.actions import DiscardWhenStuck, Play
from engine.oregon.enums import Building, Card, Deck
from engine.oregon.events import (
    ActionTaken,
    CardDrawn,
    CardsLeftGame,
    DeckRebuilt,
    StartTileDealt,
    TileTaken,
)
from engine.oregon.views import OregonView
from tests.engine.harness import play_telling_events, property_game_count

_LANDSCAPE = {Card(c + 1) for c in range(data.NUM_SYMBOLS)}


def _deck_of(card: Card) -> Deck:
    return Deck.LANDSCAPE if card in _LANDSCAPE else Deck.BUILDING


class Record:
    """What one seat rebuilds from its events."""

    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.hand: list[Card] = []
        self.counts = [{Deck.LANDSCAPE: 0, Deck.BUILDING: 0} for _ in range(players)]
        self.discard: dict[Deck, list[Card]] = {Deck.LANDSCAPE: [], Deck.BUILDING: []}
        self.out_of_game: list[Card] = []
        self.deck_size = {
            Deck.LANDSCAPE: sum(data.LANDSCAPE_COPIES),
            Deck.BUILDING: sum(data.BUILDING_CARD_COPIES),
        }
        self.stacks = list(data.STACK_TILES)  # tiles left per building stack
        self.start_tiles: list[Building | None] = [None] * players

    def spend(self, seat: int, cards: tuple[Card, ...], dead_goes_out: bool) -> None:
        for card in cards:
            deck = _deck_of(card)
            self.counts[seat][deck] -= 1
            if seat == self.seat:
                self.hand.remove(card)
            dead = deck is Deck.BUILDING and not self.stacks[card - 1 - data.NUM_SYMBOLS]
            (self.out_of_game if dead and dead_goes_out else self.discard[deck]).append(card)

    def apply(self, event) -> None:
        if type(event) is CardDrawn:
            self.deck_size[event.deck] -= 1
            if event.seat != self.seat and not event.dead:
                assert event.card is None, "another seat's drawn card was shown"
            if event.dead:
                self.out_of_game.append(event.card)
                return
            self.counts[event.seat][event.deck] += 1
            if event.seat == self.seat:
                self.hand.append(event.card)
        elif type(event) is ActionTaken:
            action = event.action
            if type(action) is Play:
                self.spend(event.seat, action.cards, dead_goes_out=False)
                if action.building is not None:
                    self.stacks[action.building - 1] -= 1
            elif type(action) is DiscardWhenStuck:
                self.spend(event.seat, action.cards, dead_goes_out=True)
        elif type(event) is CardsLeftGame:
            for card in event.cards:
                if event.seat is None:
                    self.discard[Deck.BUILDING].remove(card)
                else:
                    self.counts[event.seat][Deck.BUILDING] -= 1
                    if event.seat == self.seat:
                        self.hand.remove(card)
                self.out_of_game.append(card)
        elif type(event) is DeckRebuilt:
            assert event.size == len(self.discard[event.deck])
            self.discard[event.deck] = []
            self.deck_size[event.deck] = event.size
        elif type(event) is TileTaken:
            assert (event.value is not None) == (event.seat == self.seat)
        elif type(event) is StartTileDealt:
            assert self.start_tiles[event.seat] is None, "a second start tile for one seat"
            self.start_tiles[event.seat] = event.building

    def catch_up(self, events: list, state) -> None:
        for event in events:
            self.apply(event)
        self.check(state.view(self.seat))

    def check(self, view: OregonView) -> None:
        assert sorted(self.hand) == list(view.hand)
        for info in view.players:
            assert self.start_tiles[info.seat] == info.start_tile
            assert self.counts[info.seat][Deck.LANDSCAPE] == info.landscape_cards
            assert self.counts[info.seat][Deck.BUILDING] == info.building_cards
        assert self.discard[Deck.LANDSCAPE] == list(view.landscape_discard)
        assert self.discard[Deck.BUILDING] == list(view.building_discard)
        assert self.out_of_game == list(view.out_of_game)
        assert self.deck_size[Deck.LANDSCAPE] == view.landscape_deck_size
        assert self.deck_size[Deck.BUILDING] == view.building_deck_size
        assert self.stacks == list(view.stacks)


@pytest.mark.parametrize("players", range(GAME.min_players, GAME.max_players + 1))
def test_every_seat_rebuilds_the_public_record_and_its_hand_from_its_events(players):
    for seed in range(property_game_count(10)):
        records = [Record(seat, players) for seat in range(players)]
        play_telling_events(
            GAME,
            players,
            seed,
            lambda seat, events, state, records=records: records[seat].catch_up(events, state),
        )


@pytest.mark.parametrize("players", range(GAME.min_players, GAME.max_players + 1))
def test_the_setup_tells_each_dealt_start_tile_once_and_no_other(players):
    """Before the first decision every seat is told every seat's start tile, in seat order, as
    the first view shows them; the 7 - P tiles nobody was dealt stay unseen (section 3 step 7)."""
    for seed in range(property_game_count(20)):
        state = GAME.new_game(players, seed)
        for seat in range(players):
            view = state.view(seat)
            told = [e for e in state.events_for(seat) if type(e) is StartTileDealt]
            assert told == [StartTileDealt(p.seat, p.start_tile) for p in view.players]
