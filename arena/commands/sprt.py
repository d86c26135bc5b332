"""``arena sprt``: is NEW stronger than BASE? Paired games until a sequential probability ratio
test decides (``arena.tournament.sprt``), with a progress bar showing the LLR and its bounds.

Exit codes: 0 the test decided (H0 or H1; ``--json`` says which), 1 it reached --max-games (or
voided games remain) undecided, 2 bad input, 130 stopped by Ctrl-C (``--resume NAME``
continues)."""

from __future__ import annotations

import json
import math
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import trio
import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from arena import game_setup
from arena.commands import (
    fail,
    given,
    warn_if_guessable,
    warn_ignored_on_resume,
    warn_unless_limits_enforced,
)
from arena.commands.backends import games_played_on
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.options import (
    BotLogs,
    GameOptions,
    LogFile,
    LogLevel,
    MoveTime,
    PinCpus,
    RayAddress,
    RayCpus,
    Workers,
)
from arena.commands.sandbox_options import AllowNetwork, SandboxTool, resolve_policy
from arena.operator_log import LogConfig, logging_to
from arena.storage import tournaments
from arena.tournament import ray_backend
from arena.tournament.runner import run_tournament
from arena.tournament.setup import ReadyTournament, open_for_resume

if TYPE_CHECKING:  # imported when the command runs: the SPRT needs numpy (0.3 s to load)
    from arena.tournament.sprt import PairedTest

DEFAULT_MAX_GAMES = 20_000
NEW = 0  # entrant position of NEW (arena.tournament.sprt)


class SprtProgress:
    """The runner's observer: games played, and the test's LLR between its bounds."""

    def __init__(self, paired: PairedTest, console: Console) -> None:
        self.paired = paired
        self._bar = Progress(
            TextColumn("{task.description}", style="bold", markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[test]}", markup=False),
            TimeElapsedColumn(),
            console=console,
        )
        self._task: TaskID | None = None

    def _test(self) -> str:
        test = self.paired.test
        lower, upper = test.bounds
        return f"LLR {test.llr:+.2f} [{lower:.2f}, {upper:.2f}]  {test.pairs} pairs"

    def tournament_started(self, name: str, total: int, done: int) -> None:
        self._task = self._bar.add_task(name, total=total, completed=done, test=self._test())
        self._bar.start()

    def tournament_ended(self) -> None:
        self._bar.stop()

    def game_started(self) -> None: ...

    def game_finished(self, *, recorded: bool, forfeit: bool, voided: bool) -> None:
        assert self._task is not None
        self._bar.update(self._task, advance=0 if voided else 1, test=self._test())

    def game_abandoned(self) -> None: ...


def result_json(ready: ReadyTournament, paired: PairedTest, games: int) -> dict[str, Any]:
    test = paired.test
    estimate = test.elo()
    lower, upper = test.bounds
    return {
        "name": ready.name,
        "game": ready.game,
        "new": ready.entrants[NEW],
        "base": ready.entrants[1 - NEW],
        "status": test.status,
        "llr": round(test.llr, 4),
        "bounds": [round(lower, 4), round(upper, 4)],
        "pairs": test.pairs,
        "games": games,
        "pentanomial": list(test.counts),
        "elo0": test.elo0,
        "elo1": test.elo1,
        "alpha": test.alpha,
        "beta": test.beta,
        # None where the estimate is unbounded; "bound": "lower" for a perfect record (only
        # "low" is known), "upper" for a record without a point (only "high")
        "elo": {
            "estimate": _finite(estimate.elo),
            "low": _finite(estimate.low),
            "high": _finite(estimate.high),
            "bound": estimate.bound or None,
        },
    }


def _finite(value: float) -> float | None:
    return round(value, 1) if math.isfinite(value) else None


def _signed(value: float | None) -> str:
    return "unbounded" if value is None else f"{value:+.1f}"


