"""``arena history``: the stored games, newest first, with their ids (for ``arena replay`` and
the web arena's /games/ID)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from arena.commands import fail
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.options import MAX_SQL_INTEGER
from arena.records import Outcome
from arena.referee.bot_text import one_line
from arena.storage import tournaments
from arena.storage.models import GameStatus
from arena.storage.read_only import GameFilter, ReadOnlyDatabase
from engine.registry import game_names

console = Console(highlight=False, markup=False)  # text as it is, never markup
if not console.is_terminal:  # pipes and logs: do not wrap rows at 80 columns
    console.width = max(console.width, 120)


def history(
    game: Annotated[str | None, typer.Option("--game", "-g", help="only this game type")] = None,
    bot: Annotated[str | None, typer.Option("--bot", help="only games this bot played")] = None,
    tournament: Annotated[
        str | None,
        typer.Option("--tournament", "-t", help="only the games of this tournament (its name)"),
    ] = None,
    limit: Annotated[
        int, typer.Option("--limit", "-n", min=1, max=1000, help="at most this many games")
    ] = 20,
    offset: Annotated[
        int,
        typer.Option(
            "--offset", min=0, max=MAX_SQL_INTEGER, help="skip this many of the newest games first"
        ),
    ] = 0,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="machine-readable output: the games and the total matching"),
    ] = False,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """List stored games, newest first: id, game, seats with scores and outcomes, tournament."""
    if game is not None and game.lower() not in game_names():  # a typo, not "no games"
        fail(f"unknown game {game!r}; known games: {', '.join(game_names())}")
    database = ReadOnlyDatabase(db)
    if bot is not None and bot not in (names := database.bot_names()):
        shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        fail(f"unknown bot {bot!r} (registered: {shown or 'none'})")
    tournament_id = None
    if tournament is not None:
        with database.session() as session:
            tournament_id = tournaments.by_name(session, tournament).id
    listing = database.games(
        GameFilter(
            game=game.lower() if game else None,
            bot=bot,
            tournament=tournament_id,
            limit=limit,
            offset=offset,
        )
    )
    if as_json:
        typer.echo(json.dumps(listing, indent=2))
        return
    if not listing["games"]:
        console.print("no stored games match")
        return
    table = Table(
        "id",
        "game",
        "result (rank, bot, score)",
        "decisions",
        "tournament",
        "finished",
        title=f"{len(listing['games'])} of {listing['total']} games",
    )
    for row in listing["games"]:
        seats = sorted(row["seats"], key=lambda seat: (seat["rank"], seat["seat"]))
        result = "  ".join(
            f"{seat['rank']}. {seat['bot']} {seat['score']:g}"
            + ("" if seat["outcome"] == Outcome.FINISHED.value else f" {seat['outcome']}")
            for seat in seats
        )
        if row["status"] == GameStatus.VOIDED:
            result += "  (voided)"
        table.add_row(
            str(row["id"]),
            f"{row['game']} {row['num_players']}p",
            result,
            str(row["decisions"]),
            row["tournament"] or "match",
            row["finished_at"][:19],
        )
    console.print(table, markup=False)
    for row in listing["games"]:  # why each forfeit, which the table only names
        for seat in row["seats"]:
            if seat["outcome"] != Outcome.FINISHED.value:
                console.print(
                    f"game {row['id']}: {seat['bot']} {seat['outcome']}: "
                    f"{one_line(seat['reason'], 200)}",
                    markup=False,
                    soft_wrap=True,
                )


def register(app: typer.Typer) -> None:
    app.command("history")(history)
