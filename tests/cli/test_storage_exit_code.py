"""A database that cannot be used is a storage fault, exit code 4 and one line, whatever the
command; no database at the path given is the user's input, exit code 2 (README, exit codes)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from arena.storage.database import open_database
from arena.storage.read_only import ReadOnlyDatabase
from tests.support.bots import ROOT, SAMPLE_BOTS

STORAGE_FAULT = 4
BAD_INPUT = 2


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    """The real command line, in its own process: what a script calling ``arena`` sees."""
    return subprocess.run(
        [sys.executable, "-c", "from arena.cli import main; main()", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def corrupt_database(path: Path) -> None:
    """An arena database whose pages after the first are overwritten, as a failing disk or a
    stray write leaves one: the SQLite header is intact, the tables are not."""
    open_database(path, create=True).close()
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    data[page_size:] = b"\xff" * (len(data) - page_size)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    "command",
    [("leaderboard",), ("history",), ("bots",), ("submit", str(SAMPLE_BOTS / "random-python"))],
)
def test_a_corrupt_database_exits_4_in_one_line(tmp_path: Path, command):
    db = tmp_path / "arena.db"
    corrupt_database(db)
    before = db.read_bytes()
    done = arena(*command, "--db", str(db))
    assert done.returncode == STORAGE_FAULT, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"error: {db}: "), done.stderr
    assert "malformed" in done.stderr
    assert db.read_bytes() == before  # nothing written to it


@pytest.fixture
def read_only_copy(tmp_path):
    """A directory holding an arena database, seen through a read-only bind mount (as on
    read-only media; mounting needs root)."""
    source, view = tmp_path / "disk", tmp_path / "read-only"
    source.mkdir()
    view.mkdir()
    bot = str(SAMPLE_BOTS / "random-python")
    played = arena(
        "match",
        "-g",
        "oregon",
        bot,
        bot,
        "--rated",
        "--sandbox",
        "none",
        "--db",
        str(source / "arena.db"),
    )
    assert played.returncode == 0, played.stderr
    with sqlite3.connect(source / "arena.db") as connection:  # a snapshot: no -wal, no -shm
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for leftover in ("arena.db-wal", "arena.db-shm"):
        (source / leftover).unlink(missing_ok=True)
    mounted = os.geteuid() == 0 and (
        subprocess.run(["mount", "--bind", source, view], capture_output=True).returncode == 0
    )
    if not mounted:
        pytest.skip("cannot bind-mount here (needs root)")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", view], check=True)
        yield view / "arena.db"
    finally:
        subprocess.run(["umount", "--lazy", view], check=True)


def test_a_database_on_a_read_only_file_system_is_read_and_a_write_exits_4(read_only_copy: Path):
    """Read as it is: SQLite cannot create the -shm index a WAL database needs there, and every
    read failed with "unable to open database file" (outside review)."""
    db = read_only_copy
    assert ReadOnlyDatabase(db).games_played()[0]["games"] == 1
    for reading in (("leaderboard",), ("history",)):
        shown = arena(*reading, "--db", str(db))
        assert shown.returncode == 0, shown.stderr
        assert "random-python" in shown.stdout
    done = arena(
        "submit", str(SAMPLE_BOTS / "heuristic-python"), "--sandbox", "none", "--db", str(db)
    )
    assert done.returncode == STORAGE_FAULT, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"error: {db}: ")
    assert sorted(path.name for path in db.parent.iterdir()) == ["arena.db"]


def test_a_match_on_a_read_only_database_is_refused_before_it_is_played(read_only_copy: Path):
    """It was played, then the live view warned and the store failed: two lines on stderr, a
    game that could not be kept (outside review)."""
    bot = str(SAMPLE_BOTS / "random-python")
    done = arena(
        "match", "-g", "oregon", bot, bot, "--sandbox", "none", "--db", str(read_only_copy)
    )
    assert done.returncode == STORAGE_FAULT, done.stderr
    assert done.stderr == (
        f"error: {read_only_copy}: attempt to write a readonly database "
        "(--no-store plays without storing)\n"
    )
    assert "score" not in done.stdout.lower()  # no game played


def test_a_file_of_another_kind_is_a_storage_fault(tmp_path: Path):
    db = tmp_path / "arena.db"
    db.write_bytes(b"\x00garbage" * 100)
    done = arena("leaderboard", "--db", str(db))
    assert done.returncode == STORAGE_FAULT, done.stderr
    assert "not an SQLite database" in done.stderr


def test_no_database_at_the_path_is_bad_input(tmp_path: Path):
    done = arena("leaderboard", "--db", str(tmp_path / "none.db"))
    assert done.returncode == BAD_INPUT, done.stderr
    assert "no arena database here" in done.stderr
