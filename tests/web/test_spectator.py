"""The spectator's view of a game in play holds nothing any one seat alone knows: it is the same
whatever the hidden part of the state (sampled from each seat's view in turn), and each event
reaches the spectator as it reaches the seats it does not concern."""

from __future__ import annotations

import random

import pytest

from arena.web.jsonable import JsonConverter
from arena.web.spectator import SPECTATOR, events_seen, spectator_view
from engine.core import EVERYONE
from engine.registry import get_game
from tests.web.conftest import GAMES

PLAYERS = 3
CHECKED_DECISIONS = 40


def _positions(name: str, seed: int):
    """The states of one random game of ``name``, every few decisions."""
    state = get_game(name).new_game(PLAYERS, seed)
    rng = random.Random(seed)
    for number in range(CHECKED_DECISIONS * 3):
        if state.is_over:
            return
        if number % 3 == 0:
            yield state
        state.apply_index(rng.randrange(len(state.legal_actions())))


@pytest.mark.parametrize("name", GAMES)
def test_the_spectator_view_is_the_same_whatever_any_seat_does_not_know(name):
    engine = get_game(name)
    checked = 0
    for seed in (3, 4):
        for state in _positions(name, seed):
            seen = spectator_view(state, JsonConverter())
            assert seen["seat"] is None
            for seat in range(PLAYERS):
                for draw in range(2):
                    other = engine.sample_state(state.view(seat), random.Random(draw))
                    assert spectator_view(other, JsonConverter()) == seen, (name, seat)
            checked += 1
    assert checked >= 20


def test_an_oregon_spectator_sees_no_hand_and_no_coal_or_gold_value():
    for state in _positions("oregon", 5):
        seen = spectator_view(state, JsonConverter())
        assert seen["hand"] == []
        assert all(not p["coal_values"] and not p["gold_values"] for p in seen["players"])
        # ... but what is public: the counts of the cards in each hand, of the tiles
        owned = [len(state.view(s).hand) for s in range(PLAYERS)]
        assert [p["landscape_cards"] + p["building_cards"] for p in seen["players"]] == owned


@pytest.mark.parametrize("name", GAMES)
def test_the_spectator_hears_of_each_event_as_every_seat_but_its_owner(name):
    """A public event reaches the spectator as every seat sees it; a private one (a card drawn)
    as the seats it does not concern see it (redacted, or not at all), never as its owner does."""
    private = 0
    for state in _positions(name, 6):
        for entry in range(max(0, len(state.event_log) - 6), len(state.event_log)):
            alone = state.clone()
            alone.event_log = state.event_log[: entry + 1]  # this entry alone, from ``entry``
            told = events_seen(alone, SPECTATOR, entry)
            owner = state.event_log[entry][0]
            others = [seat for seat in range(PLAYERS) if seat != owner]
            assert all(events_seen(alone, seat, entry) == told for seat in others), (name, told)
            if owner != EVERYONE:
                private += events_seen(alone, owner, entry) != told
    if name == "oregon":
        assert private, "Oregon's draws are private: their owner knows more"
