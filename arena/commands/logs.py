"""``arena logs prune``: the operator's bounded retention of the bots' kept logs (by age, by a
size budget, or both; ``arena.log_retention``), run by hand or from cron; ``arena logs usage``:
how much of the directory each bot holds, against its quota (``BotLimits.logs_mib``)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Column, Table

from arena.commands import wide_console
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.errors import InputError
from arena.log_names import kept_logs
from arena.log_retention import prune
from arena.sandbox.limits import BotLimits
from arena.storage.target import DatabaseTarget
from arena.submissions.files import HostedFiles
from arena.wording import counted, size

app = typer.Typer(help="The bots' kept logs (--bot-logs, a hosted ladder's).", no_args_is_help=True)

_AGE = re.compile(r"(\d+(?:\.\d+)?)([mhd])")
_AGE_SECONDS = {"m": 60, "h": 3600, "d": 86400}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)([KMGT])i?B?", re.IGNORECASE)
_SIZE_SHIFT = {"K": 10, "M": 20, "G": 30, "T": 40}


def parse_age(text: str, flag: str = "--older-than") -> float:
    """``30d``, ``12h``, ``90m``: seconds."""
    if (match := _AGE.fullmatch(text.strip())) is None:
        raise InputError(f"{flag} {text!r}: give an age such as 30d, 12h or 90m")
    return float(match[1]) * _AGE_SECONDS[match[2]]


def parse_size(text: str, flag: str = "--max-size") -> int:
    """``500M``, ``10G``, ``2GiB``: bytes (binary units)."""
    if (match := _SIZE.fullmatch(text.strip())) is None:
        raise InputError(f"{flag} {text!r}: give a size such as 500M or 10G")
    return int(float(match[1]) * (1 << _SIZE_SHIFT[match[2].upper()]))


LogsDir = Annotated[
    Path | None,
    typer.Option(
        "--bot-logs",
        metavar="DIR",
        help="the logs directory (default: the hosted arena's, DB-hosted/logs/)",
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="machine-readable output")]


def _directory(bot_logs: Path | None, db: DatabaseTarget) -> Path:
    directory = bot_logs if bot_logs is not None else HostedFiles.beside(db).logs
    if not directory.is_dir():
        raise InputError(f"{directory}: no logs directory there (see --bot-logs)")
    return directory


@app.command("prune")
def prune_logs(
    older_than: Annotated[
        str | None,
        typer.Option("--older-than", metavar="AGE", help="remove logs last written before AGE ago"),
    ] = None,
    max_size: Annotated[
        str | None,
        typer.Option(
            "--max-size", metavar="SIZE", help="then remove the oldest until the rest fit SIZE"
        ),
    ] = None,
    bot_logs: LogsDir = None,
    db: DbPath = DEFAULT_PATH,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="say what would be removed, remove nothing")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Remove old bot logs: those last written before --older-than, then the oldest until the
    rest fit --max-size. Stored games keep their record; the download of a removed log says it
    is kept no more (410). A log that a process is writing (a kept-up bot's, while the bot is
    up) is never removed."""
    if older_than is None and max_size is None:
        raise InputError("say what to remove: --older-than AGE, --max-size SIZE, or both")
    age = None if older_than is None else parse_age(older_than)
    budget = None if max_size is None else parse_size(max_size)
    directory = _directory(bot_logs, db)
    pruned = prune(directory, older_than=age, max_bytes=budget, now=time.time(), dry_run=dry_run)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "directory": str(directory),
                    "dry_run": dry_run,
                    "removed": [log.name for log in pruned.removed],
                    "removed_bytes": pruned.removed_bytes,
                    "kept": len(pruned.kept),
                    "kept_bytes": pruned.kept_bytes,
                    "in_use": [log.name for log in pruned.in_use],
                }
            )
        )
        return
    verb = "would remove" if dry_run else "removed"
    removed = f"{counted(len(pruned.removed), 'log')} ({size(pruned.removed_bytes)})"
    typer.echo(
        f"{directory}: {verb} {removed}, kept {len(pruned.kept)} ({size(pruned.kept_bytes)})"
        + (f", {len(pruned.in_use)} of them due but being written" if pruned.in_use else "")
    )


@app.command("usage")
def log_usage(bot_logs: LogsDir = None, db: DbPath = DEFAULT_PATH, as_json: AsJson = False) -> None:
    """How much of the logs directory each bot's kept logs hold, largest first, against the
    quota of all of a bot's logs together (past it the bot's oldest logs that no process is
    writing are removed to make room)."""
    directory = _directory(bot_logs, db)
    quota = BotLimits().logs_mib << 20
    usage = sorted(kept_logs(directory).items(), key=lambda item: (-item[1].size, item[0]))
    if as_json:
        bots = [{"bot": bot, "files": logs.files, "bytes": logs.size} for bot, logs in usage]
        typer.echo(json.dumps({"directory": str(directory), "quota_bytes": quota, "bots": bots}))
        return
    table = Table(
        "bot (as in the logs' names)",
        Column("logs", justify="right"),
        Column("size", justify="right"),
        Column("of its quota", justify="right"),
        title=f"{directory}: each bot's kept logs (quota {size(quota)})",
    )
    for bot, logs in usage:
        table.add_row(bot, str(logs.files), size(logs.size), f"{logs.size / quota:.0%}")
    wide_console().print(table)


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="logs")
