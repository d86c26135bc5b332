"""Which live processes this test session started: every bot (and anything it starts) inherits
a marker in its environment, set when this module is first imported (by tests/support/leftovers.py,
before any test runs)."""

from __future__ import annotations

import os
import uuid
from multiprocessing import resource_tracker
from pathlib import Path

# multiprocessing's resource tracker lives as long as this Python process: started now, before
# the marker below, it is not counted as a process the tests left behind.
resource_tracker.ensure_running()

# Bots inherit the arena's environment, and their children inherit theirs: this marks every
# process this test session starts (other people may run bots on the same machine).
SESSION_VARIABLE = "ARENA_TEST_SESSION"
SESSION_MARKER = f"{SESSION_VARIABLE}={os.getpid()}-{uuid.uuid4().hex}".encode()
os.environ[SESSION_VARIABLE] = SESSION_MARKER.decode().split("=", 1)[1]


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
        # A zombie is dead; only one of ours that we failed to reap counts.
        if marked and (state != "Z" or int(parent) == os.getpid()):
            found.append(f"{proc.name}: {cmdline.strip()}")
    return found
