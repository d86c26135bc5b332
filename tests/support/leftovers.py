"""The fixture that holds a test to leaving nothing behind: no bot process (grandchildren
included) and no client thread outlives it. Directories whose tests start bots import it into
their conftest.py."""

from __future__ import annotations

import threading
import time

import pytest

from tests.support.processes import bot_processes


def _our_threads(before: set[threading.Thread]) -> list[str]:
    # Trio's idle worker-thread cache (used by trio.run_process) is trio's, not a leak of ours;
    # the stall guard's watcher is one per process (it ends once idle: arena.referee.stall_guard).
    return [
        t.name
        for t in threading.enumerate()
        if t not in before
        and t.is_alive()
        and not t.name.startswith(("Trio thread", "arena-stall-guard"))
    ]


@pytest.fixture(autouse=True)
def nothing_left_behind():
    """After each test: no bot process (including grandchildren) and no new thread remains."""
    assert not bot_processes(), "bot processes were running before the test"
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 5.0  # exiting threads and reaped processes need a moment
    while (bot_processes() or _our_threads(before)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not bot_processes(), f"bot processes left behind: {bot_processes()}"
    assert not _our_threads(before), f"threads left behind: {_our_threads(before)}"
