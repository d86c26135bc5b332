import pytest

from engine import EngineError, OptionError, game_names, get_game
from engine.core import ranks_from_keys, resolve_options


def test_ranks_share_places_on_ties():
    assert ranks_from_keys([(5,), (9,), (5,), (1,)]) == (2, 1, 2, 4)


def test_options_merge_over_defaults_and_reject_unknown_keys():
    defaults = {"flag": False, "cap": 100}
    assert resolve_options("g", defaults, {"flag": True}) == {"flag": True, "cap": 100}
    with pytest.raises(OptionError, match="unknown option 'nope'"):
        resolve_options("g", defaults, {"nope": 1})
    with pytest.raises(OptionError, match="must be int"):
        resolve_options("g", defaults, {"cap": "x"})


def test_registry_knows_the_three_games_and_rejects_others():
    assert game_names() == ["oregon", "ogallala", "merkator"]
    with pytest.raises(EngineError, match="unknown game 'chess'"):
        get_game("chess")
