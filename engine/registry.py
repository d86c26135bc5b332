"""Find a game engine by name. Engines are imported on first use, so listing games is cheap and
one engine's import error cannot break the others.

The registry is the one list of games: the CLI, the referee, the wire codec, bots' ``games =
["*"]``, the web's filters and replay all find a game here (engine/README.md, "How to add a
game")."""

from __future__ import annotations

import importlib

from engine.core import EngineError, Game

# name -> module that defines ``GAME``, an instance of engine.core.Game
_MODULES = {
    "oregon": "engine.oregon",
    "ogallala": "engine.ogallala",
    "merkator": "engine.merkator",
}
_loaded: dict[str, Game] = {}


def register(name: str, module: str) -> None:
    """Add a game whose package is not one of this project's (a test's toy game): ``module``
    defines ``GAME``, imported on first use like the others."""
    key = name.lower()
    if key in _MODULES and _MODULES[key] != module:
        raise EngineError(f"game {name!r} is already registered (by {_MODULES[key]})")
    _MODULES[key] = module


def game_names() -> list[str]:
    return list(_MODULES)


def get_game(name: str) -> Game:
    key = name.lower()
    if key not in _MODULES:
        raise EngineError(f"unknown game {name!r}; known games: {', '.join(_MODULES)}")
    if key not in _loaded:
        _loaded[key] = importlib.import_module(_MODULES[key]).GAME
    return _loaded[key]


def all_games() -> list[Game]:
    return [get_game(name) for name in _MODULES]
