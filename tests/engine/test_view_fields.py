"""``GameState.view_fields`` (what the referee's encoder writes) is ``view`` field by field, in
field order, for every game at every decision of random games and every seat, and for a game that
only defines ``view`` (the default)."""

import dataclasses
import random

import pytest

from engine.parts import field_values
from engine.registry import game_names, get_game
from tests.toy_game.nim import NimGame


def fields_of(view):
    return tuple(getattr(view, field.name) for field in dataclasses.fields(view))


def check_views_over_random_games(engine, games: int) -> int:
    checked = 0
    for players in range(engine.min_players, engine.max_players + 1):
        for seed in range(games):
            state = engine.new_game(players, seed)
            rng = random.Random(seed)
            while True:
                for seat in range(players):
                    view = state.view(seat)
                    assert state.view_fields(seat) == fields_of(view), (players, seed, seat)
                    checked += 1
                if state.is_over:
                    break
                state.apply_index(rng.randrange(len(state.legal_actions())))
    return checked


@pytest.mark.parametrize("game", game_names())
def test_view_fields_are_the_views_fields_in_order(game):
    assert check_views_over_random_games(get_game(game), games=2) > 500


def test_the_default_view_fields_read_the_view():
    assert check_views_over_random_games(NimGame(), games=3) > 20


def test_field_values_takes_every_field_by_name_and_gives_them_in_order():
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: int
        label: str

    values = field_values(Point)
    assert values(label="a", y=2, x=1) == (1, 2, "a")
    assert Point(*values(label="a", y=2, x=1)) == Point(1, 2, "a")
    with pytest.raises(TypeError):
        values(x=1, y=2)  # a field left out
    with pytest.raises(TypeError):
        values(1, 2, "a")  # by position, where an order mistake would go unseen
