"""The referee's decision requests, assembled from memoized pieces (arena.wire.requests), parse to
exactly the messages the previous encoder built field by field (arena.wire.reference): over random
games of every game and player count, at every decision, for the deciding seat (with its events)
and for every other seat's view of the same moment (the memos are shared by all seats and games,
so any bytes of one seat reaching another would show as a difference)."""

import random

import pytest

from arena.bot.v1 import bot_pb2
from arena.wire.codec import encode_view
from arena.wire.reference import MessageDecisionEncoder
from arena.wire.requests import DecisionEncoder
from engine.registry import game_names, get_game

GAMES_PER_PLAYER_COUNT = 3


def parsed(wire: bytes) -> bot_pb2.DecisionRequest:
    return bot_pb2.DecisionRequest.FromString(wire)


@pytest.mark.parametrize("game", game_names())
def test_requests_parse_as_the_reference_encoders(game):
    engine = get_game(game)
    fast, reference = DecisionEncoder(game), MessageDecisionEncoder(game)
    compared = 0
    for players in range(engine.min_players, engine.max_players + 1):
        for seed in range(GAMES_PER_PLAYER_COUNT):
            state = engine.new_game(players, seed)
            rng = random.Random(seed)
            told = [0] * players
            number = 0
            while not state.is_over:
                legal, deciding = state.legal_actions(), state.current_seat
                clock = (rng.choice((0.0, 1.5)), rng.choice((0.0, 0.25, 7e9)))
                for seat in range(players):
                    since = told[seat] if seat == deciding else None
                    game_id = f"g{seed}-{seat}" if number % 7 else ""
                    args = (game_id, number, state, seat, legal, *clock, since)
                    expected = parsed(reference.request(*args))
                    assert parsed(fast.request(*args)) == expected, (players, seed, number, seat)
                    compared += 1
                told[deciding] = len(state.event_log)
                state.apply_index(rng.randrange(len(legal)))
                number += 1
    assert compared >= 2_000


@pytest.mark.parametrize("game", game_names())
def test_end_of_game_views_parse_as_the_compiled_encoders(game):
    """EndGameRequest's final views (every seat's, the same to all) come from the fast encoder:
    the same messages as the compiled encoder's, over finished random games of every player
    count, and over a game cut short (a forfeit ends no game: the views of a state mid-game)."""
    engine = get_game(game)
    encoder = DecisionEncoder(game)
    for players in range(engine.min_players, engine.max_players + 1):
        for seed in range(GAMES_PER_PLAYER_COUNT):
            state = engine.new_game(players, seed)
            rng = random.Random(seed)
            while not state.is_over:
                if seed == 0 and len(state.history) == 25:
                    break
                state.apply_index(rng.randrange(len(state.legal_actions())))
            make = encoder.end_requests(state, [])
            request = make("g", 0, len(state.event_log))
            expected = [encode_view(game, state.view(seat)) for seat in range(players)]
            assert list(request.final_views) == expected, (players, seed)
