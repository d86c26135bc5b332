"""``arena games``: the games the arena can referee."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table

from engine.registry import game_names, get_game


def games() -> None:
    """List the games with their player counts and rules versions."""
    table = Table("game", "title", "players", "rules", "options")
    for name in game_names():
        try:
            game = get_game(name)
        except (ImportError, AttributeError):
            table.add_row(name, "(engine not installed)", "", "", "")
            continue
        options = ", ".join(f"{k}={v}" for k, v in game.default_options.items())
        table.add_row(
            name, game.title, f"{game.min_players}-{game.max_players}", game.rules_version, options
        )
    Console(markup=False).print(table)


def register(app: typer.Typer) -> None:
    app.command("games")(games)
