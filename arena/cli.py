"""The ``arena`` command line. Each command lives in its own module under ``arena.commands`` and
exposes ``register(app)``; add new commands to COMMAND_MODULES."""

from __future__ import annotations

import importlib
import signal
from types import FrameType

import typer

COMMAND_MODULES = [
    "arena.commands.games",
    "arena.commands.match",
    "arena.commands.submit",
    "arena.commands.bots",
    "arena.commands.tournament",
    "arena.commands.leaderboard",
    "arena.commands.replay",
    "arena.commands.serve",
]

app = typer.Typer(help="Bots in any language play board and card games over gRPC.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
for module in COMMAND_MODULES:
    importlib.import_module(module).register(app)


def _stop_like_ctrl_c(signum: int, frame: FrameType | None) -> None:
    # A service manager, `timeout` or `kill` stops the arena with SIGTERM: take the same orderly
    # path as Ctrl-C (trio delivers the interrupt at a safe point; bots are stopped, the game in
    # flight is abandoned, everything recorded stays recorded, exit code 130).
    signal.raise_signal(signal.SIGINT)


def main() -> None:
    signal.signal(signal.SIGTERM, _stop_like_ctrl_c)
    app()
