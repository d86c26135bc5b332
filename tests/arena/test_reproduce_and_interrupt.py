"""The same seed with the same seeded bots gives the same game, through play_match and through
the ``arena match`` command; Ctrl-C or SIGTERM stops the command and its bots, and even a killed
arena leaves no bot behind."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.referee.match import play_match
from tests.arena.conftest import ROOT, SAMPLE_BOTS, bot_processes, sample_bot

ARENA = Path(sys.executable).parent / "arena"


async def test_play_match_is_deterministic_for_a_fixed_seed():
    bots = [sample_bot("random-python"), sample_bot("random-node")]
    first = await play_match("oregon", bots, seed=77)
    second = await play_match("oregon", bots, seed=77)
    other = await play_match("oregon", bots, seed=78)
    assert first.actions == second.actions
    assert [s.score for s in first.seats] == [s.score for s in second.seats]
    assert other.actions != first.actions


def result_rows(stdout: str) -> list[str]:
    """The table's seat, bot, score, rank and outcome columns (time used varies)."""
    rows = []
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.split("│") if c.strip()]
        if cells and cells[0].isdigit():
            rows.append(" ".join(cells[:5]))
    return rows


def test_arena_match_command_is_deterministic_for_a_fixed_seed():
    sample_bot("random-node")  # skips without Node.js
    command = [str(ARENA), "match", "--game", "oregon", str(SAMPLE_BOTS / "random-python"),
               str(SAMPLE_BOTS / "random-node"), "--seed", "4242"]
    runs = [subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
            for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "seed 4242" in run.stdout
    assert len(result_rows(runs[0].stdout)) == 2
    assert result_rows(runs[0].stdout) == result_rows(runs[1].stdout)


def start_match_with_a_hanging_bot() -> subprocess.Popen:
    """``arena match`` between the sleeper (which never answers its decision) and random-python,
    once the arena and both bots run. Unsandboxed: the bots inherit the environment that marks
    this session's processes (tests/sandbox has the sandboxed equivalents)."""
    sleeper = ROOT / "tests" / "bots" / "sleeper"
    command = [str(ARENA), "match", "--game", "oregon", str(sleeper),
               str(SAMPLE_BOTS / "random-python"), "--move-time", "600", "--sandbox", "none"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 60
    while len(bot_processes()) < 3 and time.monotonic() < deadline:  # the arena and two bots
        time.sleep(0.1)
    assert len(bot_processes()) == 3, bot_processes()
    return process


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_stops_arena_match_and_its_bots(stop):
    process = start_match_with_a_hanging_bot()
    time.sleep(1.0)  # let the game reach the sleeper's hanging decision
    process.send_signal(stop)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stderr == "error: interrupted; the game was abandoned and its bots stopped\n"


def test_bots_die_with_the_arena_even_when_it_is_killed():
    """SIGKILL leaves the arena no chance to stop its bots: the kernel does (parent-death
    signal), so no bot outlives a killed tournament or match."""
    process = start_match_with_a_hanging_bot()
    process.kill()
    process.communicate(timeout=10)
    deadline = time.monotonic() + 10
    while bot_processes() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert bot_processes() == []
