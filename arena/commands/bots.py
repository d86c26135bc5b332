"""``arena bots``: the registered bots and their versions; the operator withdraws a bot from play
and restores it."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Column, Table

from arena.commands import wide_console
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.referee.bot_text import one_line
from arena.storage import bots as stored_bots
from arena.storage import ladders, withdrawals
from arena.storage.database import open_database
from arena.storage.target import may_exist

app = typer.Typer(
    help="List every registered bot version (by name, each bot's oldest version first: arena "
    "bots); withdraw a bot from play, or restore it.",
    invoke_without_command=True,
)
BotName = Annotated[str, typer.Argument(help="the bot's name, as arena bots lists it")]


@app.callback()
def bots(ctx: typer.Context, db: DbPath = DEFAULT_PATH) -> None:
    """List every registered bot version (by name, each bot's oldest version first); withdraw a
    bot from play, or restore it."""
    if ctx.invoked_subcommand is None:
        list_bots(db)


@app.command("list")
def list_bots(db: DbPath = DEFAULT_PATH) -> None:
    """List every registered bot version, by name, each bot's oldest version first (the same as
    arena bots)."""
    database = open_database(db, create=False)
    try:
        with database.read() as session:
            versions = stored_bots.all_versions(session)
            paused = ladders.pauses(session)
            withdrawn = withdrawals.of_bots(session)
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
    for bot_id, why in withdrawn.items():
        typer.echo(f"{next(e.bot.name for e in versions if e.bot.id == bot_id)}: {why}")
    for entry in versions:
        for why in paused.get(entry.version.id or 0, []):
            typer.echo(f"{entry.bot.name}@{labels[entry.version.id or 0]}: {why}")


@app.command("withdraw")
def withdraw(
    name: BotName,
    reason: Annotated[
        str,
        typer.Option(
            "--reason",
            help="why, in a few words (one line, at most 300 characters): shown on the bot's "
            "page and to its author",
        ),
    ],
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Take a bot out of play: its versions leave running ladders (the games they are playing
    finish; those planned are dropped within seconds) and join no new ladder round, tournament
    (new or resumed), match or SPRT test until arena bots restore. Its games and ratings stay."""
    if not reason.strip():
        raise typer.BadParameter(
            "give a reason: it is shown to the bot's author", param_hint="--reason"
        )
    database = open_database(db, create=may_exist(db))  # migrated if old, never made
    try:
        with database.write() as session:
            new = withdrawals.withdraw(session, name, one_line(" ".join(reason.split()), 300))
    finally:
        database.close()
    typer.echo(f"{name}: withdrawn" if new else f"{name}: was withdrawn already; reason replaced")


@app.command("restore")
def restore(name: BotName, db: DbPath = DEFAULT_PATH) -> None:
    """Let a withdrawn bot play again (a ladder enters its newest version at its next round)."""
    database = open_database(db, create=may_exist(db))
    try:
        with database.write() as session:
            restored = withdrawals.restore(session, name)
    finally:
        database.close()
    typer.echo(f"{name}: restored" if restored else f"{name}: was not withdrawn")


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="bots")
