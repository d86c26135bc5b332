"""``arena leaderboard``: one board per (game type, player count), the head-to-head cross table,
and with ``--history BOT`` a bot's Elo history."""

from __future__ import annotations

import json
import math
from typing import Annotated, Any

import typer
from rich.table import Column, Table

from arena.commands import fail, wide_console
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.ratings import (
    Board,
    History,
    board_json,
    board_legend,
    load_boards,
    rating_history,
    sparkline,
)
from arena.storage.database import Database, open_database
from arena.wording import counted
from engine.registry import game_names, get_game
from leaderboard.tables import LeaderboardRow, format_batch, pool_heading

console = wide_console()

HISTORY_ROWS = 20


def _forfeits(row: LeaderboardRow) -> str:
    return ", ".join(f"{reason} {count}" for reason, count in row.forfeits.items()) or "-"


def _average(value: float, digits: int) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def _title(board: Board) -> str:
    where = f", tournament {board.tournament}" if board.tournament else ""
    return f"{board.game} leaderboard, {board.players} players{where}"


def print_board(board: Board) -> None:
    """The board's rows pool by pool (a table each when pools do not compare), then the cross
    table if it was asked for."""
    pools: dict[int, list[LeaderboardRow]] = {}
    for row in board.rows:
        pools.setdefault(row.batch.pool if row.batch else 1, []).append(row)
    for rows in pools.values():
        heading = pool_heading(rows[0].batch) if rows[0].batch else ""
        table = Table(
            "#",
            "bot",
            Column("version", no_wrap=True),
            "rating [95%]",
            "Elo",
            "games",
            "avg pos",
            "avg score",
            "forfeits",
            title=_title(board) + (f" - {heading}" if heading else ""),
        )
        for row in rows:
            rating = "-"
            if row.batch is not None:
                rating = format_batch(row.batch)
            table.add_row(
                str(row.position),
                board.bot(row.player),
                board.version(row.player),
                rating,
                f"{row.elo:.0f}",
                str(row.games),
                _average(row.average_rank, 2),
                _average(row.average_score, 1),
                _forfeits(row),
            )
        console.print(table)
    for line in board_legend(board):
        console.print(line, markup=False)
    if board.crosstable is not None:
        players = [row.player for row in board.rows]
        cross = Table(
            "row vs column",
            *[board.bot(p) for p in players],
            title=f"{_title(board)}: head to head, points share (games)",
        )
        for a in players:
            cells = []
            for b in players:
                record = board.crosstable.get((a, b))
                cells.append(
                    "" if a == b or record is None else f"{record.share:.0%} ({record.games})"
                )
            cross.add_row(board.bot(a), *cells)
        console.print(cross)


def tournament_boards(database: Database, name: str) -> list[Board]:
    """The boards of one tournament, every version that played in it."""
    with database.read() as session:
        return load_boards(session, tournament=name, all_versions=True)


def print_history(history: History, limit: int) -> None:
    afters = [entry.after for entry in history.entries]  # oldest first
    table = Table(
        "game",
        "finished",
        "version",
        "Elo",
        "change",
        title=f"{history.bot}: Elo history, {history.game}, {history.players} players",
    )
    for entry in history.entries[-limit:]:
        table.add_row(
            str(entry.game_id),
            entry.finished_at,
            entry.version,
            f"{entry.after:.0f}",
            f"{entry.after - entry.before:+.1f}",
        )
    console.print(table)
    if len(afters) > limit:
        console.print(f"last {limit} of {counted(len(afters), 'game')} listed")
    # a line per version: each has an Elo of its own, from 1500 (review H: one line joined them)
    by_version: dict[str, list[float]] = {}
    for entry in history.entries:
        by_version.setdefault(entry.version, []).append(entry.after)
    for version, elos in by_version.items():
        label = f"{version}, " if len(by_version) > 1 else ""
        console.print(
            f"{label}{counted(len(elos), 'game')}: {sparkline(elos)}  {min(elos):.0f}.."
            f"{max(elos):.0f}, now {elos[-1]:.0f}",
            markup=False,
            soft_wrap=True,
        )


