"""What ``arena match`` and ``arena tournament`` both check before any bot starts: the game and
its options, and the limits and log directory of the bot processes (``--bot-memory``,
``--bot-logs``). Every problem is a MatchSetupError with a one-line reason."""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path
from typing import Any

import typer

from arena.commands import warn
from arena.limits import MIN_MEMORY_MIB, BotLimits, LimitsUnavailableWarning, prlimit_path
from arena.match import MatchSetupError
from engine.core import Game, OptionValue
from engine.registry import get_game


def load_game(name: str) -> Game:
    """The game's engine; an engine that fails to import is reported as one line."""
    try:
        return get_game(name)
    except (ImportError, AttributeError) as exc:
        raise MatchSetupError(f"the {name} engine cannot be loaded: {exc}") from None


def parse_options(game: str, texts: list[str]) -> dict[str, OptionValue]:
    """``name=value`` pairs, each value read as the type of the option's default."""
    defaults = get_game(game).default_options
    options: dict[str, OptionValue] = {}
    for text in texts:
        name, sep, raw = text.partition("=")
        if not sep or name not in defaults:
            known = ", ".join(defaults) or "none"
            raise MatchSetupError(f"option {text!r}: expected NAME=VALUE with NAME one of: {known}")
        kind = type(defaults[name])
        try:
            if kind is bool:
                if raw.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(raw)
                options[name] = raw.lower() in ("true", "1", "yes")
            else:
                options[name] = kind(raw)
        except ValueError:
            raise MatchSetupError(f"option {name}: {raw!r} is not a {kind.__name__}") from None
    return options


def bot_memory_option() -> Any:
    return typer.Option(None, "--bot-memory", metavar="MB",
                        help=f"memory limit of each bot in MiB: all its processes together "
                             f"where the arena can make cgroups, else each process's address "
                             f"space (default {BotLimits().memory_mib}, at least "
                             f"{MIN_MEMORY_MIB})")


def bot_logs_option() -> Any:
    return typer.Option(None, "--bot-logs", metavar="DIR",
                        help="keep each seat's stdout/stderr log in DIR (created if missing)")


def parse_limits(bot_memory: str | None) -> BotLimits:
    """The limits asked for with ``--bot-memory MB``; raises MatchSetupError (one line)."""
    if bot_memory is None:
        return BotLimits()
    try:
        memory = int(bot_memory)
    except ValueError:
        raise MatchSetupError(f"--bot-memory {bot_memory!r}: not a whole number of MiB") from None
    try:
        return BotLimits(memory_mib=memory)
    except ValueError as exc:
        raise MatchSetupError(f"--bot-memory: {exc}") from None


def prepare_bot_logs(directory: Path | None) -> Path | None:
    """Create ``--bot-logs DIR`` if missing and check a file can be written there, before any
    game starts; raises MatchSetupError (one line)."""
    if directory is None:
        return None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        raise MatchSetupError(f"--bot-logs {directory}: cannot write there: "
                              f"{exc.strerror or exc}") from None
    return directory.resolve()


def warn_unless_limits_enforced() -> None:
    """Say in one line on stderr that bots will run without resource limits, if so."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LimitsUnavailableWarning)
        prlimit_path()
    for warning in caught:
        warn(str(warning.message))
