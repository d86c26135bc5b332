"""Options that ``arena match``, ``arena tournament``, ``arena sprt`` and ``arena serve`` share: the
limits and logs of the bot processes, game options, where a tournament's games are played, and
the operator's log."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from arena.commands import fail
from arena.operator_log import LEVELS
from arena.sandbox.limits import MAX_MEMORY_MIB, MIN_MEMORY_MIB, BotLimits
from arena.tournament import ray_backend

# The widest integer the database holds (SQLite's INTEGER, PostgreSQL's BIGINT: signed 64-bit):
# the bound of every id, offset and count a command puts in a query, where a larger one was a
# traceback.
MAX_SQL_INTEGER = 2**63 - 1
# ``arena submissions work --validation-minutes``: a day is more than any bot needs
MAX_VALIDATION_MINUTES = 24 * 60

BotMemory = Annotated[
    str | None,
    typer.Option(
        "--bot-memory",
        metavar="MB",
        help=f"memory limit of each bot in MiB: all its processes together where the arena can "
        f"make cgroups, else each process's address space (default "
        f"{BotLimits().memory_mib}; from {MIN_MEMORY_MIB} to {MAX_MEMORY_MIB:,})",
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
MAX_WORKERS = 32
Workers = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        min=1,
        # each worker is a thread of the arena's while it plays (trio allows 40 at once: past
        # that the run waited for ever, deaf to Ctrl-C), and a Python process of its own
        max=MAX_WORKERS,
        help="worker processes to play the games in (all cores of this machine; --concurrency "
        f"games are spread over them; at most {MAX_WORKERS}); also with --resume",
    ),
]
PinCpus = Annotated[
    bool,
    typer.Option(
        "--pin-cpus/--no-pin-cpus",
        help="with --workers: keep each worker and the bots it starts to a share of this "
        "machine's cores; with --ray: each game slot's actor and its bots to a core of its "
        "node (faster: the scheduler moving them between cores costs more than it balances; "
        'README, "Benchmarks")',
    ),
]
RayAddress = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="ADDRESS",
        help="play the games on the Ray cluster whose head is at HOST:PORT (or auto: the one "
        # escaped: typer's help is rich markup, where [ray] would be a (dropped) style tag
        f"started on this machine); needs {escape(ray_backend.INSTALL_HINT)}; also with --resume "
        '(README, "Running on many machines")',
    ),
]
RayCpus = Annotated[
    float,
    typer.Option(
        "--ray-cpus",
        help="Ray CPUs each game slot reserves on its node, with --ray (--concurrency slots "
        "are spread over the nodes)",
    ),
]
LogFile = Annotated[
    Path | None,
    typer.Option(
        "--log-file",
        metavar="FILE",
        help="append the operator's log to FILE: a line per bot started and stopped, game "
        "recorded, forfeit (with its reason), voided game and re-run, lost worker or Ray node",
    ),
]
ServeLogFile = Annotated[
    Path | None,
    typer.Option(
        "--log-file",
        metavar="FILE",
        help="append the server's log to FILE: the web server's lines (each request at info), "
        "its warnings and errors",
    ),
]
LogLevel = Annotated[
    str | None,
    typer.Option(
        "--log-level",
        metavar="LEVEL",
        help=f"{', '.join(LEVELS)}: the least a log line must be (default info); without "
        "--log-file the log goes to stderr, and only when --log-level is given",
    ),
]


# The most commas a bot directory's own name may hold and still be found in ``--bots``.
_MOST_COMMAS_IN_A_NAME = 8


def bot_texts(bot_list: str | None) -> list[str]:
    """``--bots``: the entrants it names, comma-separated, blanks dropped; [] if not given.
    A directory whose name holds a comma (``my,bot``) is one entrant, not two."""
    if bot_list is None:
        return []
    pieces = bot_list.split(",")
    texts: list[str] = []
    start = 0
    while start < len(pieces):
        end = start + 1
        for longer in range(min(len(pieces), start + 1 + _MOST_COMMAS_IN_A_NAME), start + 1, -1):
            if os.path.isdir(",".join(pieces[start:longer]).strip()):
                end = longer
                break
        text = ",".join(pieces[start:end]).strip()
        if text:
            texts.append(text)
        start = end
    if not texts:  # not "every bot": `--bots "$EMPTY"` is a slip
        fail("--bots names no bot (leave it out for every registered bot)")
    return texts
