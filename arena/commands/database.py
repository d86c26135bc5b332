"""The ``--db`` option shared by the commands that use the arena database: an SQLite file or a
postgresql:// URL, parsed here once (a malformed URL, or a path no file can have, is one line,
exit 2)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from arena.errors import InputError
from arena.storage.database import DEFAULT_PATH
from arena.storage.target import PostgresUrl, parse_target
from arena.utf8_arguments import refuse_non_utf8

if TYPE_CHECKING:
    from arena.storage.target import DatabaseTarget as _Target
else:
    _Target = object  # Typer refuses a Union annotation; the parser below makes the value

__all__ = ["DEFAULT_PATH", "DbPath", "parse_db"]

# A path no file can be at (a name longer than the filesystem allows, a symlink loop): each
# command tripped over it in a place of its own, most with a traceback.
_PATH_ERRORS = (errno.ENAMETOOLONG, errno.ELOOP)


def parse_db(text: str | Path) -> _Target:
    """``--db``'s value (also from $ARENA_DB): ``parse_target``'s, checked where it would fail
    later with a traceback."""
    if isinstance(text, str):
        refuse_non_utf8([text], "--db")
    target = parse_target(text)
    if isinstance(target, PostgresUrl):
        _check_host(target)
    else:
        _check_path(target)
    return target


def _check_host(target: PostgresUrl) -> None:
    """A host name the resolver cannot even encode (an empty or 64-character label) raised
    UnicodeError from inside the connect."""
    host = target.url.host
    if not host or host.startswith("/"):  # a Unix socket's directory
        return
    try:
        host.encode("idna")
    except UnicodeError:
        raise InputError(f"--db {target}: {host!r} is not a host name") from None


def _check_path(path: Path) -> None:
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno in _PATH_ERRORS:
            raise InputError(f"--db {path}: {exc.strerror}") from None


DbPath = Annotated[
    _Target,
    typer.Option(
        "--db",
        envvar="ARENA_DB",
        metavar="PATH|URL",
        parser=parse_db,
        help="the arena database: an SQLite file (default ./arena.db, or $ARENA_DB), or "
        "postgresql://USER@HOST:PORT/DBNAME for a database several hosts share",
    ),
]
