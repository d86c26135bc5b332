"""The same seed with the same seeded bots gives the same game, through play_match and through
the ``arena match`` command; Ctrl-C or SIGTERM stops the command and its bots, and even a killed
arena leaves no bot behind."""

import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from arena.referee.match import play_match
from tests.support.bots import ROOT, SAMPLE_BOTS, sample_bot
from tests.support.node import requires_node
from tests.support.processes import bot_processes
from tests.support.signals import popen_with_sigint

pytestmark = pytest.mark.slow  # real bot processes and CLI processes

ARENA = Path(sys.executable).parent / "arena"


def _start_interruptible(command: list[str]) -> subprocess.Popen[str]:
    """``command`` started as from a terminal, where Ctrl-C reaches it: a shell's background
    job (as a CI runner may start the tests) ignores SIGINT, and a child inherits that."""
    return popen_with_sigint(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


@requires_node
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


@requires_node
def test_arena_match_command_is_deterministic_for_a_fixed_seed():
    command = [
        str(ARENA),
        "match",
        "--game",
        "oregon",
        str(SAMPLE_BOTS / "random-python"),
        str(SAMPLE_BOTS / "random-node"),
        "--seed",
        "4242",
        "--no-store",
    ]
    runs = [
        subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
        for _ in range(2)
    ]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "seed 4242" in run.stdout
    assert len(result_rows(runs[0].stdout)) == 2
    assert result_rows(runs[0].stdout) == result_rows(runs[1].stdout)


def start_match_with_a_hanging_bot(logs: Path) -> subprocess.Popen:
    """``arena match`` between the sleeper (which never answers its decision) and random-python,
    once the arena and both bots run; the bots' logs go to ``logs``. Unsandboxed: the bots inherit
    the environment that marks this session's processes (tests/sandbox has the sandboxed
    equivalents)."""
    sleeper = ROOT / "tests" / "bots" / "sleeper"
    command = [
        str(ARENA),
        "match",
        "--game",
        "oregon",
        str(sleeper),
        str(SAMPLE_BOTS / "random-python"),
        "--move-time",
        "600",
        "--sandbox",
        "none",
        "--bot-logs",
        str(logs),
        "--no-store",
    ]  # not in the checkout's arena.db
    process = _start_interruptible(command)
    deadline = time.monotonic() + 60
    while len(bot_processes()) < 3 and time.monotonic() < deadline:  # the arena and two bots
        time.sleep(0.1)
    assert len(bot_processes()) == 3, bot_processes()
    return process


def wait_until_the_sleeper_hangs(logs: Path, process: subprocess.Popen) -> None:
    """Until the sleeper says (in its log) that it hangs in a decision: the game is under way."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        # The log is named SEED-seat0-sleeper-TIME.log, with the match's random seed.
        if any(
            "misbehave: hanging on purpose" in log.read_text()
            for log in logs.glob("*-seat0-sleeper-*.log")
        ):
            return
        time.sleep(0.05)
    raise AssertionError("the sleeper never reached its hanging decision")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_stops_arena_match_and_its_bots(stop, tmp_path):
    process = start_match_with_a_hanging_bot(tmp_path)
    try:
        wait_until_the_sleeper_hangs(tmp_path, process)
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=30)
    finally:  # a failure must not leave the match (and its bots, tied to it) to later tests
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130
    assert stderr == "error: interrupted; the game was abandoned and its bots stopped\n"


def test_bots_die_with_the_arena_even_when_it_is_killed(tmp_path):
    """SIGKILL leaves the arena no chance to stop its bots: the kernel does (parent-death
    signal), so no bot outlives a killed tournament or match."""
    process = start_match_with_a_hanging_bot(tmp_path)
    process.kill()
    process.communicate(timeout=10)
    deadline = time.monotonic() + 10
    while bot_processes() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert bot_processes() == []


def test_ctrl_c_stops_arena_validate_with_one_line():
    """Ctrl-C inside a command's games (here `arena validate`'s) reached the user as trio's
    exception group: a traceback and exit code 1. It is one line and 130, as for `arena match`."""
    command = [str(ARENA), "validate", str(SAMPLE_BOTS / "random-python"), "--game", "oregon"]
    # unsandboxed: a sandboxed bot's scrubbed environment hides it from bot_processes()
    process = _start_interruptible([*command, "--sandbox", "none"])
    try:
        deadline = time.monotonic() + 60
        while len(bot_processes()) < 2 and time.monotonic() < deadline:  # the arena and a bot
            time.sleep(0.1)
        time.sleep(0.5)  # playing its games now (they take well over 10 s)
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 130, stderr
    assert stderr.splitlines()[-1:] == ["error: interrupted"], stderr
    assert "Traceback" not in stderr


# Ctrl-C while the command is still importing its modules: the import of arena.cli is interrupted.
INTERRUPTED_IMPORT = """
import sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == "arena.cli":
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
from arena.launcher import main
main()
"""


# SIGTERM at the same moment (a supervisor stopping the arena just as it starts).
TERMINATED_IMPORT = INTERRUPTED_IMPORT.replace(
    "raise KeyboardInterrupt",
    "import os, signal; os.kill(os.getpid(), signal.SIGTERM)",
)


@pytest.mark.parametrize("script", [INTERRUPTED_IMPORT, TERMINATED_IMPORT], ids=["int", "term"])
def test_ctrl_c_or_sigterm_while_the_command_starts_is_one_line_and_exit_130(script: str):
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (130, "error: interrupted\n")


def test_the_arena_command_starts_through_the_launcher():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["arena"] == "arena.launcher:main"


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_service_stopped_as_usual_says_so_plainly(tmp_path: Path, stop: signal.Signals):
    """Ctrl-C or SIGTERM is how `arena serve` ends: it said "error: interrupted"."""
    db = tmp_path / "arena.db"
    open_db = subprocess.run(
        [str(ARENA), "submit", str(SAMPLE_BOTS / "random-python"), "--db", str(db)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert open_db.returncode == 0, open_db.stderr
    process = _start_interruptible([str(ARENA), "serve", "--port", "0", "--db", str(db)])
    try:
        assert process.stdout is not None
        address = process.stdout.readline().split(" at ")[1].split()[0]
        deadline = time.monotonic() + 30
        while True:  # answering: a user stops it once it serves
            try:
                with urllib.request.urlopen(address, timeout=5) as page:
                    assert page.status == 200
                break
            except OSError:
                assert time.monotonic() < deadline, "arena serve never answered"
                time.sleep(0.1)
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert (process.returncode, stderr) == (130, "arena serve: stopped\n")
