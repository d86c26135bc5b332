"""``arena logs prune``: the operator's retention of kept bot logs, by age and by a size budget,
on the logs real matches kept; only regular ``*.log`` files of the directory are touched, and
bad input is one line with exit code 2."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.log_locks import hold_while_written
from arena.log_retention import prune
from tests.support.bots import SAMPLE_BOTS, TEST_BOTS

runner = CliRunner()
DAY = 86400.0


def age(path: Path, days: float) -> None:
    then = time.time() - days * DAY
    os.utime(path, (then, then))


@pytest.mark.slow
def test_old_logs_of_real_matches_are_removed_and_their_games_stay(tmp_path):
    db = tmp_path / "arena.db"
    logs = tmp_path / "arena-hosted" / "logs"  # where a hosted ladder keeps them
    match = ["match", str(TEST_BOTS / "chatty"), str(SAMPLE_BOTS / "random-python")]
    match += ["--game", "oregon", "--db", str(db), "--sandbox", "none", "--bot-logs", str(logs)]
    assert runner.invoke(app, [*match, "--seed", "1"]).exit_code == 0
    old = sorted(logs.glob("*.log"))
    for path in old:
        age(path, 40)
    assert runner.invoke(app, [*match, "--seed", "2"]).exit_code == 0
    new = sorted(set(logs.glob("*.log")) - set(old))
    (logs / "validate-run").mkdir()  # not a log: left alone
    (logs / "planted.log").symlink_to(new[0])  # not a regular file: left alone

    prune_old = ["logs", "prune", "--older-than", "30d", "--db", str(db)]
    dry = runner.invoke(app, [*prune_old, "--dry-run", "--json"])
    assert dry.exit_code == 0, dry.output
    assert sorted(json.loads(dry.stdout)["removed"]) == [path.name for path in old]
    assert all(path.exists() for path in old)

    result = runner.invoke(app, prune_old)

    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"{logs}: removed 2 logs (")
    assert "kept 2 (" in result.stdout  # the link is not a log
    assert not any(path.exists() for path in old) and all(path.exists() for path in new)
    assert (logs / "validate-run").is_dir() and (logs / "planted.log").is_symlink()
    with sqlite3.connect(db) as connection:  # both games, and where their logs were, stay
        assert connection.execute("SELECT count(*) FROM seat_log").fetchone() == (4,)


def test_a_size_budget_removes_the_oldest_logs_first(tmp_path):
    for days, name in enumerate(["newest.log", "middle.log", "oldest.log"]):
        (tmp_path / name).write_bytes(b"x" * 100)
        age(tmp_path / name, days)
    (tmp_path / "notes.txt").write_bytes(b"x" * 1000)  # not a log

    pruned = prune(tmp_path, max_bytes=150)

    assert [log.name for log in pruned.removed] == ["oldest.log", "middle.log"]
    assert pruned.removed_bytes == 200 and pruned.kept_bytes == 100
    assert sorted(path.name for path in tmp_path.iterdir()) == ["newest.log", "notes.txt"]


def test_small_logs_are_sized_in_bytes_or_kib_not_as_no_mib(tmp_path):
    """A few KiB of logs read "0.0 MiB" (outside review): a size takes the unit it reaches."""
    for days, name, size in [(1, "new.log", 3500), (30, "old.log", 600)]:
        (tmp_path / name).write_bytes(b"x" * size)
        age(tmp_path / name, days)
    arguments = ["logs", "prune", "--bot-logs", str(tmp_path), "--older-than", "7d", "--dry-run"]

    result = runner.invoke(app, arguments)

    assert result.exit_code == 0, result.output
    assert result.stdout == f"{tmp_path}: would remove 1 log (600 bytes), kept 1 (3.4 KiB)\n"


def test_age_and_budget_together_and_the_json_output(tmp_path):
    for days, name in [(1, "a.log"), (2, "b.log"), (10, "c.log")]:
        (tmp_path / name).write_bytes(b"x" * (1 << 20))
        age(tmp_path / name, days)
    arguments = ["logs", "prune", "--bot-logs", str(tmp_path), "--json"]

    result = runner.invoke(app, [*arguments, "--older-than", "7d", "--max-size", "1.5M"])

    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "directory": str(tmp_path),
        "dry_run": False,
        "removed": ["c.log", "b.log"],
        "removed_bytes": 2 << 20,
        "kept": 1,
        "kept_bytes": 1 << 20,
        "in_use": [],
    }


def test_a_log_being_written_is_never_removed(tmp_path):
    """A kept-up bot's log, idle between its games, was removed under it by age or by the size
    budget (a ladder's own retention too): its later games then had no log."""
    for days, name in [(1, "new.log"), (20, "live.log"), (30, "old.log")]:
        (tmp_path / name).write_bytes(b"x" * (1 << 20))
        age(tmp_path / name, days)
    sink = os.open(tmp_path / "live.log", os.O_WRONLY)  # as a sink holds its log
    hold_while_written(sink)
    arguments = ["logs", "prune", "--bot-logs", str(tmp_path), "--older-than", "7d"]
    try:
        dry = runner.invoke(app, [*arguments, "--dry-run", "--json"])
        result = runner.invoke(app, [*arguments, "--max-size", "2M"])
        assert (tmp_path / "live.log").exists()
    finally:
        os.close(sink)

    assert json.loads(dry.stdout)["removed"] == ["old.log"]
    assert json.loads(dry.stdout)["in_use"] == ["live.log"]
    assert result.exit_code == 0, result.output
    assert result.stdout.endswith("kept 2 (2 MiB), 1 of them due but being written\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["live.log", "new.log"]
    assert prune(tmp_path, older_than=7 * DAY).removed[0].name == "live.log"  # once written no more


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([], "say what to remove: --older-than AGE, --max-size SIZE, or both"),
        (["--older-than", "30x"], "--older-than '30x': give an age such as 30d, 12h or 90m"),
        (["--max-size", "lots"], "--max-size 'lots': give a size such as 500M or 10G"),
        (["--older-than", "1d", "--bot-logs", "missing"], "missing: no logs directory there"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, monkeypatch, arguments, message):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["logs", "prune", *arguments])
    assert result.exit_code == 2
    assert message in result.output and len(result.output.strip().splitlines()) == 1
