"""A real arena database for the web tests: one small tournament of each game, played by real
bot processes through the real CLI, between random-python and a copy of it whose name is
markup (every page must show it as text). And a real Chromium for the browser tests:
``browser``, its ``page`` (a desktop's size) and ``phone``, and ``browser_page`` for a page of
other options."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

import pytest
import uvicorn

from arena.storage.database import open_database
from arena.storage.run_lock import sole_run
from arena.storage.target import DatabaseTarget, PostgresUrl, parse_target
from arena.web.app import create_app
from engine.registry import get_game
from tests.support.ports import free_port
from tests.support.postgres import PostgresServer
from tests.tournament.helpers import ROOT, SAMPLE_BOTS, renamed_bot

# Markup that would run (a script element swallowing the page) or show unless escaped; a bot
# name holds no space or '/', so no tag with attributes and no closing tag.
EVIL_NAME = "<script>alert(1)<b>'&amp;"
GAMES = ("oregon", "ogallala", "merkator")

# --- a real Chromium (Debian's ``chromium`` driven by Playwright) -------------------------------
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
INSTALL = (
    "the browser tests need Chromium and Playwright: apt-get install -y chromium, "
    "and scripts/setup (Playwright is a dev dependency)"
)
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1360, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, one per test module; a test that asks for it skips where Chromium or
    Playwright is missing."""
    sync_api = pytest.importorskip("playwright.sync_api", reason=INSTALL)
    if not Path(CHROMIUM).exists():
        pytest.skip(INSTALL)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield launched
        launched.close()


class Problems:
    """Console errors, uncaught exceptions, failed requests and dialogs of one page."""

    def __init__(self, page) -> None:
        self.seen: list[str] = []
        page.on(
            "console",
            lambda m: (
                self.seen.append(f"console {m.type}: {m.text}") if m.type == "error" else None
            ),
        )
        page.on("pageerror", lambda e: self.seen.append(f"page error: {e}"))
        page.on(
            "response",
            lambda r: self.seen.append(f"HTTP {r.status} {r.url}") if r.status >= 400 else None,
        )
        page.on("dialog", lambda d: (self.seen.append(f"dialog: {d.message}"), d.dismiss()))


@contextmanager
def browser_page(
    browser: Any, viewport: dict[str, int] = DESKTOP, *, strict: bool = True, **options: Any
) -> Iterator[Any]:
    """A page in a browser context of its own at ``viewport`` (``options``: Playwright's
    ``new_context``'s, as ``color_scheme``), its ``problems`` recorded (``Problems``); closed at
    the end, and with ``strict`` the test fails on any of them."""
    context = browser.new_context(viewport=viewport, **options)
    opened = context.new_page()
    opened.problems = Problems(opened)
    try:
        yield opened
    finally:
        problems = opened.problems.seen
        context.close()
    if strict:
        assert problems == [], problems


@pytest.fixture
def page(browser) -> Iterator[Any]:
    """A page in a desktop-sized window, failing its test on any console error, uncaught
    exception, failed request or dialog."""
    with browser_page(browser) as opened:
        yield opened


@pytest.fixture
def phone(browser) -> Iterator[Any]:
    """The same in a phone-sized window (a touch screen, 390 CSS pixels wide)."""
    with browser_page(browser, PHONE, is_mobile=True, has_touch=True) as opened:
        yield opened


def altered_copy(source: Path, target: Path, *statements: str) -> Path:
    """A copy of the database ``source`` at ``target``, with the SQL ``statements`` run on it:
    a session's database changed for one test alone."""
    with sqlite3.connect(source) as original, sqlite3.connect(target) as copy:
        original.backup(copy)
    with sqlite3.connect(target) as connection:
        for statement in statements:
            connection.execute(statement)
    return target


def first_actions(seed: int, decisions: int) -> list[int]:
    """The first ``decisions`` actions of a 2-player Oregon game dealt by ``seed``, each its
    first legal one: a game in play for a test to write as a match's process would."""
    state = get_game("oregon").new_game(2, seed, {})
    actions = []
    for _ in range(decisions):
        actions.append(0)
        state.apply_index(0)
    return actions


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
