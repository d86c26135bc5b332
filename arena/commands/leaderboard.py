"""``arena leaderboard``: ratings per game type, and the head-to-head cross table."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from sqlmodel import Session

from arena.commands import fail
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.storage import bots, games
from arena.storage.database import Database, open_database
from engine.registry import game_names
from leaderboard.tables import HeadToHead, LeaderboardRow, cross_table, leaderboard_rows

console = Console(highlight=False)
if not console.is_terminal:  # logs and pipes: rich's default of 80 columns would wrap every row
    console.width = max(console.width, 120)


@dataclass
class Board:
    game: str
    rows: list[LeaderboardRow]
    crosstable: dict[tuple[str, str], HeadToHead] | None  # only when asked for
    versions: dict[int, bots.RegisteredVersion]

    def bot(self, player: str) -> str:
        return self.versions[int(player)].bot.name

    def version(self, player: str) -> str:
        version = self.versions[int(player)].version
        return f"{version.version} {version.content_hash[:6]}"


def build_board(session: Session, game: str, with_crosstable: bool = False) -> Board:
    # Imported here: choix imports scipy.stats (1-3 s), which the other commands do not need.
    from leaderboard.batch import fit_batch

    results = games.finished_game_results(session, game)
    rows = leaderboard_rows(results, games.stored_elo(session, game), fit_batch(results))
    versions = bots.versions_by_id(session, [int(row.player) for row in rows])
    return Board(game, rows, cross_table(results) if with_crosstable else None, versions)


def load_boards(database: Database, game: str | None,
                with_crosstable: bool = False) -> list[Board]:
    with database.read() as session:
        names = [game] if game else games.games_played(session)
        return [build_board(session, name, with_crosstable) for name in names]


def _forfeits(row: LeaderboardRow) -> str:
    return ", ".join(f"{reason} {count}" for reason, count in row.forfeits.items()) or "-"


def print_board(board: Board) -> None:
    if not board.rows:
        console.print(f"{board.game}: no rated games yet")
        return
    table = Table("#", "bot", "version", "Elo", "batch [95%]", "games", "avg pos", "avg score",
                  "forfeits", title=f"{board.game} leaderboard")
    for row in board.rows:
        batch = (f"{row.batch.rating:.0f} [{row.batch.low:.0f}, {row.batch.high:.0f}]"
                 if row.batch else "-")
        table.add_row(str(row.position), board.bot(row.player), board.version(row.player),
                      f"{row.elo:.0f}", batch, str(row.games), f"{row.average_rank:.2f}",
                      f"{row.average_score:.1f}", _forfeits(row))
    console.print(table)
    if board.crosstable is not None:
        players = [row.player for row in board.rows]
        cross = Table("row vs column", *[board.bot(p) for p in players],
                      title=f"{board.game} head to head: points share (games)")
        for a in players:
            cells = []
            for b in players:
                record = board.crosstable.get((a, b))
                cells.append("" if a == b or record is None
                             else f"{record.share:.0%} ({record.games})")
            cross.add_row(board.bot(a), *cells)
        console.print(cross)


def board_json(board: Board) -> dict[str, Any]:
    return {
        "game": board.game,
        "rows": [{
            "position": row.position, "bot": board.bot(row.player),
            "version": board.versions[int(row.player)].version.version,
            "content_hash": board.versions[int(row.player)].version.content_hash,
            "elo": round(row.elo, 2),
            "batch": None if row.batch is None else {
                "rating": round(row.batch.rating, 2), "low": round(row.batch.low, 2),
                "high": round(row.batch.high, 2)},
            "games": row.games, "average_rank": row.average_rank,
            "average_score": row.average_score, "forfeits": row.forfeits,
        } for row in board.rows],
        "crosstable": None if board.crosstable is None else [{
            "bot": board.bot(a), "version": board.version(a), "opponent": board.bot(b),
            "opponent_version": board.version(b), "games": record.games, "points": record.score,
        } for (a, b), record in board.crosstable.items()],
    }


def leaderboard(
    game: Annotated[str | None, typer.Option("--game", "-g", help="only this game type")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    crosstable: Annotated[bool, typer.Option(
        "--crosstable", help="also the head-to-head table")] = False,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Elo, batch rating with 95% interval, games, average position and score, forfeits."""
    if game is not None and game.lower() not in game_names():
        fail(f"unknown game {game!r}; known games: {', '.join(game_names())}")
    database = open_database(db, create=False)
    try:
        boards = load_boards(database, game.lower() if game else None, crosstable)
    finally:
        database.close()
    if as_json:
        typer.echo(json.dumps([board_json(board) for board in boards], indent=2))
        return
    if not boards:
        console.print("no rated games yet")
    for board in boards:
        print_board(board)


def register(app: typer.Typer) -> None:
    app.command("leaderboard")(leaderboard)
