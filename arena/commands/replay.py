"""``arena replay GAME_ID``: re-run a stored game through the engine from its seed and action log,
check that the result equals the stored one, and show the final position."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from arena.commands import fail
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.replay import Move, load_stored_game, mismatches, moves, replayed_state
from arena.storage.games import VOIDED

console = Console(highlight=False)


def replay(
    game_id: Annotated[int, typer.Argument(help="id of a stored game")],
    seat: Annotated[int | None, typer.Option(
        "--seat", help="show the final position as this seat sees it")] = None,
    show_moves: Annotated[bool, typer.Option(
        "--moves", help="first print the game decision by decision")] = False,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Replay a stored game, verify its result, and render its final position."""
    stored = load_stored_game(db, game_id)
    game = stored.game
    if seat is not None and not 0 <= seat < game.num_players:
        fail(f"--seat must be 0..{game.num_players - 1} for game {game_id}")
    if show_moves:
        names = [stored.versions[row.bot_version_id].bot.name for row in stored.seats]
        for move in moves(game):
            print_move(move, names)
    state = replayed_state(game)
    console.print(state.render(seat), markup=False)
    table = Table("seat", "bot", "score", "rank", "outcome", "time used", "decisions",
                  title=f"game {game_id}: {game.game} ({game.rules_version}), seed {game.seed}, "
                        f"{len(game.actions)} decisions, {game.status}")
    for row in stored.seats:
        outcome = row.outcome + (f": {row.reason}" if row.reason else "")
        table.add_row(str(row.seat), stored.versions[row.bot_version_id].label, f"{row.score:g}",
                      str(row.rank), outcome, f"{row.time_used:.3f} s", str(row.decisions))
    console.print(table)
    if game.status == VOIDED:
        console.print(f"voided game ({game.termination}): replayed up to where it stopped")
        return
    if not state.is_over:
        fail(f"game {game_id}: the replayed game is not over after its {len(game.actions)} "
             "stored actions", code=1)
    problems = mismatches(state.result(), stored.seats)
    if problems:
        fail(f"game {game_id}: replay differs from the stored result: {'; '.join(problems)}",
             code=1)
    console.print("verified: the replay's result equals the stored one")


def print_move(move: Move, names: list[str]) -> None:
    """ "#12 seat 1 (random-python) PLAY: farmer on (3,4) with settler [1.8 ms] - a comment";
    Ogallala's "PLACE_CARD (warrior 3): place on (0,1)" names the card too."""
    took = ("" if move.seconds is None else f" [{move.seconds * 1000:.1f} ms]")
    note = f" - {move.comment}" if move.comment else ""
    console.print(f"#{move.number} seat {move.seat} ({names[move.seat]}) {move.decision}: "
                  f"{move.words}{took}{note}", soft_wrap=True, markup=False)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
