"""``arena new-bot``: write a starter bot directory."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena.new_bot import LANGUAGES, missing_tools, new_bot


def new_bot_command(
    name: Annotated[str, typer.Argument(help="the bot's name (lower case, digits, . _ -)")],
    lang: Annotated[
        str, typer.Option("--lang", help=f"the bot's language: {', '.join(LANGUAGES)}")
    ] = "python",
    directory: Annotated[
        Path | None, typer.Option("--dir", help="where to write it (default ./NAME; new or empty)")
    ] = None,
) -> None:
    """Write a bot directory (bot.toml, code with a choose function to edit, README; for Go,
    Java and C++ a build.sh and the protocol's .proto files) that passes `arena validate` as it
    is."""
    target = directory if directory is not None else Path(name)
    language = lang.lower()
    written = new_bot(name, language, target)
    for path in written:
        typer.echo(f"wrote {path}")
    if missing := missing_tools(language):
        typer.echo(
            f"note: {', '.join(missing)} not on PATH: the bot cannot be built or run here; "
            f"install {LANGUAGES[language].packages or 'them'}",
            err=True,
        )
    typer.echo(f"next: edit choose in {written[0]}, then `arena validate {target}`")


def register(app: typer.Typer) -> None:
    app.command("new-bot")(new_bot_command)
