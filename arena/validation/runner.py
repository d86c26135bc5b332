"""``validate``: every check of ``arena validate`` in order, into one report."""

from __future__ import annotations

import math
import secrets
import statistics
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

import trio

from arena.building import BuildError, build_bot
from arena.errors import InputError, ManifestError
from arena.manifest import BotSpec, expand_games, load_manifest, remote_bot, unbuilt_problem
from arena.records import TimeControl
from arena.sandbox import SandboxPolicy, unreadable_problem
from arena.sandbox.tempdirs import new_match_dir, remove_tree
from arena.validation.games import GamePlayer
from arena.validation.opponent import write_random_bot
from arena.validation.process import check_process
from arena.validation.report import Check, Report, Status
from engine.registry import game_names

MANIFEST_HINT = (
    "bot.toml needs name, version, command (a list) and games (a list of "
    '{games}); README, "Write a bot"'
)


def validate(
    bot: str,
    *,
    game: str | None = None,
    seed: int | None = None,
    time_control: TimeControl = TimeControl(),
    sandbox: SandboxPolicy | None = None,
    build: bool = True,
    bot_logs: Path | None = None,
    seconds: float | None = None,
) -> Report:
    """Check ``bot`` (a bot directory or ``NAME@HOST:PORT``), optionally in ``game`` only, its
    process confined as ``sandbox`` says (as ``arena match`` would run it; None: unconfined),
    after its build (bot.toml's ``build``, confined alike) unless not ``build``. The logs of
    the build, the process checks and every game are kept under ``bot_logs`` if given.
    The checks after the build (which has a limit of its own) stop after ``seconds`` if given:
    the report then ends with a failed "time budget" check.
    Raises InputError when ``bot`` names neither or ``game`` is not a game."""
    if game is not None and game.lower() not in game_names():
        raise InputError(f"unknown game {game!r}; known games: {', '.join(game_names())}")
    report = Report(
        bot,
        secrets.randbits(63) if seed is None else seed,
        sandbox=sandbox.tool if sandbox is not None else "none",
    )
    spec = _target(bot, report)
    if spec is not None and spec.is_remote:
        report.sandbox = "remote"
    if bot_logs is not None:
        bot_logs.mkdir(parents=True, exist_ok=True)
    if (
        spec is not None
        and spec.directory
        and (problem := unreadable_problem(spec.directory, sandbox))
    ):
        report.add(
            Check.failed("files", problem, "the bot's uid in the sandbox reads as others do")
        )
        spec = None
    if spec is not None and spec.build and build:
        if report.add(_build_check(spec, sandbox, bot_logs)).status is Status.FAIL:
            spec = None  # nothing to run
    if spec is not None and (problem := unbuilt_problem(spec, built=bool(spec.build) and build)):
        hint = (
            "the program bot.toml's command runs, and what it loads, must be in the bot's directory"
        )
        report.add(Check.failed("files", problem, hint))
        spec = None
    if spec is not None:
        replies: list[float] = []  # the tested bot's reply times, for a budget's failure
        game = game.lower() if game else None
        checks = partial(_check, spec, game, report, time_control, sandbox, bot_logs, replies)
        trio.run(_within_budget, seconds, checks, report, replies)
    return report


async def _within_budget(
    seconds: float | None,
    checks: Callable[[], Awaitable[None]],
    report: Report,
    replies: list[float],
) -> None:
    """The checks, cancelled once ``seconds`` have passed: a bot that takes nearly the
    per-decision limit over every decision of ~20 games would hold a hosted arena's only
    worker for most of an hour. Cancelling stops its processes (``run_bot`` ends them when its
    scope is cancelled)."""
    with trio.move_on_after(math.inf if seconds is None else seconds) as budget:
        await checks()
    if budget.cancelled_caught:
        assert seconds is not None
        report.add(budget_check(seconds, replies))


def budget_check(seconds: float, replies: list[float]) -> Check:
    """The failure of a validation stopped by its time budget, with the reply times so far."""
    pace = ""
    if replies:
        pace = (
            f" ({len(replies)} decisions by the bot so far, median reply "
            f"{statistics.median(replies) * 1000:.0f} ms)"
        )
    return Check.failed(
        "time budget",
        f"the validation took longer than its budget of {duration(seconds)} and was stopped; "
        f"the checks not listed above did not run{pace}",
        "make the bot reply faster: about 20 games are played and each of its decisions counts "
        "against the budget; or claim fewer games in bot.toml",
    )


