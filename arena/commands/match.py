"""``arena match``: one game between bots, with a result table and optionally every decision."""

from __future__ import annotations

import json
import math
import secrets
from dataclasses import asdict
from pathlib import Path
from typing import Any

import trio
import typer
from rich.console import Console
from rich.table import Table

from arena.commands import fail, match_setup, sandbox_options, warn_if_guessable
from arena.commands.database import db_option
from arena.manifest import BotSpec, ManifestError, load_manifest, remote_bot
from arena.sandbox import describe_limits
from arena.match import (
    MatchObserver,
    MatchRecord,
    MatchSetupError,
    Outcome,
    TimeControl,
    play_match,
)
from arena.storage.bots import UnknownBotError, latest_version, to_spec
from arena.storage.database import StorageError, open_database
from engine.core import EngineError, GameState
from engine.registry import get_game

console = Console(highlight=False, markup=False)
error_console = Console(highlight=False, markup=False, stderr=True)


def resolve_bot(text: str, game: str, db: Path) -> BotSpec:
    """A bot directory (with bot.toml), NAME@HOST:PORT for a bot already running elsewhere, or
    the name of a bot registered (``arena submit``) in the database ``db``."""
    if "@" in text and not Path(text).exists():
        name, address = text.split("@", 1)
        return remote_bot(address, name, games=(game,))
    if "/" in text or Path(text).exists():
        spec = load_manifest(Path(text))
        where = f"{Path(text) / 'bot.toml'}: bot"
    else:
        spec = registered_bot(text, db)
        where = "registered bot"
    if game not in spec.games:
        raise MatchSetupError(f"{where} {spec.name!r} does not play {game} "
                              f"(games: {', '.join(spec.games)})")
    return spec


def registered_bot(name: str, db: Path) -> BotSpec:
    if not db.exists():
        raise MatchSetupError(f"{name!r} is neither a bot directory nor a registered bot "
                              f"(no arena database {db})")
    try:
        database = open_database(db, create=False)
        try:
            with database.read() as session:
                return to_spec(latest_version(session, name))
        finally:
            database.close()
    except (StorageError, UnknownBotError) as exc:
        raise MatchSetupError(str(exc)) from None


class ShowDecisions(MatchObserver):
    """Prints every decision and the board after it (``--show``)."""

    def __init__(self) -> None:
        self.players: list[str] = []

    def match_started(self, state: GameState, players: list[str]) -> None:
        self.players = list(players)
        console.print(state.render(), soft_wrap=True)

    def decision_made(self, number: int, seat: int, kind: str, action: Any, index: int,
                      seconds: float, by_arena: bool, comment: str, state: GameState) -> None:
        who = "arena for " if by_arena else ""
        note = f" - {comment}" if comment else ""
        console.print(f"#{number} seat {seat} ({who}{self.players[seat]}) {kind}: {action!r} "
                      f"[{seconds * 1000:.1f} ms]{note}", soft_wrap=True)
        console.print(state.render(), soft_wrap=True)

    def seat_forfeited(self, seat: int, outcome: Outcome, reason: str) -> None:
        console.print(f"seat {seat} ({self.players[seat]}) forfeits: {outcome.value}: {reason}",
                      markup=False)


def print_record(record: MatchRecord) -> None:
    console.print(f"{record.game} ({record.rules_version}), {record.num_players} players, "
                  f"seed {record.seed}, {len(record.actions)} decisions, "
                  f"{record.duration:.2f} s", soft_wrap=True)
    table = Table("seat", "bot", "score", "rank", "outcome", "time used", "decisions")
    for seat in record.seats:
        table.add_row(str(seat.seat), seat.player, f"{seat.score:g}", str(seat.rank),
                      seat.outcome.value, f"{seat.time_used:.3f} s", str(seat.decisions))
    console.print(table)
    for seat in record.seats:
        if seat.reason:
            console.print(f"seat {seat.seat} ({seat.player}) {seat.outcome.value}: {seat.reason}",
                          soft_wrap=True)


# Exit code of `arena match` when the game was played but a seat forfeited (ILLEGAL, TIMEOUT,
# CRASH): the result stands, but a script may want to know.
FORFEIT_EXIT_CODE = 3


def record_json(record: MatchRecord) -> str:
    """The match's result as one JSON object (``--json``)."""
    data = asdict(record)
    data["decisions"] = len(data.pop("actions"))
    for seat in data["seats"]:
        seat["outcome"] = seat["outcome"].value
    return json.dumps(data)


def match(
    bots: list[str] = typer.Argument(
        ..., metavar="BOT...",
        help="bot directories (with bot.toml), registered bot names, or NAME@HOST:PORT"),
    game: str = typer.Option(..., "--game", "-g", help="game to play, see `arena games`"),
    seed: int = typer.Option(None, "--seed", "-s", help="game seed (default: random, printed)"),
    move_time: float = typer.Option(2.0, "--move-time", help="seconds per decision"),
    bank_time: float = typer.Option(0.0, "--bank-time", help="time bank per seat, seconds"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
    show: bool = typer.Option(False, "--show", help="print every decision and the board"),
    as_json: bool = typer.Option(False, "--json", help="print the result as one JSON object "
                                 "instead of the table"),
    bot_memory: str = match_setup.bot_memory_option(),
    bot_logs: Path = match_setup.bot_logs_option(),
    sandbox: str = sandbox_options.sandbox_option(),
    allow_network: bool = sandbox_options.allow_network_option(),
    db: Path = db_option(),
) -> None:
    """Play one game between bots, one per seat in the order given. Exit code 0: played, 1: the
    game was voided (a fault of the arena), 3: played, but a seat forfeited."""
    try:
        game = match_setup.load_game(game).name
        specs = [resolve_bot(text, game, db) for text in bots]
        options = match_setup.parse_options(game, option)
        get_game(game).check_setup(len(specs), options)
        if not (math.isfinite(move_time) and move_time > 0
                and math.isfinite(bank_time) and bank_time >= 0):
            raise MatchSetupError("--move-time must be a finite number > 0 and --bank-time a "
                                  "finite number >= 0")
        limits = match_setup.parse_limits(bot_memory)
        bot_logs = match_setup.prepare_bot_logs(bot_logs)
        policy = sandbox_options.resolve_policy(sandbox, allow_network, strict=False)
    except (ManifestError, MatchSetupError, EngineError) as exc:
        fail(str(exc))
    if seed is None:
        seed = secrets.randbits(63)  # large, so a bot cannot search for it
    else:
        warn_if_guessable(seed)
    time_control = TimeControl(move_seconds=move_time, bank_seconds=bank_time)
    match_setup.warn_unless_limits_enforced()
    if any(not spec.is_remote for spec in specs):
        (error_console if as_json else console).print(describe_limits(policy, limits),
                                                      soft_wrap=True)
    try:
        record = trio.run(lambda: play_match(game, specs, seed, options=options,
                                             time_control=time_control,
                                             observer=ShowDecisions() if show else None,
                                             limits=limits, bot_logs=bot_logs,
                                             sandbox=policy))
    except KeyboardInterrupt:
        fail("interrupted; the game was abandoned and its bots stopped", code=130)
    if as_json:
        print(record_json(record))
    else:
        print_record(record)
    if record.voided:
        fail(f"game voided: {record.void_reason}", code=1)
    if any(seat.outcome is not Outcome.FINISHED for seat in record.seats):
        raise typer.Exit(FORFEIT_EXIT_CODE)


def register(app: typer.Typer) -> None:
    app.command("match")(match)
