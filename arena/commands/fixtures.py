"""``arena fixtures``: write the requests of every decision kind for a bot's unit tests."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena.fixtures import write_fixtures


def fixtures_command(
    games: Annotated[
        list[str] | None,
        typer.Argument(metavar="GAME", help="the games (default: every game)"),
    ] = None,
    out: Annotated[Path, typer.Option("--out", help="the directory to write into")] = Path(
        "fixtures"
    ),
) -> None:
    """Write, per game and decision kind, the StartGame and Decide requests a bot receives there
    (wire bytes .binpb and JSON), from the positions `arena validate` plays: OUT/GAME/KIND/
    start_game.binpb, start_game.json, decide.binpb, decide.json, position.json. See
    docs/bots.md, "Unit-testing your bot offline"."""
    written = write_fixtures([game.lower() for game in games or []], out)
    for folder in written:
        typer.echo(f"wrote {folder}")


def register(app: typer.Typer) -> None:
    app.command("fixtures")(fixtures_command)
