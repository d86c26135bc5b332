"""``arena replay GAME_ID``: re-run a stored game through the engine from its seed and action log,
check that the result equals the stored one, and show the final position."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from sqlmodel import select

from arena.commands import fail
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.errors import SetupError
from arena.game_setup import load_game
from arena.records import Outcome, arena_ranks
from arena.storage import bots
from arena.storage.database import open_database
from arena.storage.games import VOIDED
from arena.storage.models import GameRecord, SeatRecordRow
from engine.core import EngineError, Result

console = Console(highlight=False)


def mismatches(result: Result, seats: Sequence[SeatRecordRow]) -> list[str]:
    forfeited = [seat.outcome != Outcome.FINISHED.value for seat in seats]
    ranks = arena_ranks(result.ranks, forfeited)
    problems = []
    for seat in seats:
        replayed_score = result.scores[seat.seat]
        if not math.isclose(replayed_score, seat.score, rel_tol=1e-9, abs_tol=1e-9):
            problems.append(f"seat {seat.seat} score {replayed_score:g} != stored {seat.score:g}")
        if ranks[seat.seat] != seat.rank:
            problems.append(f"seat {seat.seat} rank {ranks[seat.seat]} != stored {seat.rank}")
    return problems


def replay(
    game_id: Annotated[int, typer.Argument(help="id of a stored game")],
    seat: Annotated[int | None, typer.Option(
        "--seat", help="show the final position as this seat sees it")] = None,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Replay a stored game, verify its result, and render its final position."""
    database = open_database(db, create=False)
    try:
        with database.read() as session:
            game = session.get(GameRecord, game_id)
            if game is None:
                fail(f"no game {game_id} in {db}")
            seats = list(session.exec(select(SeatRecordRow).where(SeatRecordRow.game_id == game_id)
                                      .order_by(SeatRecordRow.seat)))
            versions = bots.versions_by_id(session, [s.bot_version_id for s in seats])
    finally:
        database.close()
    if seat is not None and not 0 <= seat < game.num_players:
        fail(f"--seat must be 0..{game.num_players - 1} for game {game_id}")
    try:
        state = load_game(game.game).replay(game.num_players, game.seed, game.actions,
                                            game.options, rules_version=game.rules_version)
    except (EngineError, SetupError) as exc:
        fail(f"game {game_id} cannot be replayed: {exc}")
    console.print(state.render(seat), markup=False)
    table = Table("seat", "bot", "score", "rank", "outcome", "time used", "decisions",
                  title=f"game {game_id}: {game.game} ({game.rules_version}), seed {game.seed}, "
                        f"{len(game.actions)} decisions, {game.status}")
    for row in seats:
        outcome = row.outcome + (f": {row.reason}" if row.reason else "")
        table.add_row(str(row.seat), versions[row.bot_version_id].label, f"{row.score:g}",
                      str(row.rank), outcome, f"{row.time_used:.3f} s", str(row.decisions))
    console.print(table)
    if game.status == VOIDED:
        console.print(f"voided game ({game.termination}): replayed up to where it stopped")
        return
    if not state.is_over:
        fail(f"game {game_id}: the replayed game is not over after its {len(game.actions)} "
             "stored actions", code=1)
    problems = mismatches(state.result(), seats)
    if problems:
        fail(f"game {game_id}: replay differs from the stored result: {'; '.join(problems)}",
             code=1)
    console.print("verified: the replay's result equals the stored one")


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
