"""``arena replay GAME_ID``: re-run a stored game through the engine from its seed and action log,
check it (its result, and its seal: every decision, seat and score), and show the final position.
Exit code 1 when the check fails (a log that does not replay fails it too)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from arena.commands import fail
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.options import MAX_SQL_INTEGER
from arena.errors import ReplayError
from arena.replay import (
    Move,
    StoredGame,
    load_stored_game,
    move_line,
    moves,
    replayed_state,
    verify,
)
from arena.storage.models import GameStatus

console = Console(highlight=False, markup=False)  # text as it is, never markup


def replay(
    game_id: Annotated[int, typer.Argument(min=1, max=MAX_SQL_INTEGER, help="id of a stored game")],
    seat: Annotated[
        int | None, typer.Option("--seat", help="show the final position as this seat sees it")
    ] = None,
    show_moves: Annotated[
        bool, typer.Option("--moves", help="first print the game decision by decision")
    ] = False,
    verify_only: Annotated[
        bool,
        typer.Option(
            "--verify", help="only check the game (no rendering): exit 0 when intact, 1 when not"
        ),
    ] = False,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Replay a stored game, check it against its seal and its stored result, and render its
    final position. Exit code 1 when the check fails. Games stored before seals existed are
    checked on their result only, and marked unverified."""
    stored = load_stored_game(db, game_id)
    game = stored.game
    if seat is not None and not 0 <= seat < game.num_players:
        fail(f"--seat must be 0..{game.num_players - 1} for game {game_id}")
    if not verify_only:
        try:
            show(stored, seat, show_moves)
        except ReplayError as exc:
            console.print(f"cannot show the game: {exc}", markup=False)
    report(stored)


def report(stored: StoredGame) -> None:
    """Print the verdict; exit 1 if the check failed."""
    game_id = stored.game.id
    verdict = verify(stored)
    if not verdict.ok:
        fail(f"game {game_id} failed verification: {'; '.join(verdict.problems)}", code=1)
    if stored.game.status == GameStatus.VOIDED:
        what = "verified" if verdict.sealed else "unverified (stored without a seal)"
        console.print(
            f"voided game ({stored.game.termination}), {what}: replays up to where it stopped"
        )
    elif verdict.sealed:
        console.print(
            f"game {game_id} verified: every decision, seat, bot version and score "
            "matches its seal, and the replay's result equals the stored one"
        )
    else:
        console.print(
            f"game {game_id} unverified: stored without a seal (before schema 3); "
            "the replay's result equals the stored one"
        )


def show(stored: StoredGame, seat: int | None, show_moves: bool) -> None:
    """The moves (if asked), the final position and the seats."""
    game, game_id = stored.game, stored.game.id
    if show_moves:
        names = [stored.versions[row.bot_version_id].bot.name for row in stored.seats]
        for move in moves(game):
            print_move(move, names)
    state = replayed_state(game)
    console.print(state.render(seat), markup=False)
    table = Table(
        "seat",
        "bot",
        "score",
        "rank",
        "outcome",
        "time used",
        "decisions",
        title=f"game {game_id}: {game.game} ({game.rules_version}), seed {game.seed}, "
        f"{len(game.actions)} decisions, {game.status}",
    )
    for row in stored.seats:
        outcome = row.outcome + (f": {row.reason}" if row.reason else "")
        table.add_row(
            str(row.seat),
            stored.versions[row.bot_version_id].label,
            f"{row.score:g}",
            str(row.rank),
            outcome,
            f"{row.time_used:.3f} s",
            str(row.decisions),
        )
    console.print(table)


def print_move(move: Move, names: list[str]) -> None:
    console.print(move_line(move, names), soft_wrap=True, markup=False)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
