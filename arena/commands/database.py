"""The ``--db`` option shared by the commands that use the arena database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena.storage.database import DEFAULT_PATH

__all__ = ["DEFAULT_PATH", "DbPath"]

DbPath = Annotated[
    Path,
    typer.Option(
        "--db",
        envvar="ARENA_DB",
        dir_okay=False,
        help="SQLite file of the arena (default ./arena.db, or $ARENA_DB)",
    ),
]
