"""The ``--db`` option shared by the commands that use the arena database: an SQLite file or a
postgresql:// URL, parsed here once (a malformed URL is one line, exit 2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from arena.storage.database import DEFAULT_PATH
from arena.storage.target import parse_target

if TYPE_CHECKING:
    from arena.storage.target import DatabaseTarget as _Target
else:
    _Target = object  # Typer refuses a Union annotation; the parser below makes the value

__all__ = ["DEFAULT_PATH", "DbPath"]

DbPath = Annotated[
    _Target,
    typer.Option(
        "--db",
        envvar="ARENA_DB",
        metavar="PATH|URL",
        parser=parse_target,
        help="the arena database: an SQLite file (default ./arena.db, or $ARENA_DB), or "
        "postgresql://USER@HOST:PORT/DBNAME for a database several hosts share",
    ),
]
