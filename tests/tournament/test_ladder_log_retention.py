"""A ladder left running keeps its bots' logs within bounds (``--logs-older-than``,
``--logs-max-size``): it prunes them as ``arena logs prune`` does, while it plays."""

import logging
import os
import time
from pathlib import Path

import pytest
import trio

from arena.log_retention import Retention, keep_pruned
from tests.tournament.helpers import SAMPLE_BOTS, renamed_bot, run_cli

QUICK = ("--game", "oregon", "--sandbox", "none", "--move-time", "30")
DAY = 86400


def _stale_log(directory: Path, name: str, age: float) -> Path:
    log = directory / name
    log.write_text("an old game's log\n")
    then = time.time() - age
    os.utime(log, (then, then))
    return log


@pytest.mark.slow  # real CLI and bot processes
def test_a_running_ladder_removes_the_logs_older_than_its_bound(tmp_path):
    db = tmp_path / "arena.db"
    for i in range(2):
        bot = renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / f"r{i}", f"r{i}")
        assert run_cli("submit", str(bot), "--db", str(db), "--sandbox", "none").exit_code == 0
    logs = tmp_path / "logs"
    logs.mkdir()
    stale = _stale_log(logs, "old-bot-1.log", 3 * DAY)
    recent = _stale_log(logs, "recent-bot-2.log", 60)
    (logs / "not-a-log").mkdir()  # left alone, as arena logs prune leaves it
    result = run_cli(
        "ladder",
        *QUICK,
        "--until",
        "2",
        "--bot-logs",
        str(logs),
        "--logs-older-than",
        "1d",
        "--db",
        str(db),
    )
    assert result.exit_code == 0, result.stderr
    assert not stale.exists()
    assert recent.exists() and (logs / "not-a-log").is_dir()
    assert len(list(logs.glob("*.log"))) > 1  # the ladder's own games' logs stay


def test_a_bound_without_kept_logs_or_a_bad_size_is_refused_before_anything_is_written(tmp_path):
    db = tmp_path / "arena.db"
    unkept = run_cli("ladder", *QUICK, "--logs-max-size", "1G", "--db", str(db))
    assert unkept.exit_code == 2
    assert "need --bot-logs DIR" in unkept.stderr and "Traceback" not in unkept.stderr
    bad = run_cli(
        "ladder",
        *QUICK,
        "--bot-logs",
        str(tmp_path / "logs"),
        "--logs-max-size",
        "lots",
        "--db",
        str(db),
    )
    assert bad.exit_code == 2 and "--logs-max-size 'lots'" in bad.stderr
    assert not db.exists() or "oregon-ladder" not in run_cli("leaderboard", "--db", str(db)).stdout


async def test_pruning_goes_on_after_a_failure(tmp_path, caplog):
    # the directory vanishes (an operator's rm -r): a warning, then the next round prunes again
    logs = tmp_path / "logs"
    with caplog.at_level(logging.WARNING, logger="arena.log_retention"):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(keep_pruned, logs, Retention(max_bytes=0), 0.05)
            await trio.sleep(0.2)
            assert "pruning the bot logs" in caplog.text
            logs.mkdir()
            log = _stale_log(logs, "a.log", 10)
            await trio.sleep(0.3)
            nursery.cancel_scope.cancel()
    assert not log.exists()
