"""Helpers for the referee's tests: bot specs, and a check that no
bot process and no client thread outlives a test."""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
from pathlib import Path

import pytest

from arena.manifest import BotSpec, load_manifest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_BOTS = ROOT / "sample_bots"
TEST_BOTS = ROOT / "tests" / "bots"
# Bots inherit the arena's environment, and their children inherit theirs: this marks every
# process this test session starts (other people may run bots on the same machine).
SESSION_MARKER = f"ARENA_TEST_SESSION={os.getpid()}-{uuid.uuid4().hex}".encode()
os.environ["ARENA_TEST_SESSION"] = SESSION_MARKER.decode().split("=", 1)[1]


def sample_bot(name: str) -> BotSpec:
    if name == "random-node" and (shutil.which("node") is None
                                  or not (SAMPLE_BOTS / name / "node_modules").is_dir()
                                  or not (ROOT / "sdk" / "node" / "node_modules").is_dir()):
        pytest.skip("Node.js, or the node_modules of the random-node bot or of the Node SDK it "
                    "uses, missing (run scripts/setup)")
    return load_manifest(SAMPLE_BOTS / name)


def misbehaving_bot(name: str) -> BotSpec:
    return load_manifest(TEST_BOTS / name)


def bot_processes() -> list[str]:
    """Live processes started by this test session (bots, anything they started, CLI runs)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            marked = SESSION_MARKER in (proc / "environ").read_bytes().split(b"\0")
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state, parent = (proc / "stat").read_text().rsplit(")", 1)[1].split()[:2]
        except OSError:
            continue  # gone meanwhile, or not ours to read
        # multiprocessing's resource tracker (started by tests that spawn processes) lives as
        # long as this session by design.
        if "multiprocessing.resource_tracker" in cmdline:
            continue
        # A zombie is dead; only one of ours that we failed to reap counts.
        if marked and (state != "Z" or int(parent) == os.getpid()):
            found.append(f"{proc.name}: {cmdline.strip()}")
    return found


def _our_threads(before: set[threading.Thread]) -> list[str]:
    # Trio's idle worker-thread cache (used by trio.run_process) is trio's, not a leak of ours.
    return [t.name for t in threading.enumerate()
            if t not in before and t.is_alive() and not t.name.startswith("Trio thread")]


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
