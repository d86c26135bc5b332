"""A database that cannot be used is a storage fault, exit code 4 and one line, whatever the
command; no database at the path given is the user's input, exit code 2 (README, exit codes)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from arena.storage.database import open_database
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
