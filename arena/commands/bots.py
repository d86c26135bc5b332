"""``arena bots``: the registered bots and their versions."""

from __future__ import annotations

import typer
from rich.table import Column, Table

from arena.commands import wide_console
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.storage import bots as stored_bots
from arena.storage import ladders
from arena.storage.database import open_database


def list_bots(db: DbPath = DEFAULT_PATH) -> None:
    """List every registered bot version, oldest first."""
    database = open_database(db, create=False)
    try:
        with database.read() as session:
            versions = stored_bots.all_versions(session)
            paused = ladders.pauses(session)
    finally:
        database.close()
    # the labels that name a version elsewhere (arena leaderboard --bot NAME@LABEL, arena sprt)
    labels = stored_bots.version_labels(versions)
    table = Table(
        "bot",
        Column("version", no_wrap=True),
        "content hash",
        "games",
        "runs from",
        "registered (UTC)",
    )
    for entry in versions:
        version = entry.version
        table.add_row(
            entry.bot.name,
            labels[version.id or 0],
            version.content_hash[:12],
            ", ".join(version.games),
            version.address or version.directory or "",
            version.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    wide_console().print(table)
    # below the table: a reason is a sentence, too long for a column
    for entry in versions:
        for why in paused.get(entry.version.id or 0, []):
            typer.echo(f"{entry.bot.name}@{labels[entry.version.id or 0]}: {why}")


def register(app: typer.Typer) -> None:
    app.command("bots")(list_bots)
