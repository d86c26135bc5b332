"""The ``arena`` command line. Each command lives in its own module under ``arena.commands`` and
exposes ``register(app)``; add new commands to COMMAND_MODULES."""

from __future__ import annotations

import importlib

import typer

COMMAND_MODULES = [
    "arena.commands.games",
    "arena.commands.match",
    "arena.commands.submit",
    "arena.commands.bots",
    "arena.commands.tournament",
    "arena.commands.leaderboard",
    "arena.commands.replay",
]

app = typer.Typer(help="Bots in any language play board and card games over gRPC.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
for module in COMMAND_MODULES:
    importlib.import_module(module).register(app)


def main() -> None:
    app()
