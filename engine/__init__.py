"""Pure game engines: the shared contract (``engine.core``) and one package per game.

No I/O, no gRPC, no trio here. Typical use::

    from engine import get_game
    game = get_game("oregon")
    state = game.new_game(num_players=3, seed=7)
    while not state.is_over:
        state.apply_index(0)
    print(state.result())
"""

from engine.core import (
    EngineError,
    Game,
    GameOverError,
    GameState,
    IllegalActionError,
    OptionError,
    Result,
)
from engine.registry import all_games, game_names, get_game

__all__ = [
    "EngineError",
    "Game",
    "GameOverError",
    "GameState",
    "IllegalActionError",
    "OptionError",
    "Result",
    "all_games",
    "game_names",
    "get_game",
]
