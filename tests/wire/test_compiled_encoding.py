"""The referee's compiled view and event encoders and its serialized decision requests give exactly
the bytes of the generic codec (arena.wire.convert / codec), for every game."""

import pytest

from arena.bot.v1 import bot_pb2
from arena.wire.codec import encode_action, encode_event, encode_view
from arena.wire.compiled import encoder_for
from arena.wire.requests import DecisionEncoder
from engine.registry import game_names, get_game
from tests.engine.harness import random_decision_points


@pytest.mark.parametrize("game", game_names())
def test_compiled_encoding_equals_the_generic_codec(game):
    engine = get_game(game)
    encoder = DecisionEncoder(game)
    encode = encoder_for(engine.view_type)
    for players in (engine.min_players, engine.max_players):
        for number, state in enumerate(random_decision_points(engine, players, seed=3, every=2)):
            if state.is_over:
                continue
            seat, legal = state.current_seat, state.legal_actions()
            compiled = bot_pb2.GameView()
            encode(state.view(seat), getattr(compiled, game))
            generic = encode_view(game, state.view(seat))
            assert compiled.SerializeToString() == generic.SerializeToString()

            events = state.events_for(seat)
            wire = encoder.request("g", number, state, seat, legal, 1.5, 0.25, since=0)
            expected = bot_pb2.DecisionRequest(
                game_id="g",
                decision_number=number,
                decision_kind=state.decision_kind,
                view=generic,
                legal_actions=[encode_action(game, a) for a in legal],
                clock=bot_pb2.Clock(move_seconds=1.5, bank_seconds=0.25),
                seat=seat,
                events=[encode_event(game, event) for event in events],
            )
            assert bot_pb2.DecisionRequest.FromString(wire) == expected
