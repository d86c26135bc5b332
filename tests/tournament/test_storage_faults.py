"""Faults of the arena's own storage: a tournament whose database fails (locked too long, a full
disk) stops with one line and resumes; two processes create the same database, or the same
tournament, at the same instant."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from arena.storage import database as database_module
from arena.storage.migrations import CURRENT_VERSION
from arena.tournament import runner
from tests.tournament.helpers import SAMPLE_BOTS, locked_from_second_game, query, run_cli

BOTS = f"{SAMPLE_BOTS / 'random-python'},{SAMPLE_BOTS / 'heuristic-python'}"
TRIALS = 6


def tournament_t(db: Path):
    """A one-deal tournament named t of two sample bots, one game at a time."""
    return run_cli(
        "tournament", "--game", "oregon", "--bots", BOTS, "--deals", "1", "--concurrency", "1",
        "--name", "t", "--sandbox", "none", "--db", str(db),
    )  # fmt: skip


def test_a_database_locked_past_its_timeout_stops_the_tournament_and_it_resumes(
    tmp_path, monkeypatch
):
    db = tmp_path / "arena.db"
    monkeypatch.setattr(database_module, "_BUSY_SECONDS", 0.3)
    real_record_game = runner.record_game
    monkeypatch.setattr(runner, "record_game", locked_from_second_game(db, real_record_game))
    stopped = tournament_t(db)

    assert stopped.exit_code == 4, stopped.output  # a storage fault
    assert stopped.stderr.count("\n") == 1, stopped.stderr
    assert "database is locked" in stopped.stderr and "--resume t" in stopped.stderr
    assert "Traceback" not in stopped.output
    assert query(db, "SELECT state FROM tournament") == [("stopped",)]
    assert query(db, "SELECT count(*) FROM game")[0][0] == 1  # recorded before the fault: kept

    monkeypatch.setattr(runner, "record_game", real_record_game)
    resumed = run_cli("tournament", "--resume", "t", "--db", str(db))

    assert resumed.exit_code == 0, resumed.output
    assert query(db, "SELECT state FROM tournament") == [("finished",)]
    assert query(db, "SELECT count(*) FROM game WHERE status = 'finished'")[0][0] == 2


def _open_at_once(path: str, barrier, results) -> None:
    from arena.storage.database import StorageError, open_database

    barrier.wait()
    try:
        open_database(Path(path), create=True).close()
        results.put("ok")
    except StorageError as exc:
        results.put(str(exc))


def test_two_processes_creating_the_same_database_at_once_both_succeed(tmp_path):
    context = multiprocessing.get_context("spawn")
    for trial in range(TRIALS):
        path = tmp_path / f"new{trial}.db"
        barrier, results = context.Barrier(2), context.Queue()
        processes = [
            context.Process(target=_open_at_once, args=(str(path), barrier, results))
            for _ in range(2)
        ]
        for process in processes:
            process.start()
        for process in processes:
            process.join(60)
        assert [results.get(timeout=5) for _ in processes] == ["ok", "ok"], f"trial {trial}"
        assert query(path, "SELECT version FROM schema_version") == [(CURRENT_VERSION,)], (
            f"trial {trial}"
        )


def _create_at_once(db: str, barrier, results) -> None:
    from arena.errors import SetupError
    from arena.sandbox import SandboxPolicy
    from arena.tournament.settings import TournamentSettings
    from arena.tournament.setup import create_tournament

    barrier.wait()
    try:
        ready = create_tournament(
            Path(db),
            "oregon",
            ["random-python", "heuristic-python"],
            TournamentSettings(
                players=2, deals=1, concurrency=1, move_time=1.0, sandbox=SandboxPolicy(tool="none")
            ),
            seed=1 << 50,
            name="same",
        )
        ready.database.close()
        results.put("ok")
    except SetupError as exc:
        results.put(str(exc))


@pytest.mark.parametrize("trial", range(3))
def test_the_same_tournament_created_twice_at_once_gives_one_success_and_one_error(tmp_path, trial):
    db = tmp_path / "arena.db"
    for bot in ("random-python", "heuristic-python"):
        assert run_cli("submit", str(SAMPLE_BOTS / bot), "--db", str(db)).exit_code == 0
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2), context.Queue()
    processes = [
        context.Process(target=_create_at_once, args=(str(db), barrier, results)) for _ in range(2)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)

    outcomes = sorted(results.get(timeout=5) for _ in processes)
    assert outcomes == ["a tournament named 'same' exists; continue it with --resume same", "ok"]
    assert query(db, "SELECT name FROM tournament") == [("same",)]


@pytest.fixture
def small_disk(tmp_path):
    """A 4 MiB file system of its own (tmpfs; mounting one needs root)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)], capture_output=True
        ).returncode
        != 0
    ):
        pytest.skip("cannot mount a small file system here (needs root)")
    yield disk
    # lazily: sqlite3 connections of the query helper close only when collected
    subprocess.run(["umount", "--lazy", str(disk)], check=True)


def fill(disk: Path) -> Path:
    """Fill ``disk`` up with one file; the file."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as handle:
        try:
            while handle.write(b"\0" * 4096):
                pass
        except OSError:
            pass  # full
    return filler


def test_a_tournament_on_a_full_disk_stops_cleanly_and_resumes(small_disk, monkeypatch):
    db = small_disk / "arena.db"
    real_record_game = runner.record_game
    fillers = []

    def record_on_a_full_disk(*args, **kwargs):
        if not fillers:
            fillers.append(fill(small_disk))
        return real_record_game(*args, **kwargs)

    monkeypatch.setattr(runner, "record_game", record_on_a_full_disk)
    stopped = tournament_t(db)

    assert stopped.exit_code == 4, stopped.output  # a storage fault
    assert stopped.stderr.count("\n") == 1, stopped.stderr
    assert "full" in stopped.stderr and "--resume t" in stopped.stderr
    assert "Traceback" not in stopped.output

    fillers[0].unlink()
    monkeypatch.setattr(runner, "record_game", real_record_game)
    resumed = run_cli("tournament", "--resume", "t", "--db", str(db))

    assert resumed.exit_code == 0, resumed.output
    assert query(db, "SELECT state FROM tournament") == [("finished",)]
    assert query(db, "SELECT count(*) FROM game WHERE status = 'finished'")[0][0] == 2


def _damage_table(db: Path, table: str) -> None:
    """Overwrite ``table``'s root page with garbage, as a failing disk would."""
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
        [root] = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
    with db.open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        handle.write(b"\xa5" * page_size)


@pytest.mark.parametrize("command", ["tournament", "ladder"])
def test_a_damaged_database_stops_the_run_saying_a_restart_will_not_help(tmp_path, command):
    """It said "continue it with --resume", which fails the same way (outside review)."""
    db = tmp_path / "arena.db"
    first = run_cli(
        "tournament", "--game", "oregon", "--bots", BOTS, "--deals", "1", "--db", str(db)
    )
    assert first.exit_code == 0, first.stderr
    _damage_table(db, "seat")
    until = ("--deals", "1") if command == "tournament" else ("--until", "4")
    result = run_cli(command, "--game", "oregon", "--bots", BOTS, *until, "--db", str(db))
    assert result.exit_code == 4, result.stderr
    [line] = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert "database disk image is malformed" in line
    assert "the database file is damaged: restore it from a backup" in line
    assert "--resume" not in line and "start it again" not in line
