"""Where the arena database is: an SQLite file (the default) or a PostgreSQL database named by a
``postgresql://USER@HOST:PORT/DBNAME`` URL, for a host where several processes or machines share
one database (docs/hosting.md, "PostgreSQL"). The CLI parses ``--db`` into one of these once."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from arena.errors import InputError

_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")


@dataclass(frozen=True)
class PostgresUrl:
    """A PostgreSQL database; ``str()`` hides the password (it names the database in messages)."""

    url: URL

    def __str__(self) -> str:
        return _shown(self.url)

    @property
    def slug(self) -> str:
        """A file name for what the arena keeps on disk for this database (host, port, name)."""
        where = f"{self.url.host or 'local'}-{self.url.port or 5432}-{self.url.database}"
        return re.sub(r"[^A-Za-z0-9._-]", "_", where)

    def local_dir(self, kind: str) -> Path:
        """``kind`` (frames, hosted) of this database on this machine: a URL has no directory
        beside it, so under the user's cache (frames: derived, rebuilt when missing) or data
        directory (uploads: kept), per the XDG base directories."""
        if kind == "frames":
            base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        else:
            base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
        return Path(base) / "arena" / f"{self.slug}.{kind}"


DatabaseTarget = Path | PostgresUrl


def parse_target(text: str | Path) -> DatabaseTarget:
    """``--db``'s value: a postgresql:// URL, else a file path; a malformed URL or one of another
    kind is an InputError (one line)."""
    if isinstance(text, Path | PostgresUrl):
        return text
    scheme = text.partition("://")[0] if "://" in text else None
    if scheme is None:
        return Path(text)
    if scheme not in _SCHEMES:
        raise InputError(
            f"--db {text}: a file path or a postgresql://USER@HOST:PORT/DBNAME URL, not {scheme}://"
        )
    try:
        url = make_url(text).set(drivername="postgresql+psycopg")
    except (ArgumentError, ValueError) as exc:
        raise InputError(f"--db: not a valid PostgreSQL URL: {exc}") from None
    if not url.database:
        raise InputError(f"--db {_shown(url)}: the URL names no database (.../DBNAME)")
    return PostgresUrl(url)


def _shown(url: URL) -> str:
    """``url`` as the user wrote it, without its password."""
    return url.set(drivername="postgresql").render_as_string(hide_password=True)


def may_exist(target: DatabaseTarget) -> bool:
    """Whether there may be a database to open at ``target`` (a file: there is one; a server's
    database: always, its administrator made it)."""
    return isinstance(target, PostgresUrl) or target.exists()
