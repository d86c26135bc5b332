"""Bot processes are tied to the arena: the kernel kills them when the thread that started them
ends, so they are started from trio's own thread and never from one of its worker threads."""

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
import trio

from arena.referee import child
from arena.referee.botprocess import connect, run_bot
from tests.support.bots import sample_bot

pytestmark = pytest.mark.slow  # real child processes


async def test_wait_returns_the_exit_code_and_can_be_cancelled():
    assert await child.start_tied(["sh", "-c", "exit 3"]).wait() == 3
    sleeper = child.start_tied(["sleep", "60"])
    with trio.move_on_after(0.1):
        await sleeper.wait()
    assert sleeper.poll() is None
    os.kill(sleeper.pid, signal.SIGKILL)
    assert await sleeper.wait() == -signal.SIGKILL
    assert sleeper.returncode == -signal.SIGKILL


def _running(process: child.ChildProcess, program: str) -> bool:
    """True once ``process`` runs ``program`` (setpriv has set the parent-death signal by then)."""
    cmdline = Path(f"/proc/{process.pid}/cmdline").read_bytes()
    return cmdline.split(b"\0")[0].endswith(program.encode())


def test_a_child_dies_with_the_thread_that_started_it():
    started = []

    def start_and_end() -> None:
        started.append(child.start_tied(["sleep", "60"]))
        while not _running(started[0], "sleep"):
            time.sleep(0.005)

    starter = threading.Thread(target=start_and_end)
    starter.start()
    starter.join()
    deadline = time.monotonic() + 5
    while started[0].poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert started[0].poll() == -signal.SIGKILL


def test_a_child_whose_arena_is_already_gone_never_runs(tmp_path):
    """The arena can die after starting a bot but before setpriv's parent-death request: the
    kernel would then never kill it. Such a child sees its parent is not the arena and exits
    without running the bot (a parent pid that is not ours stands for the dead arena)."""
    ran = tmp_path / "ran"
    orphan = subprocess.run(
        child.tied_to_parent(["touch", str(ran)], parent=os.getppid()), timeout=10
    )
    assert orphan.returncode == 125 and not ran.exists()
    ours = subprocess.run(child.tied_to_parent(["touch", str(ran)]), timeout=10)
    assert ours.returncode == 0 and ran.exists()


async def test_a_bot_outlives_trios_worker_threads(tmp_path, monkeypatch):
    # trio ends a worker thread after IDLE_TIMEOUT idle seconds (10 s); a bot started from one of
    # them (as trio.lowlevel.open_process does) would be killed then, in the middle of its game.
    monkeypatch.setattr(trio._core._thread_cache, "IDLE_TIMEOUT", 0.05)
    async with run_bot(sample_bot("random-python"), 0, 1, tmp_path) as bot:
        worker = await trio.to_thread.run_sync(threading.current_thread)
        await _until_gone(worker)
        client, _ = await connect(bot, "oregon", timeout=10.0)
        client.close()
        assert bot.process.poll() is None


async def _until_gone(thread: threading.Thread) -> None:
    """Until the kernel has ended ``thread`` (so a child tied to it would have been signalled);
    Python's own view ends a moment earlier, hence the /proc check."""
    task = Path(f"/proc/self/task/{thread.native_id}")
    with trio.fail_after(60):
        while thread.is_alive() or task.exists():
            await trio.sleep(0.01)
