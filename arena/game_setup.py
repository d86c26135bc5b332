"""What a match and a tournament both check before any bot starts: the game and its options, the
time control, and the limits and log directory of the bot processes. Every problem is a
SetupError with a one-line reason."""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from pathlib import Path

from arena.engines import load_game as load_game  # where the commands have always found it
from arena.errors import SetupError
from arena.sandbox.limits import BotLimits
from engine.core import EngineError, Game, OptionValue
from engine.registry import get_game

MAX_SEED = (1 << 63) - 1  # seeds are stored as SQLite's signed 64-bit integers


def check_seed(seed: int | None) -> None:
    """A game or tournament seed the database can store (None: to be drawn)."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise SetupError(f"--seed must be between 0 and {MAX_SEED} (2^63-1)")


def check_players(game: Game, players: int, options: dict[str, OptionValue]) -> None:
    """The game can be played by ``players`` seats with ``options``."""
    try:
        game.check_setup(players, options)
    except EngineError as exc:
        raise SetupError(str(exc)) from None


_KIND_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}


def parse_options(game: str, texts: Iterable[str]) -> dict[str, OptionValue]:
    """``name=value`` pairs, each value read as the type of the option's default."""
    defaults = get_game(game).default_options
    options: dict[str, OptionValue] = {}
    for text in texts:
        name, sep, raw = text.partition("=")
        if not defaults:
            raise SetupError(f"option {text!r}: {game} takes no options")
        if not sep or name not in defaults:
            known = ", ".join(defaults)
            raise SetupError(f"option {text!r}: expected NAME=VALUE with NAME one of: {known}")
        kind = type(defaults[name])
        try:
            if kind is bool:
                if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(raw)
                options[name] = raw.lower() in ("true", "1", "yes")
            else:
                options[name] = kind(raw)
        except ValueError:
            raise SetupError(
                f"option {name}: {raw!r} is not {_KIND_NAMES.get(kind, kind.__name__)}"
            ) from None
        value = options[name]
        if type(value) is int and not -(2**63) <= value < 2**63:  # bots receive it as an int64
            raise SetupError(f"option {name}: {raw[:40]!r} is out of range (a 64-bit integer)")
    return options


def parse_limits(bot_memory: str | None) -> BotLimits:
    """The limits asked for with ``--bot-memory MB``."""
    if bot_memory is None:
        return BotLimits()
    try:
        memory = int(bot_memory)
    except ValueError:
        raise SetupError(f"--bot-memory {bot_memory!r}: not a whole number of MiB") from None
    try:
        return BotLimits(memory_mib=memory)
    except SetupError as exc:
        raise SetupError(f"--bot-memory: {exc}") from None


def prepare_bot_logs(directory: Path | None) -> Path | None:
    """Create ``--bot-logs DIR`` if missing and check a file can be written there, before any
    game starts."""
    if directory is None:
        return None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        raise SetupError(
            f"--bot-logs {directory}: cannot write there: {exc.strerror or exc}"
        ) from None
    return directory.resolve()
