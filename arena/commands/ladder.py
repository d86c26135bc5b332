"""``arena ladder``: games all the time between the registered bots, opponents matched by rating;
a submitted version joins within a round. Runs until stopped (Ctrl-C, SIGTERM) or ``--until``;
the same command goes on with the ladder later.

Exit codes: 0 ``--until`` was reached, 2 bad input, 130 stopped by a signal."""

from __future__ import annotations

import json
import re
from contextlib import ExitStack
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Annotated

import trio
import typer
from rich.console import Console

from arena import game_setup
from arena.commands import fail, warn, warn_if_guessable, warn_unless_limits_enforced
from arena.commands.backends import games_played_on
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.ladder_status import LadderStatus
from arena.commands.leaderboard import print_board, tournament_boards
from arena.commands.logs import parse_age, parse_size
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
from arena.commands.sandbox_options import AllowNetwork, SandboxTool, resolve_policy
from arena.errors import InputError, StorageError
from arena.log_retention import Retention
from arena.operator_log import LogConfig, logging_to
from arena.storage import run_lock, tournaments
from arena.storage.target import DatabaseTarget
from arena.submissions.files import HostedFiles
from arena.tournament import ray_backend
from arena.tournament.ladder import LadderRules, Until, run_ladder
from arena.tournament.ladder_setup import create_ladder, default_name, ladder_exists, open_ladder
from arena.tournament.settings import TournamentSettings

