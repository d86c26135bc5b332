"""Running the real ``arena`` CLI against a real database (an SQLite file or a PostgreSQL
database), and looking into it."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import psycopg
from typer.testing import CliRunner

from arena.cli import app
from arena.storage.target import DatabaseTarget, PostgresUrl

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_BOTS = ROOT / "sample_bots"


def run_cli(*args: str) -> CliRunner.invoke:  # type: ignore[valid-type]
    """The arena CLI in this process (fast); result has exit_code, stdout, stderr."""
    return CliRunner().invoke(app, list(args))


def start_cli(*args: str) -> subprocess.Popen:
    """The arena CLI as a separate process (for kill and concurrency tests)."""
    return subprocess.Popen(
        [sys.executable, "-c", "from arena.cli import main; main()", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def renamed_bot(source: Path, target: Path, name: str) -> Path:
    """A copy of a sample bot under another name: one more real entrant."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("node_modules", "__pycache__"))
    manifest = target / "bot.toml"
    lines = manifest.read_text().splitlines()
    manifest.write_text(
        "\n".join(f'name = "{name}"' if line.startswith("name") else line for line in lines) + "\n"
    )
    return target


def locked_from_second_game(db: Path, record_game):
    """``record_game`` (the runner's) wrapped so that from the second game on another writer
    holds the SQLite file's lock while it records: a database locked past its timeout."""
    calls = []

    def record_while_locked(database, *args, **kwargs):
        calls.append(1)
        if len(calls) < 2:
            return record_game(database, *args, **kwargs)
        locker = sqlite3.connect(db, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")
        try:
            return record_game(database, *args, **kwargs)
        finally:
            locker.execute("ROLLBACK")
            locker.close()

    return record_while_locked


def query(db: DatabaseTarget, sql: str, *params: object) -> list[tuple]:
    """``sql`` (parameters as ``?``) on ``db``, read-only."""
    if isinstance(db, PostgresUrl):
        with psycopg.connect(str(db)) as connection:
            connection.read_only = True
            return connection.execute(sql.replace("?", "%s"), params).fetchall()  # type: ignore[arg-type]
    with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as connection:
        return connection.execute(sql, params).fetchall()


def snapshot(db: Path) -> list[str] | None:
    """The database's whole content as SQL (None if there is no file), read-only."""
    if not db.exists():
        return None
    try:
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True) as connection:
            return list(connection.iterdump())
    except sqlite3.DatabaseError:
        return [db.read_bytes().hex()]


def kill_groups(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def start_remote_bot(token: str | None) -> tuple[subprocess.Popen, int]:
    """The random-python sample bot serving on a TCP port of its own (a remote bot: NAME@HOST:PORT),
    and that port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "ARENA_BOT_ADDRESS": f"127.0.0.1:{port}", "ARENA_BOT_SEED": "1"}
    env.pop("ARENA_BOT_TOKEN", None)
    if token is not None:
        env["ARENA_BOT_TOKEN"] = token
    bot = subprocess.Popen(
        [sys.executable, "bot.py"],
        cwd=SAMPLE_BOTS / "random-python",
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return bot, port
