"""Options that ``arena match`` and ``arena tournament`` share: the limits and logs of the bot
processes, and game options."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena.referee.limits import MIN_MEMORY_MIB, BotLimits

BotMemory = Annotated[
    str | None,
    typer.Option(
        "--bot-memory",
        metavar="MB",
        help=f"memory limit of each bot in MiB: all its processes together where the arena can "
        f"make cgroups, else each process's address space (default "
        f"{BotLimits().memory_mib}, at least {MIN_MEMORY_MIB})",
    ),
]
BotLogs = Annotated[
    Path | None,
    typer.Option(
        "--bot-logs",
        metavar="DIR",
        help="keep each seat's stdout/stderr log in DIR (created if missing)",
    ),
]
GameOptions = Annotated[list[str], typer.Option("--option", "-o", help="game option NAME=VALUE")]
MoveTime = Annotated[float, typer.Option("--move-time", help="seconds per decision")]