DEFAULTS = TournamentSettings()
RULES = LadderRules()
_DURATION = re.compile(r"(\d+(?:\.\d+)?)([smhd])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


MIN_GAMES_PER_HOUR = 0.01  # a game in 100 hours
MAX_GAMES_PER_HOUR = 1_000_000
MAX_PAUSE_AFTER = 1_000_000


def parse_until(texts: list[str]) -> Until:
    """``--until`` values: N (games), a duration (30m, 2h, 1d), a time (18:00 today or
    tomorrow, or an ISO date and time; local time unless it says otherwise), width:W."""
    games, deadline, width = None, None, None
    now = datetime.now().astimezone()
    for text in texts:
        try:
            if text.isdigit():
                games = int(text)  # 0, or fewer than it has: it stops at once (made or changed)
            elif text.startswith("width:"):
                width = float(text.removeprefix("width:"))
                if not width > 0:
                    raise ValueError
            elif match := _DURATION.fullmatch(text):
                deadline = now + timedelta(**{_UNITS[match[2]]: float(match[1])})
            elif re.fullmatch(r"\d{1,2}:\d{2}", text):
                hour, minute = map(int, text.split(":"))
                deadline = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
                if deadline <= now:
                    deadline += timedelta(days=1)
            else:
                deadline = datetime.fromisoformat(text)
                if deadline.tzinfo is None:
                    deadline = deadline.astimezone()
            if deadline is not None:  # here, where its overflow is this text's
                deadline = deadline.astimezone(UTC)
        except ValueError:
            raise InputError(
                f"--until {text!r}: give a game count (500), a duration (30m, 2h), a time "
                "(18:00, 2026-12-24T18:00) or width:W (every interval narrower than W)"
            ) from None
        except OverflowError:  # 9999999d, 9999-12-31T23:59-12:00: past datetime's range
            raise InputError(
                f"--until {text!r}: out of range (a time must fall within the years 1 to 9999, UTC)"
            ) from None
    return Until(games, deadline, width)


def _hosted_logs(db: DatabaseTarget) -> Path | None:
    """Where a hosted arena's ladder keeps its bots' logs (authors download their own, game by
    game): beside the uploads, if this database has taken any. None elsewhere: not kept."""
    files = HostedFiles.beside(db)
    if not files.root.is_dir():
        return None
    typer.echo(
        f"bot logs kept in {files.logs} (a hosted arena's; --bot-logs DIR for another)", err=True
    )
    return files.logs


def _rules_change(before: LadderRules, after: LadderRules) -> str:
    """What changed between two ladder rules, in the flags' words."""
    said = []
    if after.games_per_hour != before.games_per_hour:
        was, now = (
            f"{rate:g}" if rate else "no limit"
            for rate in (before.games_per_hour, after.games_per_hour)
        )
        said.append(f"--games-per-hour {now} (was {was})")
    if after.pause_after != before.pause_after:
        was, now = (
            str(count) if count else "never" for count in (before.pause_after, after.pause_after)
        )
        said.append(f"--pause-after {now} (was {was})")
    return "now " + ", ".join(said)


def _changed(value: object, *kept: object) -> object:
    """``value`` if it differs from each of ``kept`` (the default, the stored one), else None."""
    return None if value in kept else value


def ladder(
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="game to play, see `arena games`")
    ] = None,
    players: Annotated[
        list[int],
        typer.Option(
            "--players", "-p", help="seats per game; repeat for several boards (--players 2 -p 4)"
        ),
    ] = [],  # noqa: B006 - typer copies the default
    bot_list: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="fix the entrants: comma-separated bot directories, registered bot names or "
            "NAME@HOST:PORT (default: every registered bot's newest version for the game, "
            "joining as new versions are submitted)",
        ),
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            "-n",
            help="the ladder's name (default: GAME-ladder); an "
            "existing ladder of this name goes on",
        ),
    ] = None,
    until: Annotated[
        list[str],
        typer.Option(
            "--until",
            help="stop by itself at the first of: N (the ladder has N games), a duration "
            "(30m, 2h), a time (18:00, 2026-12-24T18:00), width:W (every playing bot's 95% "
            "interval narrower than W; a perfect record's one-sided rating never narrows); "
            "repeatable. Past a duration or time no game starts, and the games in play finish",
        ),
    ] = [],  # noqa: B006
    games_per_hour: Annotated[
        float | None,
        typer.Option(
            "--games-per-hour",
            help="games per hour per bot, spread over the hour: a bot's allowance grows by this "
            "much an hour, up to one round's games (a deal per board), and a round starts when "
            f"every bot's allowance covers it (0: no limit; default {RULES.games_per_hour:g}); "
            "given again to a ladder, changes it",
            show_default=False,
        ),
    ] = None,
    pause_after: Annotated[
        int | None,
        typer.Option(
            "--pause-after",
            help="pause a bot version after this many forfeits in a row, until a new version "
            f"arrives (0: never; default {RULES.pause_after}); given again to a ladder, changes it",
            show_default=False,
        ),
    ] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", help="games at once")] = (
        DEFAULTS.concurrency
    ),
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="the ladder's seed (default: random)")
    ] = None,
    move_time: MoveTime = DEFAULTS.move_time,
    option: GameOptions = [],  # noqa: B006
    bot_memory: BotMemory = None,
    bot_logs: BotLogs = None,
    logs_older_than: Annotated[
        str | None,
        typer.Option(
            "--logs-older-than",
            metavar="AGE",
            help="while it runs, remove bot logs last written before AGE ago (30d, 12h), each "
            "minute (as `arena logs prune`)",
        ),
    ] = None,
    logs_max_size: Annotated[
        str | None,
        typer.Option(
            "--logs-max-size",
            metavar="SIZE",
            help="while it runs, remove the oldest bot logs until the rest fit SIZE (500M, "
            "10G), each minute",
        ),
    ] = None,
    sandbox: SandboxTool = None,
    allow_network: AllowNetwork = False,
    fresh_bots: Annotated[
        bool, typer.Option("--fresh-bots", help="start every bot afresh for each game")
    ] = False,
    workers: Workers = 1,
    pin_cpus: PinCpus = True,
    ray_address: RayAddress = None,
    ray_cpus: RayCpus = ray_backend.DEFAULT_ACTOR_CPUS,
    as_json: Annotated[
        bool, typer.Option("--json", help="print how the run ended as JSON on stdout")
    ] = False,
    log_file: LogFile = None,
    log_level: LogLevel = None,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """A ladder: games all the time, each round's pods chosen where the ranking is in doubt
    (near ratings whose difference is little known; now and then anyone), seats rotated on each
    deal; a newly submitted version joins within a round, a bot that keeps forfeiting is paused.
    On a terminal a status line shows games, games/hour, running games and paused bots. A hosted
    arena's ladder (one with uploads beside its database) keeps the bots' logs there, in
    DB-hosted/logs/, unless --bot-logs DIR."""
    with ExitStack() as on_exit:
        on_exit.enter_context(logging_to(LogConfig(log_file, log_level)))
        stop_at = parse_until(until)
        cluster = on_exit.enter_context(games_played_on(workers, ray_address, ray_cpus))
        if game is None and name is None:
            fail(
                "give --game GAME (and --players N) for a ladder, or --name NAME to go on with one"
            )
        if name is not None and not name.strip():  # taken for no name (the default) before
            fail("--name: give the ladder a name of 1 to 100 printable characters")
        name = name or default_name(game_setup.load_game(game or "").name)
        try:
            limits = game_setup.parse_limits(bot_memory)
            logs = game_setup.prepare_bot_logs(bot_logs or _hosted_logs(db))
            retention = Retention(
                None
                if logs_older_than is None
                else parse_age(logs_older_than, "--logs-older-than"),
                None if logs_max_size is None else parse_size(logs_max_size, "--logs-max-size"),
            )
            if retention and logs is None:
                fail("--logs-older-than and --logs-max-size need --bot-logs DIR (no logs kept)")
            if games_per_hour is not None and not (
                games_per_hour == 0 or MIN_GAMES_PER_HOUR <= games_per_hour <= MAX_GAMES_PER_HOUR
            ):  # nan and 1e-300 were stored, then broke every restart and the web (review)
                fail(
                    f"--games-per-hour must be 0 (no limit) or from {MIN_GAMES_PER_HOUR:g} to "
                    f"{MAX_GAMES_PER_HOUR:,}"
                )
            if pause_after is not None and not 0 <= pause_after <= MAX_PAUSE_AFTER:
                fail(f"--pause-after must be from 0 (never) to {MAX_PAUSE_AFTER:,}")
            if ladder_exists(db, name):
                ready = open_ladder(db, name)
                try:  # ignored, but a count the game has no board for is wrong all the same
                    run_lock.check_not_running(ready.database, ready.id, f"ladder {ready.name!r}")
                    for count in players or []:
                        game_setup.check_players(game_setup.load_game(ready.game), count, {})
                    with ready.database.read() as session:
                        stored = TournamentSettings.from_stored(
                            tournaments.by_name(session, ready.name).settings
                        )
                except (InputError, StorageError):
                    ready.database.close()
                    raise
                assert stored.ladder is not None  # a ladder's settings hold its rules
                rules = LadderRules.from_stored(stored.ladder)
                given = {
                    # a ladder named with --name plays the game it was started with
                    "--game": game if game and game.lower() != ready.game else None,
                    "--players": players if players and tuple(players) != rules.boards else None,
                    "--bots": bot_list,
                    "--seed": seed,
                    "--option": option or None,
                    "--bot-memory": bot_memory,
                    "--sandbox": sandbox,
                    "--fresh-bots": fresh_bots or None,
                    # options with defaults: named when they differ from the default and from
                    # the ladder's own (a service restarted with its usual command says nothing)
                    "--concurrency": _changed(
                        concurrency, DEFAULTS.concurrency, stored.concurrency
                    ),
                    "--move-time": _changed(move_time, DEFAULTS.move_time, stored.move_time),
                }
                ignored = [flag for flag, value in given.items() if value is not None]
                if ignored:
                    warn(
                        f"ladder {name!r} goes on with its stored settings; ignored: "
                        f"{', '.join(ignored)} (a new --name starts a ladder with others)"
                    )
                changed = replace(
                    rules,
                    games_per_hour=rules.games_per_hour
                    if games_per_hour is None
                    else games_per_hour,
                    pause_after=rules.pause_after if pause_after is None else pause_after,
                )
                if changed != rules:
                    stored = replace(stored, ladder=changed.to_stored())
                    with ready.database.write() as session:
                        tournaments.set_settings(session, ready.id, stored.to_stored())
                    typer.echo(f"ladder {ready.name!r}: {_rules_change(rules, changed)}", err=True)
                typer.echo(f"ladder {ready.name!r} ({ready.game}) goes on", err=True)
            else:
                if game is None:
                    fail(f"no ladder named {name!r}: give --game GAME to start it")
                engine = game_setup.load_game(game)
                texts = bot_texts(bot_list)
                settings = TournamentSettings(
                    concurrency=concurrency,
                    move_time=move_time,
                    options=game_setup.parse_options(engine.name, option),
                    limits=limits,
                    sandbox=resolve_policy(sandbox, allow_network, strict=True),
                    fresh_bots=fresh_bots,
                )
                rules = LadderRules(
                    tuple(players or [DEFAULTS.players]),
                    bool(texts),
                    RULES.games_per_hour if games_per_hour is None else games_per_hour,
                    RULES.pause_after if pause_after is None else pause_after,
                )
                ready = create_ladder(db, engine.name, texts, settings, rules, seed, name)
                if seed is not None:
                    warn_if_guessable(seed)
                typer.echo(
                    f"ladder {ready.name!r}: {ready.game}, "
                    f"{', '.join(map(str, rules.boards))} players, "
                    f"{'fixed entrants' if rules.fixed else 'newest versions join'}, "
                    f"seed {ready.seed}",
                    err=True,
                )
        except KeyboardInterrupt:
            fail("interrupted before the ladder started", code=130)
        warn_unless_limits_enforced()
        try:
            with LadderStatus(Console(stderr=True)) as status:
                summary = trio.run(
                    partial(
                        run_ladder,
                        ready.database,
                        ready.id,
                        stop_at,
                        status,
                        bot_logs=logs,
                        log_retention=retention,
                        workers=workers,
                        pin_cpus=pin_cpus,
                        ray=cluster,
                    )
                )
            boards = tournament_boards(ready.database, ready.name)
        finally:
            ready.database.close()
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "name": summary.name,
                    "games": summary.games,
                    "played": summary.played,
                    "rounds": summary.rounds,
                    "stopped": summary.stopped,
                    "why": summary.why,
                    "paused": summary.paused,
                }
            )
        )
    else:
        for board in boards:
            print_board(board)
    if cluster is not None:
        typer.echo(cluster.played(), err=True)
    typer.echo(
        f"ladder {summary.name!r}: {summary.why}; {summary.games} games in all, "
        f"{summary.played} this run; go on with `arena ladder --name {summary.name}`",
        err=True,
    )
    if summary.stopped:
        raise typer.Exit(130)


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder)
