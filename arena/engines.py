"""The game engines as the arena loads them: an unknown game, or one whose engine fails to
import, is one line (``SetupError``). Apart from ``game_setup`` (bot limits, logs, options) so
that reading stored games (verification, replay, the web) loads nothing of the referee."""

from __future__ import annotations

from arena.errors import SetupError
from engine.core import EngineError, Game
from engine.registry import get_game


def load_game(name: str) -> Game:
    """The game's engine; an unknown game or one whose engine fails to import is one line."""
    try:
        return get_game(name)
    except EngineError as exc:
        raise SetupError(str(exc)) from None
    except (ImportError, AttributeError) as exc:
        raise SetupError(f"the {name} engine cannot be loaded: {exc}") from None
