"""``arena match``: one game between bots, with a result table and optionally every decision."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Annotated

import trio
import typer
from rich.console import Console
from rich.table import Table

from arena import stopping
from arena.commands import fail, warn, warn_if_guessable, warn_unless_limits_enforced
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.options import BotLogs, BotMemory, GameOptions, MoveTime
from arena.commands.sandbox_options import AllowNetwork, SandboxTool, resolve_policy
from arena.manifest import stale_build
from arena.match_setup import plan_match
from arena.match_storage import shown_live, store_match, url_if_served
from arena.records import MatchRecord, Outcome, TimeControl
from arena.referee.match import Decision, MatchObserver, play_match
from arena.sandbox import describe_limits
from engine.core import GameState

console = Console(highlight=False, markup=False)
error_console = Console(highlight=False, markup=False, stderr=True)


class ShowDecisions(MatchObserver):
    """Prints every decision and the board after it (``--show``)."""

    def __init__(self) -> None:
        self.players: list[str] = []

    def match_started(self, state: GameState, players: Sequence[str]) -> None:
        self.players = list(players)
        console.print(state.render(), soft_wrap=True)

    def decision_made(self, decision: Decision, state: GameState) -> None:
        who = "arena for " if decision.by_arena else ""
        note = f" - {decision.comment}" if decision.comment else ""
        console.print(
            f"#{decision.number} seat {decision.seat} ({who}{self.players[decision.seat]}) "
            f"{decision.kind}: {state.describe_action(decision.action)} "
            f"[{decision.seconds * 1000:.1f} ms]{note}",
            soft_wrap=True,
        )
        console.print(state.render(), soft_wrap=True)

    def seat_forfeited(self, seat: int, outcome: Outcome, reason: str) -> None:
        console.print(
            f"seat {seat} ({self.players[seat]}) forfeits: {outcome.value}: {reason}", markup=False
        )


class Observers(MatchObserver):
    """Several observers of one match, told in turn."""

    def __init__(self, observers: Sequence[MatchObserver]) -> None:
        self.observers = observers

    def match_started(self, state: GameState, players: Sequence[str]) -> None:
        for observer in self.observers:
            observer.match_started(state, players)

    def decision_made(self, decision: Decision, state: GameState) -> None:
        for observer in self.observers:
            observer.decision_made(decision, state)

    def seat_forfeited(self, seat: int, outcome: Outcome, reason: str) -> None:
        for observer in self.observers:
            observer.seat_forfeited(seat, outcome, reason)

    def match_finished(self, record: MatchRecord, state: GameState) -> None:
        for observer in self.observers:
            observer.match_finished(record, state)


def print_record(record: MatchRecord) -> None:
    console.print(
        f"{record.game} ({record.rules_version}), {record.num_players} players, "
        f"seed {record.seed}, {len(record.actions)} decisions, "
        f"{record.duration:.2f} s",
        soft_wrap=True,
    )
    table = Table("seat", "bot", "score", "rank", "outcome", "time used", "decisions")
    for seat in record.seats:
        table.add_row(
            str(seat.seat),
            seat.player,
            f"{seat.score:g}",
            str(seat.rank),
            seat.outcome.value,
            f"{seat.time_used:.3f} s",
            str(seat.decisions),
        )
    console.print(table)
    for seat in record.seats:
        if seat.reason:
            console.print(
                f"seat {seat.seat} ({seat.player}) {seat.outcome.value}: {seat.reason}",
                soft_wrap=True,
            )


# Exit code of `arena match` when the game was played but a seat forfeited (ILLEGAL, TIMEOUT,
# CRASH): the result stands, but a script may want to know.
FORFEIT_EXIT_CODE = 3


def record_json(record: MatchRecord, game_id: int | None, *, rated: bool = False) -> str:
    """The match's result as one JSON object (``--json``); ``game_id`` None if not stored,
    ``rated`` whether it was stored with Elo updates."""
    data = {"game_id": game_id, "rated": rated, **asdict(record)}
    data["decisions"] = len(data.pop("actions"))
    for seat in data["seats"]:
        seat["outcome"] = seat["outcome"].value
    return json.dumps(data)


def match(
    bots: Annotated[
        list[str],
        typer.Argument(
            metavar="BOT...",
            help="bot directories (with bot.toml), registered bot names, or NAME@HOST:PORT",
        ),
    ],
    game: Annotated[str, typer.Option("--game", "-g", help="game to play, see `arena games`")],
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="game seed (default: random, printed)")
    ] = None,
    move_time: MoveTime = TimeControl.move_seconds,
    bank_time: Annotated[
        float, typer.Option("--bank-time", help="time bank per seat, seconds")
    ] = TimeControl.bank_seconds,
    option: GameOptions = [],  # noqa: B006 - typer copies the default
    show: Annotated[
        bool, typer.Option("--show", help="print every decision and the board")
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="print the result as one JSON object instead of the table"),
    ] = False,
    bot_memory: BotMemory = None,
    bot_logs: BotLogs = None,
    sandbox: SandboxTool = None,
    allow_network: AllowNetwork = False,
    no_store: Annotated[
        bool,
        typer.Option(
            "--no-store",
            help="do not record the game in the database (by default it is stored, not "
            "rated, and `arena replay` and `arena serve` show it)",
        ),
    ] = False,
    rated: Annotated[
        bool,
        typer.Option(
            "--rated",
            help="rate the game: its result moves the bots' Elo on the leaderboard, as "
            "tournaments' and SPRT tests' games do",
        ),
    ] = False,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Play one game between bots, one per seat in the order given; the game is stored in the
    database unless --no-store, and rated only with --rated. Exit code 0: played, 1: the game
    was voided (a fault of the arena), 3: played, but a seat forfeited."""
    if rated and no_store:
        fail("--rated rates a stored game: give --rated or --no-store, not both")
    plan = plan_match(
        game,
        bots,
        db,
        seed=seed,
        option_texts=option,
        move_seconds=move_time,
        bank_seconds=bank_time,
        bot_memory=bot_memory,
        bot_logs=bot_logs,
        sandbox=resolve_policy(sandbox, allow_network, strict=False),
    )
    if seed is not None:
        warn_if_guessable(seed)
    warn_unless_limits_enforced()
    for spec in plan.bots:
        if stale := stale_build(spec):
            warn(stale)
    if any(spec.address is None for spec in plan.bots):
        (error_console if as_json else console).print(
            describe_limits(plan.sandbox, plan.limits), soft_wrap=True
        )

    async def play_and_store() -> tuple[MatchRecord, int | None]:
        """Play the game, shown live on the web's /live while it is played, and store it."""
        stored = None if no_store else db  # not stored: nothing to replay, not shown live
        async with shown_live(stored, plan.game, plan.seed, plan.options, plan.bots) as live:
            observers = [ShowDecisions() if show else None, live.observer if live else None]
            record = await play_match(
                plan.game,
                plan.bots,
                plan.seed,
                options=plan.options,
                time_control=plan.time_control,
                observer=Observers([o for o in observers if o is not None]),
                limits=plan.limits,
                bot_logs=plan.bot_logs,
                sandbox=plan.sandbox,
            )
            game_id = None
            if not no_store:
                game_id = await trio.to_thread.run_sync(
                    lambda: store_match(db, record, plan.bots, rated=rated)
                )
            if live is not None:
                live.stored(game_id)
            return record, game_id

    try:
        # Ctrl-C or SIGTERM cancels the game: its bots are stopped, and a repeat meanwhile
        # waits for that (it had raised KeyboardInterrupt wherever it landed, or killed the
        # command by the signal as it exited)
        record, game_id = trio.run(stopping.until_a_stop_signal, play_and_store)
    except KeyboardInterrupt:
        fail("interrupted; the game was abandoned and its bots stopped", code=130)
    if as_json:
        print(record_json(record, game_id, rated=rated and not record.voided))
    else:
        print_record(record)
        if game_id is not None:
            url = url_if_served(game_id, record)
            console.print(
                f"stored as game {game_id} in {db}"
                + ("" if rated or record.voided else ", not rated (--rated rates a match)")
                + (
                    f": {url}"
                    if url
                    else f" (arena replay {game_id} --moves, or arena serve to watch it)"
                ),
                soft_wrap=True,
            )
    if record.voided:
        fail(f"game voided: {record.void_reason}", code=1)
    if any(seat.outcome is not Outcome.FINISHED for seat in record.seats):
        raise typer.Exit(FORFEIT_EXIT_CODE)


def register(app: typer.Typer) -> None:
    app.command("match")(match)