def elo_words(elo: dict[str, Any]) -> str:
    """ "+35.2 [+12.0, +58.9] (95%)", or for a one-sided record "> +576.9 (95%, ...)"."""
    if elo["bound"] == "lower":
        return f"> {_signed(elo['low'])} (95%; every pair won: a lower bound only)"
    if elo["bound"] == "upper":
        return f"< {_signed(elo['high'])} (95%; every pair lost: an upper bound only)"
    return f"{_signed(elo['estimate'])} [{_signed(elo['low'])}, {_signed(elo['high'])}] (95%)"


def print_result(result: dict[str, Any], console: Console) -> None:
    verdict = {
        "H1": f"H1 accepted (elo {result['elo1']:g} rather than {result['elo0']:g}): "
        "NEW is stronger",
        "H0": f"H0 accepted (elo {result['elo0']:g} rather than {result['elo1']:g}): "
        "NEW is not shown stronger",
        "continue": "undecided",
    }[result["status"]]
    table = Table("", "", title=f"SPRT {result['name']} ({result['game']})", show_header=False)
    elo = result["elo"]
    for label, value in [
        ("NEW", result["new"]),
        ("BASE", result["base"]),
        (
            "H0 / H1",
            (
                f"elo {result['elo0']:g} / {result['elo1']:g} (alpha {result['alpha']:g},"
                f" beta {result['beta']:g})"
            ),
        ),
        (
            "LLR",
            (f"{result['llr']:+.2f} (bounds {result['bounds'][0]:.2f}, {result['bounds'][1]:.2f})"),
        ),
        (
            "pairs",
            (
                f"{result['pairs']} counted ({result['games']} games stored); NEW's points "
                f"per pair 0, 1/2, 1, 3/2, 2: {result['pentanomial']}"
            ),
        ),
        (
            "Elo of NEW",
            elo_words(elo),
        ),
        ("result", verdict),
    ]:
        table.add_row(label, value)
    console.print(table)


