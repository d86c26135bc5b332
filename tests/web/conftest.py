"""A real arena database for the web tests: one small tournament of each game, played by real
bot processes through the real CLI, between random-python and a copy of it whose name is
markup (every page must show it as text)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self

import pytest
import uvicorn

from arena.storage.database import open_database
from arena.storage.run_lock import sole_run
from arena.storage.target import DatabaseTarget, PostgresUrl, parse_target
from arena.web.app import create_app
from tests.support.ports import free_port
from tests.support.postgres import PostgresServer
from tests.tournament.helpers import ROOT, SAMPLE_BOTS, renamed_bot

# Markup that would run (a script element swallowing the page) or show unless escaped; a bot
# name holds no space or '/', so no tag with attributes and no closing tag.
EVIL_NAME = "<script>alert(1)<b>'&amp;"
GAMES = ("oregon", "ogallala", "merkator")


def altered_copy(source: Path, target: Path, *statements: str) -> Path:
    """A copy of the database ``source`` at ``target``, with the SQL ``statements`` run on it:
    a session's database changed for one test alone."""
    with sqlite3.connect(source) as original, sqlite3.connect(target) as copy:
        original.backup(copy)
    with sqlite3.connect(target) as connection:
        for statement in statements:
            connection.execute(statement)
    return target


@contextmanager
def run_in_progress(db: Path, tournament_id: int) -> Iterator[None]:
    """Hold the run lock of ``tournament_id`` as the process running it would: without one a
    stored "running" tournament shows stopped (its process was killed)."""
    database = open_database(db, create=False)
    try:
        with sole_run(database, tournament_id, "the test's run"):
            yield
    finally:
        database.close()


def run_arena(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@pytest.fixture(scope="session")
def bot_dirs(tmp_path_factory) -> list[Path]:
    evil = renamed_bot(
        SAMPLE_BOTS / "random-python", tmp_path_factory.mktemp("web-bots") / "evil", EVIL_NAME
    )
    return [SAMPLE_BOTS / "random-python", evil]


def play_web_tournaments(db: str, bot_dirs: list[Path]) -> None:
    """Six finished games: a 2-player round robin of one deal per game type (2 seat rotations),
    the same in every run: one game at a time, each with fresh bots seeded from its own seed
    (bots that stay up carry one seed across games, in an order that concurrency varies, and
    tests that look at a particular position flaked)."""
    for game in GAMES:
        done = run_arena(
            "tournament",
            "--db",
            db,
            "--game",
            game,
            "--bots",
            ",".join(map(str, bot_dirs)),
            "--players",
            "2",
            "--deals",
            "1",
            "--seed",
            str(2**62 + 17),
            "--name",
            f"{game}-web",
            "--concurrency",
            "1",
            "--fresh-bots",
        )
        assert done.returncode == 0, done.stderr


@pytest.fixture(scope="session")
def arena_db(tmp_path_factory, bot_dirs) -> Path:
    """The web tests' SQLite database (``play_web_tournaments``)."""
    path = tmp_path_factory.mktemp("web-db") / "arena.db"
    play_web_tournaments(str(path), bot_dirs)
    return path


@pytest.fixture(scope="session")
def arena_pg_db(postgres_server: PostgresServer, bot_dirs) -> PostgresUrl:
    """The same games in a PostgreSQL database: the same seeds make the same games, ids and
    all, so a test may compare what the web shows of it with ``arena_db``."""
    target = parse_target(postgres_server.fresh_database())
    assert isinstance(target, PostgresUrl)
    play_web_tournaments(str(target), bot_dirs)
    return target


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def web_db(request: pytest.FixtureRequest) -> DatabaseTarget:
    """The web tests' database, on SQLite and then on PostgreSQL."""
    return request.getfixturevalue("arena_db" if request.param == "sqlite" else "arena_pg_db")


class ServerThread:
    """``arena serve``'s app under uvicorn in a thread of the test process."""

    def __init__(self, db: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            create_app(db), host="127.0.0.1", port=self.port, log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the web server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def web_server(arena_db) -> Iterator[ServerThread]:
    with ServerThread(arena_db) as server:
        yield server
