"""``arena tournament``: a round robin between bots, recorded game by game; ``--resume T``
continues a stopped or killed one."""

from __future__ import annotations

import json
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Annotated

import trio
import typer
from rich.console import Console

from arena import game_setup
from arena.commands import (
    fail,
    warn_if_guessable,
    warn_ignored_on_resume,
    warn_unless_limits_enforced,
)
from arena.commands.backends import games_played_on
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.leaderboard import board_json, print_board, tournament_boards
from arena.commands.options import (
    BotLogs,
    BotMemory,
    GameOptions,
    LogFile,
    LogLevel,
    MoveTime,
    PinCpus,
    RayAddress,
    RayCpus,
    Workers,
    bot_texts,
)
from arena.commands.progress import ProgressBar
from arena.commands.sandbox_options import AllowNetwork, SandboxTool, resolve_policy
from arena.operator_log import LogConfig, logging_to
from arena.referee.bot_text import one_line
from arena.storage.games import Forfeits, forfeits_in
from arena.tournament import ray_backend
from arena.tournament.runner import run_tournament
from arena.tournament.settings import TournamentSettings
from arena.tournament.setup import ReadyTournament, create_tournament, open_for_resume
from arena.wording import counted

DEFAULTS = TournamentSettings()


def tournament(
    context: typer.Context,
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="game to play, see `arena games`")
    ] = None,
    bot_list: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="comma-separated bot directories, registered bot names or NAME@HOST:PORT "
            "(default: all registered bots of the game, else the sample bots)",
        ),
    ] = None,
    players: Annotated[int, typer.Option("--players", "-p", help="seats per game")] = (
        DEFAULTS.players
    ),
    deals: Annotated[int, typer.Option("--deals", "-k", help="deals (seeds) per pod")] = (
        DEFAULTS.deals
    ),
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", help="games at once")] = (
        DEFAULTS.concurrency
    ),
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="tournament seed (default: random)")
    ] = None,
    move_time: MoveTime = DEFAULTS.move_time,
    name: Annotated[
        str | None, typer.Option("--name", "-n", help="tournament name (default: game-time)")
    ] = None,
    option: GameOptions = [],  # noqa: B006 - typer copies the default
    bot_memory: BotMemory = None,
    bot_logs: BotLogs = None,
    sandbox: SandboxTool = None,
    allow_network: AllowNetwork = False,
    fresh_bots: Annotated[
        bool,
        typer.Option(
            "--fresh-bots",
            help="start every bot afresh for each game (slower) instead of keeping "
            "each bot's process up across games; a bot that failed a game is "
            "replaced either way",
        ),
    ] = False,
    workers: Workers = 1,
    pin_cpus: PinCpus = True,
    ray_address: RayAddress = None,
    ray_cpus: RayCpus = ray_backend.DEFAULT_ACTOR_CPUS,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            help="continue the tournament of this name (its stored settings, "
            "--bot-memory, --sandbox and --fresh-bots included, apply; other options but "
            "--bot-logs, --workers, --ray and the log's are ignored)",
        ),
    ] = None,
    log_file: LogFile = None,
    log_level: LogLevel = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="print the result as JSON: name, state, games recorded and scheduled, and the "
            "leaderboard's boards as arena leaderboard --json gives them (the rest goes to stderr)",
        ),
    ] = False,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Round robin: every combination of --players entrants (a pod) plays --deals deals, each
    deal once per rotation of the seats. Ctrl-C stops; --resume NAME continues."""
    with ExitStack() as on_exit:
        on_exit.enter_context(logging_to(LogConfig(log_file, log_level)))
        cluster = on_exit.enter_context(games_played_on(workers, ray_address, ray_cpus))
        try:
            limits = game_setup.parse_limits(bot_memory)
            bot_logs = game_setup.prepare_bot_logs(bot_logs)
            if resume is not None:
                warn_ignored_on_resume("tournament", context)
                ready = open_for_resume(db, resume)
                typer.echo(
                    f"resuming tournament {ready.name!r} ({ready.game}, state {ready.state})",
                    err=as_json,
                )
            elif game is None:
                fail("give --game GAME for a new tournament, or --resume NAME")
            else:
                engine = game_setup.load_game(game)
                settings = TournamentSettings(
                    players=players,
                    deals=deals,
                    concurrency=concurrency,
                    move_time=move_time,
                    options=game_setup.parse_options(engine.name, option),
                    limits=limits,
                    sandbox=resolve_policy(sandbox, allow_network, strict=True),
                    fresh_bots=fresh_bots,
                )
                texts = bot_texts(bot_list)
                ready = create_tournament(db, engine.name, texts, settings, seed, name)
                if seed is not None:
                    warn_if_guessable(seed)
                typer.echo(
                    f"tournament {ready.name!r}: {ready.game}, {len(ready.entrants)} entrants "
                    f"({', '.join(ready.entrants)}), {players} players, {deals} deal(s) per "
                    f"pod, {ready.games} games, seed {ready.seed}",
                    err=as_json,
                )
        except KeyboardInterrupt:
            fail("interrupted before the tournament started; nothing was stored", code=130)
        try:
            play(ready, bot_logs, workers, cluster, pin_cpus, as_json)
        except KeyboardInterrupt:  # before the run took the signals: nothing played yet
            fail(
                f"interrupted before the games started; the tournament is stored: continue "
                f"with `arena tournament --resume {ready.name}`",
                code=130,
            )


def play(
    ready: ReadyTournament,
    bot_logs: Path | None,
    workers: int = 1,
    cluster: ray_backend.RayCluster | None = None,
    pin_cpus: bool = True,
    as_json: bool = False,
) -> None:
    """Run the tournament with a progress bar, then print its leaderboard and how it ended
    (``as_json``: as JSON on stdout, and the rest on stderr)."""
    warn_unless_limits_enforced()
    try:
        summary = trio.run(
            partial(
                run_tournament,
                ready.database,
                ready.id,
                ProgressBar(Console(stderr=True) if as_json else None),
                bot_logs=bot_logs,
                workers=workers,
                pin_cpus=pin_cpus,
                ray=cluster,
            )
        )
        boards = tournament_boards(ready.database, ready.name)
        with ready.database.read() as session:
            forfeits = forfeits_in(session, ready.id)
    finally:
        ready.database.close()
    state = "stopped" if summary.stopped else "finished" if summary.complete else "incomplete"
    if as_json:
        result = {
            "name": ready.name,
            "game": ready.game,
            "state": state,
            "games": summary.done,
            "scheduled": summary.total,
            "boards": [board_json(board) for board in boards],
        }
        typer.echo(json.dumps(result, indent=2))
    for board in [] if as_json else boards:
        print_board(board)
    if forfeits and not as_json:
        print_forfeits(forfeits, ready.name)
    if cluster is not None:
        typer.echo(cluster.played(), err=True)
    if summary.stopped or not summary.complete:
        why = "stopped" if summary.stopped else "incomplete (voided games remain)"
        typer.echo(
            f"{why}: {summary.done}/{summary.total} games recorded; continue with "
            f"`arena tournament --resume {ready.name}`",
            err=True,
        )
        raise typer.Exit(130 if summary.stopped else 1)
    typer.echo(f"tournament {ready.name!r} finished: {summary.total} games", err=as_json)


def print_forfeits(forfeits: list[Forfeits], name: str) -> None:
    """Each forfeiting version's count and first reason: "CRASH 2" alone says nothing of why."""
    typer.echo("forfeits (the first of each bot):")
    for bot in forfeits:
        typer.echo(
            f"  {bot.bot} {bot.version}: {counted(bot.count, 'game')}, first game "
            f"{bot.first_game}: {bot.outcome}: {one_line(bot.reason, 200)}"
        )
    typer.echo(f"  (every one: arena history --tournament {name})")


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
