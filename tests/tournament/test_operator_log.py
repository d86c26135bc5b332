"""``--log-file``: the operator's log of a tournament, a line per bot started and stopped and per
forfeit with its reason, from worker processes too; the terminal stays quiet by default. ``arena
serve`` logs its requests there."""

from __future__ import annotations

import time
import urllib.request
from pathlib import Path

import pytest

from arena.storage.database import open_database
from tests.tournament.helpers import ROOT, SAMPLE_BOTS, run_cli, start_cli, start_remote_bot
from tests.tournament.test_remote_deals import _listening as listening
from tests.web.conftest import free_port

CRASHING = ROOT / "tests" / "bots" / "exits-midgame"


def _tournament(tmp_path: Path, *extra: str):
    return run_cli(
        "tournament",
        "--game",
        "oregon",
        "--bots",
        f"{SAMPLE_BOTS / 'random-python'},{CRASHING}",
        "--deals",
        "1",
        "--concurrency",
        "2",
        "--sandbox",
        "none",
        "--db",
        str(tmp_path / "arena.db"),
        *extra,
    )


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_crashing_bot_is_in_the_log_file_and_not_on_the_terminal(tmp_path: Path, workers):
    log = tmp_path / "arena.log"
    result = _tournament(tmp_path, "--workers", workers, "--log-file", str(log))
    assert result.exit_code == 0, result.output

    lines = log.read_text().splitlines()
    forfeits = [line for line in lines if "forfeits" in line]
    assert len(forfeits) == 2, "the crashing bot's seat in each of the two games"
    assert all(
        " WARNING " in line
        and "(exits-midgame) forfeits: CRASH" in line
        and "exiting on purpose" in line
        for line in forfeits
    )
    started = [line for line in lines if "arena.bots" in line and "started" in line]
    stopped = [line for line in lines if "arena.bots" in line and "stopped" in line]
    assert sum("bot exits-midgame" in line for line in started) == 2, "once per game"
    ended = "it had ended: exited with code 3"
    assert sum("bot exits-midgame" in line and ended in line for line in stopped) == 2
    assert any("bot random-python" in line for line in started)
    assert any("bot random-python" in line and "by the arena" in line for line in stopped)
    assert sum("recorded as game" in line for line in lines) == 2
    assert "arena.bots" not in result.stderr and "forfeits" not in result.stderr


def test_log_level_without_a_file_logs_to_stderr(tmp_path: Path):
    result = _tournament(tmp_path, "--log-level", "warning")
    assert result.exit_code == 0, result.output
    assert result.stderr.count("forfeits: CRASH") == 2
    assert "started" not in result.stderr, "bot starts are info lines"


@pytest.mark.parametrize(
    ("option", "value"), [("--log-file", "missing/arena.log"), ("--log-level", "loud")]
)
def test_a_bad_log_option_is_one_line_before_anything_is_stored(tmp_path: Path, option, value):
    given = str(tmp_path / value) if option == "--log-file" else value
    result = _tournament(tmp_path, option, given)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {option}") and result.stderr.count("\n") == 1
    assert not (tmp_path / "arena.db").exists()


def test_serve_logs_its_requests_to_the_log_file(tmp_path: Path):
    db = tmp_path / "arena.db"
    open_database(db, create=True).close()
    log = tmp_path / "serve.log"
    port = free_port()
    server = start_cli("serve", "--db", str(db), "--port", str(port), "--log-file", str(log))
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/leaderboard", timeout=5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "arena serve did not answer"
                time.sleep(0.2)
    finally:
        server.terminate()
        _, stderr = server.communicate(timeout=30)
    text = log.read_text()
    assert '"GET /leaderboard HTTP/1.1" 200' in text and "uvicorn" in text
    assert "Uvicorn running" not in stderr, "the log file has uvicorn's lines, not the terminal"


def test_a_bot_the_arena_stopped_after_its_forfeit_is_not_said_to_have_died(tmp_path: Path):
    """A bot alive when it forfeited (an exception in its Decide) is stopped by the arena: the
    log blamed its SIGKILL on the bot (outside review)."""
    bot = tmp_path / "raiser"
    bot.mkdir()
    (bot / "bot.toml").write_text(
        'name = "raiser"\nversion = "1"\n'
        f'command = ["python", "{ROOT / "tests" / "bots" / "misbehave.py"}", "raise"]\n'
        'games = ["oregon"]\n'
    )
    log = tmp_path / "arena.log"
    result = run_cli(
        "tournament", "--game", "oregon", "--bots", f"{SAMPLE_BOTS / 'random-python'},{bot}",
        "--deals", "1", "--sandbox", "none", "--db", str(tmp_path / "arena.db"),
        "--log-file", str(log),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    stopped = [line for line in log.read_text().splitlines() if "bot raiser" in line]
    stopped = [line for line in stopped if "stopped" in line]
    assert stopped and all("stopped by the arena" in line for line in stopped), stopped
    assert not any("killed by SIGKILL" in line for line in stopped)


def test_the_log_says_why_a_kept_up_bot_was_replaced(tmp_path: Path):
    """A bot that played well but left EndGame unanswered was replaced after every game, and
    the log said only "stopped by the arena" (outside review)."""
    log = tmp_path / "arena.log"
    sleeper = ROOT / "tests" / "bots" / "end-game-sleep"
    result = run_cli(
        "tournament", "--game", "oregon", "--bots", f"{SAMPLE_BOTS / 'random-python'},{sleeper}",
        "--deals", "1", "--concurrency", "1", "--sandbox", "none",
        "--db", str(tmp_path / "arena.db"), "--log-file", str(log),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = log.read_text().splitlines()
    replaced = [line for line in lines if "bot end-game-sleep (pid " in line and "replaced" in line]
    assert len(replaced) == 2, lines  # after each of the deal's two games
    assert all(
        line.endswith("replaced: it did not acknowledge EndGame within 2 s") for line in replaced
    ), replaced
    assert not any("random-python" in line and "EndGame" in line for line in lines)


def test_a_bot_running_elsewhere_is_connected_to_not_started(tmp_path: Path):
    """The arena neither starts nor stops a remote bot: the log said it "started, kept up
    across games" and "stopped by the arena" (outside review)."""
    bot, port = start_remote_bot(token=None)
    try:
        listening(port)
        log = tmp_path / "arena.log"
        result = run_cli(
            "tournament", "--game", "oregon", "--sandbox", "none", "--deals", "1",
            "--bots", f"{SAMPLE_BOTS / 'heuristic-python'},random-python@127.0.0.1:{port}",
            "--db", str(tmp_path / "arena.db"), "--log-file", str(log),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
    finally:
        bot.kill()
        bot.wait()
    remote = [line for line in log.read_text().splitlines() if f"at 127.0.0.1:{port})" in line]
    assert remote and all(
        line.endswith(("connected, kept up across games", "disconnected")) for line in remote
    ), remote
