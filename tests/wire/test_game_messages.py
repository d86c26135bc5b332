"""Every game's views, actions and events survive the trip through their protobuf messages
unchanged, so a bot sees exactly what the engine gives its seat (no more, no less)."""

import pytest

from arena.bot.v1 import bot_pb2
from arena.wire.codec import (
    decode_action,
    decode_event,
    decode_view,
    encode_action,
    encode_event,
    encode_view,
)
from engine import game_names, get_game
from tests.engine.harness import random_decision_points


@pytest.mark.parametrize("name", game_names())
def test_views_and_actions_round_trip_through_protobuf(name):
    game = get_game(name)
    for players in (game.min_players, game.max_players):
        for state in random_decision_points(game, players, seed=players, every=3):
            for seat in range(players):
                view = state.view(seat)
                wire = encode_view(name, view).SerializeToString()
                back = decode_view(name, bot_pb2.GameView.FromString(wire))
                assert repr(back) == repr(view)
            if not state.is_over:
                for action in state.legal_actions():
                    assert decode_action(name, encode_action(name, action)) == action


@pytest.mark.parametrize("name", game_names())
def test_every_kind_of_event_round_trips_through_protobuf(name):
    game = get_game(name)
    kinds = set()
    for players in (game.min_players, game.max_players):
        for state in random_decision_points(game, players, seed=players, every=50):
            if not state.is_over:
                continue
            for seat in range(players):
                for event in state.events_for(seat):
                    kinds.add(type(event).__name__)
                    wire = encode_event(name, event).SerializeToString()
                    back = decode_event(name, bot_pb2.GameEvent.FromString(wire))
                    assert repr(back) == repr(event)
    assert "ActionTaken" in kinds