def sprt(
    context: typer.Context,
    new: Annotated[
        str | None,
        typer.Argument(
            metavar="NEW",
            help="the new version: a bot directory, a registered NAME (its newest version), "
            "NAME@VERSION, or NAME@HOST:PORT",
        ),
    ] = None,
    base: Annotated[
        str | None, typer.Argument(metavar="BASE", help="the version to beat, named the same way")
    ] = None,
    game: Annotated[str | None, typer.Option("--game", "-g", help="game to play")] = None,
    elo0: Annotated[float, typer.Option("--elo0", help="H0: NEW is this many Elo stronger")] = (
        0.0
    ),
    elo1: Annotated[float, typer.Option("--elo1", help="H1: NEW is this many Elo stronger")] = (
        10.0
    ),
    alpha: Annotated[float, typer.Option("--alpha", help="chance of accepting H1 under H0")] = (
        0.05
    ),
    beta: Annotated[float, typer.Option("--beta", help="chance of accepting H0 under H1")] = (0.05),
    players: Annotated[
        int,
        typer.Option(
            "--players", "-p", help="seats per game: 2 only (multiplayer SPRT is not supported)"
        ),
    ] = 2,
    concurrency: Annotated[int, typer.Option("--concurrency", "-c", help="games at once")] = 2,
    max_games: Annotated[
        int,
        typer.Option(
            "--max-games",
            help="stop undecided after this many games (with --resume: raise the stored limit)",
        ),
    ] = DEFAULT_MAX_GAMES,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="seed of the deals (default: random)")
    ] = None,
    name: Annotated[
        str | None,
        typer.Option(
            "--name", "-n", help="name of the test, as of a tournament (default: game-time)"
        ),
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option("--resume", help="continue the test of this name with its stored settings"),
    ] = None,
    move_time: MoveTime = 2.0,
    option: GameOptions = [],  # noqa: B006 - typer copies the default
    bot_logs: BotLogs = None,
    workers: Workers = 1,
    pin_cpus: PinCpus = True,
    ray_address: RayAddress = None,
    ray_cpus: RayCpus = ray_backend.DEFAULT_ACTOR_CPUS,
    sandbox: SandboxTool = None,
    allow_network: AllowNetwork = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="print the result as JSON (the progress bar goes to stderr)"),
    ] = False,
    log_file: LogFile = None,
    log_level: LogLevel = None,
    db: DbPath = DEFAULT_PATH,
) -> None:
    """Is NEW stronger than BASE? Plays pairs of two-player games (each deal twice, seats
    swapped) until the SPRT (pentanomial model, logistic Elo) accepts H0 (elo = elo0) or H1 (elo
    = elo1). The games are stored as a tournament: `arena leaderboard --tournament NAME` shows
    them, --resume NAME continues. Multiplayer SPRT is not supported. Exit code 0: decided;
    1: undecided at --max-games; 130: stopped."""
    from arena.tournament.sprt import SprtParameters, create_sprt, raise_max_games

    with (
        logging_to(LogConfig(log_file, log_level)),
        games_played_on(workers, ray_address, ray_cpus) as cluster,
    ):
        try:
            bot_logs = game_setup.prepare_bot_logs(bot_logs)
            if resume is not None:
                warn_ignored_on_resume("test", context, applied=frozenset({"max_games"}))
                ready = open_for_resume(db, resume, sprt=True)
                if given(context, "max_games"):
                    ready = raise_max_games(ready, max_games)
            else:
                if game is None or new is None or base is None:
                    fail("give --game GAME NEW BASE for a new test, or --resume NAME")
                if players != 2:
                    fail("multiplayer SPRT is not supported: --players must be 2")
                engine = game_setup.load_game(game)
                ready = create_sprt(
                    db,
                    engine.name,
                    new,
                    base,
                    SprtParameters(elo0, elo1, alpha, beta),
                    max_games=max_games,
                    concurrency=concurrency,
                    move_time=move_time,
                    seed=seed,
                    name=name,
                    options=game_setup.parse_options(engine.name, option),
                    sandbox=resolve_policy(sandbox, allow_network, strict=True),
                )
                if seed is not None:
                    warn_if_guessable(seed)
        except KeyboardInterrupt:
            fail("interrupted before the test started; nothing was stored", code=130)
        run(ready, bot_logs, as_json, workers, cluster, pin_cpus)


def run(
    ready: ReadyTournament,
    bot_logs: Path | None,
    as_json: bool,
    workers: int = 1,
    cluster: ray_backend.RayCluster | None = None,
    pin_cpus: bool = True,
) -> None:
    from arena.storage.sprt import load_test
    from arena.tournament.sprt import SequentialTest

    console = Console(stderr=as_json, highlight=False, markup=False)  # names as they are
    try:
        with ready.database.read() as session:
            paired, _ = load_test(session, ready.id)
        summary = None
        if not paired.decided:
            warn_unless_limits_enforced()
            summary = trio.run(
                partial(
                    run_tournament,
                    ready.database,
                    ready.id,
                    SprtProgress(paired, console),
                    bot_logs=bot_logs,
                    pairing=SequentialTest(paired),
                    workers=workers,
                    pin_cpus=pin_cpus,
                    ray=cluster,
                )
            )
            if cluster is not None:
                typer.echo(cluster.played(), err=True)
        with ready.database.write() as session:
            if paired.decided:
                tournaments.set_state(session, ready.id, tournaments.FINISHED)
            games = tournaments.finished_keys(session, ready.id)
    finally:
        ready.database.close()
    result = result_json(ready, paired, len(games))
    if as_json:
        typer.echo(json.dumps(result, indent=2))
    else:
        print_result(result, console)
    if paired.decided:
        return
    if summary is not None and summary.stopped:
        typer.echo(f"stopped: continue with `arena sprt --resume {ready.name}`", err=True)
        raise typer.Exit(130)
    typer.echo(
        f"undecided after {len(games)} games (--max-games): `arena sprt --resume {ready.name} "
        "--max-games N` goes on to N games (and plays again voided games, if any)",
        err=True,
    )
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("sprt")(sprt)
