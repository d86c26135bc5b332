"""A real ``arena submissions work`` stopped by Ctrl-C or SIGTERM while an upload's games are
played (its validation): the upload goes back to the queue, the stop is not counted as an
attempt, the worker says "stopped" and exits 130 (docs/hosting.md). The interrupt came out of
the validation's trio run wrapped in an exception group: the worker's ``except
KeyboardInterrupt`` missed it, the upload stayed "validating" with the attempt counted, and
three such stops failed a good upload (outside review, M1)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from arena.sandbox import SandboxPolicy
from arena.submissions import worker
from arena.submissions.worker import WorkerSettings, work_once
from arena.uploads.pack import pack
from tests.hosting.test_worker import RANDOM_BOT, Host, bot_dir
from tests.test_stop_signals import stopped_twice
from tests.tournament.helpers import ROOT, query

MARK = "starting now"
# The random sample bot, slow to start and saying so on stderr (its log): a game of the
# validation waits for it with the worker's trio run in a nursery, where the interrupt came out
# wrapped in an exception group every time. (Stopped while its games wait for a bot's reply,
# the interrupt mostly came out bare, and was handled.)
SLOW_TO_START = RANDOM_BOT.replace(
    'if __name__ == "__main__":',
    'if __name__ == "__main__":\n    import sys, time\n\n'
    f"    print({MARK!r}, file=sys.stderr, flush=True)\n    time.sleep(2)",
)


def start_worker(db: Path) -> subprocess.Popen[str]:
    """``arena submissions work`` by the command's own entry point (``arena.launcher``)."""
    return subprocess.Popen(
        [sys.executable, "-c", "from arena.launcher import main; main()"]
        + ["submissions", "work", "--sandbox", "none", "--move-time", "5", "--db", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_a_game(host: Host, submission: int, process: subprocess.Popen[str]) -> None:
    """Until the upload is validating and its bot starts for a game (the validation's trio run
    is under way): its log in a game's directory (the process check's is above them) has
    ``MARK``."""
    logs = host.files.work / str(submission) / "validation-logs"
    deadline = time.monotonic() + 300
    while not any(MARK in log.read_text(errors="replace") for log in logs.glob("*/*.log")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no game of the validation started"
        time.sleep(0.05)
    assert query(host.db_path, "SELECT state FROM submission") == [("validating",)]


@pytest.fixture
def host(tmp_path: Path):
    host = Host(tmp_path / "hosted.db")
    yield host
    host.database.close()


def test_an_interrupt_in_trios_group_puts_the_upload_back(host: Host, tmp_path: Path, monkeypatch):
    """In this process: the validation raises the interrupt as trio does from a nursery."""

    def stopped(*_args, **_kwargs):
        raise BaseExceptionGroup("Exceptions from Trio nursery", [KeyboardInterrupt()])

    submission = host.queue("alice", "patient", pack(bot_dir(tmp_path, "patient")))
    monkeypatch.setattr(worker, "_validate", stopped)
    with pytest.raises(KeyboardInterrupt):  # bare: the command says "stopped"
        work_once(host.database, host.files, WorkerSettings(SandboxPolicy(tool="none")))
    assert query(host.db_path, "SELECT state, attempts FROM submission") == [("queued", 0)]
    assert host.view(submission).state == "queued"


@pytest.mark.slow  # real worker processes and bots
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
@pytest.mark.parametrize("repeat", [None, 0.0, 0.1], ids=["once", "twice", "twice-0.1s-apart"])
def test_a_worker_stopped_during_validation_puts_the_upload_back_unchanged(
    host: Host, tmp_path: Path, signum: int, repeat: float | None
):
    """Stopped once, or twice (an impatient operator, a service manager): a repeat waits for the
    orderly stop (``arena.stopping``), which requeues the upload, and the exit code is 130 (it
    was 143 or -2, a repeat killing the worker as it exited)."""
    archive = pack(bot_dir(tmp_path, "patient", bot_py=SLOW_TO_START))
    submission = host.queue("alice", "patient", archive)
    process = start_worker(host.db_path)
    try:
        wait_for_a_game(host, submission, process)
    except BaseException:
        process.kill()
        process.communicate()
        raise
    err = stopped_twice(process, signum, repeat)
    assert process.returncode == 130, err
    assert err.splitlines()[-1] == "arena submissions work: stopped", err
    assert "Traceback" not in err and "error" not in err, err
    # back in the queue, its attempts as before it was taken
    assert query(host.db_path, "SELECT state, attempts FROM submission") == [("queued", 0)]