def history_json(history: History) -> dict[str, Any]:
    return {
        "bot": history.bot,
        "game": history.game,
        "players": history.players,
        "history": [
            {
                "game_id": e.game_id,
                "finished_at": e.finished_at,
                "version": e.version,
                "before": round(e.before, 2),
                "after": round(e.after, 2),
            }
            for e in history.entries
        ],
    }


def leaderboard(
    game: Annotated[str | None, typer.Option("--game", "-g", help="only this game type")] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="only the board of this player count")
    ] = None,
    tournament: Annotated[
        str | None,
        typer.Option("--tournament", "-t", help="only the games of this tournament (or SPRT test)"),
    ] = None,
    all_versions: Annotated[
        bool,
        typer.Option(
            "--all-versions",
            help="a row for every version (default: each bot's newest version "
            "that played on the board, plus the versions named by --bot)",
        ),
    ] = False,
    bot: Annotated[
        list[str],
        typer.Option(
            "--bot",
            help="also show this version: NAME@VERSION (a label as shown, a bot.toml "
            "version or a content-hash prefix); repeatable",
        ),
    ] = [],  # noqa: B006
    history: Annotated[
        str | None,
        typer.Option(
            "--history", help="print the Elo history of bot NAME (or NAME@VERSION) instead"
        ),
    ] = None,
    limit: Annotated[
        int,
        typer.Option(
            "--limit", help="with --history: games listed per board (the chart covers more)"
        ),
    ] = (HISTORY_ROWS),
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    crosstable: Annotated[
        bool, typer.Option("--crosstable", help="also the head-to-head table")
    ] = False,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Batch rating, which orders the rows (Plackett-Luce), with its 95% interval ("\\[x, ∞)" or
    "(-∞, x]" when the games bound it on one side only, "~" when the interval is the prior's,
    "?" provisional: a legend under each board says more), Elo, games, average position and
    score over finished games, and forfeits: one board per game type and player count. Ratings
    of two boards, or two pools of one board, do not compare."""
    if game is not None and game.lower() not in game_names():
        fail(f"unknown game {game!r}; known games: {', '.join(game_names())}")
    game = game.lower() if game else None
    if players is not None:  # a count no game of the arena (or the game given) is played by
        engines = [get_game(game)] if game else [get_game(name) for name in game_names()]
        if not any(e.min_players <= players <= e.max_players for e in engines):
            fail(
                f"--players {players}: "
                + "; ".join(
                    f"{e.name} is for {e.min_players}-{e.max_players} players" for e in engines
                )
            )
    database = open_database(db, create=False)
    try:
        with database.read() as session:
            if history is not None:
                histories = rating_history(session, history, game, players)
            else:
                boards = load_boards(
                    session,
                    game,
                    players,
                    tournament=tournament,
                    all_versions=all_versions,
                    bots_asked=bot,
                    with_crosstable=crosstable,
                )
    finally:
        database.close()
    if history is not None:
        if as_json:
            typer.echo(json.dumps([history_json(h) for h in histories], indent=2))
        elif not histories:
            console.print(f"{history}: no rated games" + (f" of {game}" if game else ""))
        for entry in [] if as_json else histories:
            print_history(entry, limit)
        return
    if as_json:
        typer.echo(json.dumps([board_json(board) for board in boards], indent=2))
        return
    if not boards:  # say which boards are empty: the filters may be why
        only = [f"of {game}"] * bool(game) + [f"with {players} players"] * bool(players)
        only += [f"in tournament {tournament!r}"] * bool(tournament)
        console.print(" ".join(["no rated games", *only]) if only else "no rated games yet")
    for board in boards:
        print_board(board)


def register(app: typer.Typer) -> None:
    app.command("leaderboard")(leaderboard)
