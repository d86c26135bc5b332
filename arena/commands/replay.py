"""``arena replay GAME_ID``: re-run a stored game through the engine from its seed and action log,
check that the result equals the stored one, and show the final position."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from arena.commands import fail
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.replay import load_stored_game, mismatches, replayed_state
from arena.storage.games import VOIDED

console = Console(highlight=False)


def replay(
    game_id: Annotated[int, typer.Argument(help="id of a stored game")],
    seat: Annotated[int | None, typer.Option(
        "--seat", help="show the final position as this seat sees it")] = None,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Replay a stored game, verify its result, and render its final position."""
    stored = load_stored_game(db, game_id)
    game = stored.game
    if seat is not None and not 0 <= seat < game.num_players:
        fail(f"--seat must be 0..{game.num_players - 1} for game {game_id}")
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


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
