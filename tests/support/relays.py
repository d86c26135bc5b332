"""The frame filters (``arena.sandbox.relay``) this process started and that run now."""

from __future__ import annotations

import os
from pathlib import Path

import arena.sandbox.relay as relay_module

_RELAY = str(Path(relay_module.__file__)).encode()


def running_relays() -> dict[str, list[bytes]]:
    """Each relay child of this process: its pid -> its argv (``python -I -S relay.py FD UPSTREAM``;
    matched exactly: a wrapper's shell has the same words in another order)."""
    found = {}
    for pid in os.listdir("/proc"):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            continue
        if parent == os.getpid() and argv[1:4] == [b"-I", b"-S", _RELAY]:
            found[pid] = argv
    return found