def duration(seconds: float) -> str:
    """``seconds`` as people say it: 45 s, 30 min."""
    if seconds < 120:
        return f"{seconds:g} s"
    return f"{seconds / 60:g} min"


def _target(text: str, report: Report) -> BotSpec | None:
    """The bot to check, with the manifest check for a directory (None if that failed)."""
    path = Path(text)
    if path.is_dir():
        try:
            spec = load_manifest(path)
        except ManifestError as exc:
            report.add(
                Check.failed(
                    "manifest", str(exc), MANIFEST_HINT.format(games=", ".join(game_names()))
                )
            )
            return None
        unknown = [g for g in spec.games if g not in game_names()]
        if unknown:
            report.add(
                Check.failed(
                    "manifest",
                    f"unknown game(s): {', '.join(unknown)}",
                    MANIFEST_HINT.format(games=", ".join(game_names())),
                )
            )
            return None
        report.add(
            Check.passed(
                "manifest",
                f"{spec.name} {spec.version}, runs "
                f"{' '.join(spec.command or ())}, plays "
                f"{', '.join(spec.games)}",
            )
        )
        return spec
    name, at, address = text.partition("@")
    if at and name and address and not path.exists():
        report.add(Check("manifest", Status.SKIP, "a bot running elsewhere: no bot.toml here"))
        return remote_bot(address, name)
    raise InputError(f"{text!r} is neither a bot directory nor NAME@HOST:PORT")


def _build_check(spec: BotSpec, sandbox: SandboxPolicy | None, bot_logs: Path | None) -> Check:
    """Run the bot's build (bot.toml's ``build``), confined as the bot will be."""
    command = " ".join(spec.build)
    try:
        built = build_bot(spec, sandbox, log_dir=bot_logs)
    except BuildError as exc:
        return Check.failed("build", str(exc), _build_hint(str(exc)))
    assert built is not None
    where = "in the sandbox" if built.sandboxed else "unsandboxed"
    return Check.passed("build", f"`{command}` {where} in {built.seconds:.1f} s")


def _build_hint(failure: str) -> str:
    if "exited with code 127" in failure or "not found" in failure:
        return (
            "the build's program is not in the sandbox, which shows the system's /usr, /bin and "
            "/lib and the bot's directory, not a home directory (~/.cargo) or /opt: name a "
            "program the system has, or build on your machine and leave `build` out "
            '(docs/bots.md, "Building a bot")'
        )
    return (
        "the log shows the build's whole output: fix the error it states; a build that passes "
        "by hand but not here uses something outside the bot's directory, which the sandbox hides"
    )


async def _check(
    spec: BotSpec,
    game: str | None,
    report: Report,
    time_control: TimeControl,
    sandbox: SandboxPolicy | None,
    bot_logs: Path | None,
    replies: list[float],
) -> None:
    if game is not None and spec.games and game not in spec.games:
        raise InputError(f"bot {spec.name!r} does not play {game} (games: {', '.join(spec.games)})")
    workdir = new_match_dir()  # short enough a path for the bots' sockets, whatever TMPDIR
    try:
        claimed = list(spec.games) if game is None else [game]
        reply = await check_process(
            spec, report, workdir, time_control.ready_seconds, claimed, sandbox, bot_logs
        )
        if reply is None:
            return
        if spec.is_remote:  # it plays what its handshake says
            played = [g for g in expand_games(reply.games) if g in game_names()]
            if game is not None and game not in played:
                raise InputError(
                    f"bot {spec.name!r} does not play {game} (games: {', '.join(reply.games)})"
                )
            claimed = [game] if game is not None else played
            spec = remote_bot(spec.address or "", spec.name, games=played)
        player = GamePlayer(
            spec,
            write_random_bot(workdir / "opponent"),
            report.seed,
            time_control,
            sandbox,
            bot_logs,
            seconds=replies,
        )
        for name in claimed:
            await player.check_game(name, report)
        report.add(player.times_check())
        if spec.is_remote:
            report.add(
                Check(
                    "same seed, same game",
                    Status.SKIP,
                    "a bot running elsewhere is seeded by its operator",
                )
            )
            await player.check_concurrent(claimed[0], report)
        else:
            await player.check_reproducible(report)
            report.add(
                Check(
                    "games at once",
                    Status.SKIP,
                    "the arena starts one process per seat of a bot directory",
                )
            )
    finally:
        remove_tree(workdir)
