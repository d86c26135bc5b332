"""One module per CLI command; each exposes ``register(app: typer.Typer) -> None``. A command
parses its arguments, calls the library and prints; what the user got wrong arrives as an
``arena.errors.InputError``, which ``arena.cli`` prints as one line. Shared here: the one-line
messages and warnings, the console of tables; ``database`` (--db), ``options`` (bot limits and
logs, game options) and ``sandbox_options`` (--sandbox, --allow-network)."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer
from rich.console import Console

from arena import stopping
from arena.launcher import INTERRUPTED_CODE
from arena.sandbox.limits import LimitsUnavailableWarning, prlimit_path


def print_error(message: str) -> None:
    """The one line on stderr that reports an error."""
    print(f"error: {message}", file=sys.stderr)


def fail(message: str, code: int = 2) -> NoReturn:
    """End the command with a one-line error on stderr and a non-zero exit code."""
    print_error(message)
    raise typer.Exit(code)


def wide_console() -> Console:
    """The console of a command's tables: in a log or a pipe at least 120 columns wide, where
    rich's default of 80 would wrap every row. No markup: a name, a reason or a bot's output
    shows as it is (read as markup, "[/x]" in a version was a traceback)."""
    console = Console(highlight=False, markup=False)
    if not console.is_terminal:
        console.width = max(console.width, 120)
    return console


def warn(message: str) -> None:
    """A one-line warning on stderr; the command goes on."""
    print(f"warning: {message}", file=sys.stderr)


# The engines are public, so a bot can replay the deal of every seed below this bound and compare
# it with its own cards (about 2^32 deals an hour on one core): a seed found that way reveals every
# hidden card. Random seeds have 63 bits.
GUESSABLE_SEED_BOUND = 1 << 48


def warn_if_guessable(seed: int) -> None:
    if abs(seed) < GUESSABLE_SEED_BOUND:
        warn(
            f"--seed {seed} is small enough for a bot to find by trying seeds against its own "
            f"cards; leave --seed out (a random 63-bit seed) when the results count"
        )


# Given with --resume, these apply to the run (not stored with the tournament or test).
APPLY_ON_RESUME = frozenset(
    {"resume", "bot_logs", "workers", "pin_cpus", "ray_address", "ray_cpus"}
    | {"log_file", "log_level", "as_json", "db"}
)
_GIVEN = ("COMMANDLINE", "ENVIRONMENT")


def given(context: typer.Context, name: str) -> bool:
    """Whether the parameter ``name`` was given (on the command line or by its environment
    variable), not left at its default."""
    source = context.get_parameter_source(name)
    # by name: typer carries its own copy of click, whose enum this is
    return source is not None and source.name in _GIVEN


def warn_ignored_on_resume(
    what: str, context: typer.Context, applied: frozenset[str] = frozenset()
) -> None:
    """``--resume`` continues with the stored settings: name in one warning every option and
    argument given on the command line (or by its environment variable) that it ignores (all
    but ``APPLY_ON_RESUME`` and ``applied``)."""
    ignored = []
    for param in context.command.params:
        if param.name is None or param.name in APPLY_ON_RESUME | applied:
            continue
        if given(context, param.name):
            ignored.append(
                param.opts[0] if param.param_type_name == "option" else param.name.upper()
            )
    if ignored:
        warn(f"--resume continues with the {what}'s stored settings; ignored: {', '.join(ignored)}")


@contextmanager
def stopped_by_signal(what: str) -> Iterator[None]:
    """A service (``arena serve``, ``arena submissions work``) stopped by Ctrl-C or SIGTERM, its
    usual end: one plain line, exit 130, not the error line other commands get."""
    try:
        yield
    except KeyboardInterrupt:
        stopping.command_stops()  # a repeat as it says so and exits: still 130
        print(f"{what}: stopped", file=sys.stderr)
        raise typer.Exit(INTERRUPTED_CODE) from None


def warn_unless_limits_enforced() -> None:
    """Say in one line on stderr that bots will run without resource limits, if so."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LimitsUnavailableWarning)
        prlimit_path()
    for warning in caught:
        warn(str(warning.message))
