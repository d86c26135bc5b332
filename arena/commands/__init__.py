"""One module per CLI command; each exposes ``register(app: typer.Typer) -> None``. Helpers the
commands share: ``database`` (--db), ``match_setup`` (game, options, bot limits and logs)."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer


def print_error(message: str) -> None:
    """The one line on stderr that reports an error."""
    print(f"error: {message}", file=sys.stderr)


def fail(message: str, code: int = 2) -> NoReturn:
    """End the command with a one-line error on stderr and a non-zero exit code."""
    print_error(message)
    raise typer.Exit(code)


def warn(message: str) -> None:
    """A one-line warning on stderr; the command goes on."""
    print(f"warning: {message}", file=sys.stderr)


# The engines are public, so a bot can replay the deal of every seed below this bound and compare
# it with its own cards (about 2^32 deals an hour on one core): a seed found that way reveals every
# hidden card. Random seeds have 63 bits.
GUESSABLE_SEED_BOUND = 1 << 48


def warn_if_guessable(seed: int) -> None:
    if abs(seed) < GUESSABLE_SEED_BOUND:
        warn(f"--seed {seed} is small enough for a bot to find by trying seeds against its own "
             f"cards; leave --seed out (a random 63-bit seed) when the results count")
