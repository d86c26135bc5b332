"""``arena validate``: check a bot before submitting it; a table of checks (or JSON), exit code 1
when one failed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from arena.commands import fail, wide_console
from arena.commands.options import MoveTime
from arena.commands.sandbox_options import AllowNetwork, SandboxTool, resolve_policy
from arena.records import TimeControl
from arena.submissions.worker import VALIDATION_SECONDS
from arena.validation import Report, Status, validate

console = wide_console()  # text as it is, never markup

_STYLES = {Status.PASS: "green", Status.FAIL: "bold red", Status.WARN: "yellow", Status.SKIP: "dim"}


def print_report(report: Report) -> None:
    confined = {"bwrap": "in the bwrap sandbox", "remote": "running elsewhere"}.get(
        report.sandbox, "unsandboxed"
    )
    console.print(
        f"arena validate {report.bot} (seed {report.seed}, {confined})",
        markup=False,
        soft_wrap=True,
    )
    table = Table("check", "result")
    for column in ("detail", "hint"):  # whole: a long word (a Java class name) folds, never cut
        table.add_column(column, overflow="fold")
    for check in report.checks:
        table.add_row(
            check.name,
            Text(check.status.value, style=_STYLES[check.status]),
            check.detail,
            check.hint,
        )
    console.print(table)
    if not console.is_terminal:  # a log: each failure again on lines of its own, paths whole
        for check in report.checks:
            if check.status is Status.FAIL:
                console.print(f"FAIL {check.name}: {check.detail}", soft_wrap=True)
                if check.hint:
                    console.print(f"  hint: {check.hint}", soft_wrap=True)
    failed = sum(check.status is Status.FAIL for check in report.checks)
    console.print(
        "all checks passed" if report.passed else f"{failed} check(s) failed", markup=False
    )


def validate_command(
    bot: Annotated[
        str,
        typer.Argument(
            help="a bot directory (with a bot.toml), or NAME@HOST:PORT for a bot already running"
        ),
    ],
    game: Annotated[
        str | None,
        typer.Option("--game", help="check this game only (default: every game the bot claims)"),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="seed of the games played (default random, printed)"),
    ] = None,
    move_time: MoveTime = 2.0,
    sandbox: SandboxTool = None,
    allow_network: AllowNetwork = False,
    no_build: Annotated[
        bool,
        typer.Option(
            "--no-build", help="skip bot.toml's build step: the directory is built already"
        ),
    ] = False,
    bot_logs: Annotated[
        Path | None,
        typer.Option(
            "--bot-logs",
            metavar="DIR",
            help="keep the build's log and every bot process's stdout/stderr in DIR (created "
            "if missing; a directory per game)",
        ),
    ] = None,
    validation_minutes: Annotated[
        float | None,
        typer.Option(
            "--validation-minutes",
            min=0.1,
            help="stop the checks after this many minutes and fail, as a hosted arena's worker "
            f"does (`arena submissions work --validation-minutes`, {VALIDATION_SECONDS / 60:g} "
            "by default); default: no limit",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """Check that a bot plays by the protocol: manifest, its build (bot.toml's build step, run in
    the sandbox as the bot will be), start to ready, handshake, token, every
    game it claims at 2 and at the most seats against the random bot and itself, every decision
    kind those games missed (played from a constructed position where it is next), reply times,
    reproducibility, games at once (an address bot) and a clean exit. The bot runs as `arena
    match` runs it: in the sandbox unless --sandbox none. Exit code 0 if every check passed
    (warnings allowed), 1 if one failed."""
    if move_time <= 0:
        fail("--move-time must be positive")
    policy = resolve_policy(sandbox, allow_network, strict=False)  # SetupError: one line, exit 2
    report = validate(
        bot,
        game=game,
        seed=seed,
        time_control=TimeControl(move_seconds=move_time),
        sandbox=policy,
        build=not no_build,
        bot_logs=bot_logs.resolve() if bot_logs is not None else None,
        # none by default: on their own machine an author waits only for their own bot
        seconds=validation_minutes * 60 if validation_minutes is not None else None,
    )
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        print_report(report)
    raise typer.Exit(0 if report.passed else 1)


def register(app: typer.Typer) -> None:
    app.command("validate")(validate_command)
