"""A real PostgreSQL server for the tests: Debian's (``/usr/lib/postgresql/*/bin``) started once
per session in a temporary directory, on a free loopback port, and stopped at the end; each test
gets a fresh database of its own. PostgreSQL refuses to run as root, so as root (CI) the server
runs as Debian's ``postgres`` user, or ``nobody`` where there is none (the directory is handed to
it). The server outlives each test by design, so it is started without the session's marker
(``tests/support/processes.py``): it is not a process a test left behind. Where PostgreSQL is
not installed the tests that need it skip and say how to install it (``scripts/setup
--for-tests`` does).

``db_target`` is the fixture a test takes to run on both databases: an SQLite file path, or the
URL of a fresh PostgreSQL database."""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from arena.storage.target import DatabaseTarget, PostgresUrl, parse_target
from tests.support.ports import free_port
from tests.support.processes import SESSION_VARIABLE

SUPERUSER = "arena"
# when the tests run as root: not nobody where there is a choice, the uid sandboxed bots may get
_RUN_AS = "postgres" if any(u.pw_name == "postgres" for u in pwd.getpwall()) else "nobody"
_numbers = itertools.count(1)


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's bin directory."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
    )
    return found[-1].parent if found else None


@dataclass
class PostgresServer:
    directory: Path
    port: int

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(sql)  # type: ignore[arg-type]  # a test's own SQL

    def fresh_database(self, template: str = "template0") -> str:
        """A new empty database (or a copy of ``template``); its URL."""
        name = f"arena_test_{os.getpid()}_{next(_numbers)}"
        self.admin(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        return self.url(name)


def _as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", _RUN_AS, "--", *command] if os.geteuid() == 0 else command


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip(
            "PostgreSQL is not installed (/usr/lib/postgresql/*/bin): scripts/setup "
            "--for-tests installs it (sudo apt-get install postgresql)"
        )
    directory = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    if os.geteuid() == 0:
        user = pwd.getpwnam(_RUN_AS)
        os.chown(directory, user.pw_uid, user.pw_gid)
    data = directory / "data"
    unmarked = {key: value for key, value in os.environ.items() if key != SESSION_VARIABLE}
    run = {"check": True, "capture_output": True, "text": True, "timeout": 120, "env": unmarked}
    subprocess.run(
        _as_server_user(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "-E",
                "UTF8",
            ]
        ),
        **run,  # type: ignore[call-overload]
    )
    port = free_port()
    # fsync off: a test server's data need not survive a power cut, and fsync is its slow part.
    settings = (
        f"-c listen_addresses=127.0.0.1 -p {port} -k {directory} -c fsync=off "
        "-c full_page_writes=off -c synchronous_commit=off -c max_connections=200"
    )
    pg_ctl = [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(directory / "log")]
    subprocess.run(_as_server_user([*pg_ctl, "-w", "-o", settings, "start"]), **run)  # type: ignore[call-overload]
    try:
        yield PostgresServer(directory, port)
    finally:
        subprocess.run(
            _as_server_user([*pg_ctl, "-m", "immediate", "stop"]),
            check=False,
            capture_output=True,
            timeout=60,
            env=unmarked,
        )
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def postgres_db(
    postgres_server: PostgresServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> PostgresUrl:
    """A fresh, empty PostgreSQL database for one test. What the arena keeps on disk for a URL
    (frames, uploads: the user's cache and data directories) goes to the test's own directory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    target = parse_target(postgres_server.fresh_database())
    assert isinstance(target, PostgresUrl)
    return target


@pytest.fixture(params=["sqlite", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> DatabaseTarget:
    """Where a test's arena database is: a new SQLite file, then a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "arena.db"
    return request.getfixturevalue("postgres_db")
