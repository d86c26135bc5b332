"""The ``--db`` option shared by the commands that use the arena database."""

from __future__ import annotations

from pathlib import Path

import typer

from arena.commands import fail
from arena.storage.database import DEFAULT_PATH, Database, StorageError, open_database


def db_option() -> Path:
    return typer.Option(DEFAULT_PATH, "--db", envvar="ARENA_DB", dir_okay=False,
                        help="SQLite file of the arena (default ./arena.db, or $ARENA_DB)")


def open_or_fail(path: Path, *, create: bool) -> Database:
    try:
        return open_database(path, create=create)
    except StorageError as exc:
        fail(str(exc))
