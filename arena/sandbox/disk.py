"""A watch on what a sandboxed bot keeps on disk.

The sandbox leaves a bot one writable directory on the host's disk, its socket directory
(``arena.sandbox.bwrap``). The file-size limit bounds each file, not how many: a bot could fill
the disk the database lives on. No unprivileged quota exists for one directory, so a thread
measures it twice a second and kills the bot (``kill``) once it holds more than the budget
(bytes allocated, so sparse files count as what they cost, or too many entries); the referee
then reports the bot's end with ``DiskWatch.limit_hit``. A thread, not a trio task: a bot that
stays up is started in one game's task and stopped in another's.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

POLL_SECONDS = 0.5
MAX_ENTRIES = 10_000  # files and directories: inodes are a resource too, and walking costs


def disk_use(directory: Path, max_entries: int = MAX_ENTRIES) -> tuple[int, int]:
    """(bytes allocated, entries) under ``directory``, links not followed; the count stops
    past ``max_entries``."""
    used = entries = 0
    pending = [directory]
    while pending and entries <= max_entries:
        try:
            with os.scandir(pending.pop()) as scan:
                for entry in scan:
                    entries += 1
                    if entries > max_entries:
                        break
                    try:
                        stat = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue  # removed meanwhile
                    used += stat.st_blocks * 512
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(Path(entry.path))
        except OSError:
            continue
    return used, entries


class DiskWatch:
    """Calls ``kill`` (once) when ``directory`` holds more than ``budget_mib``."""

    def __init__(self, directory: Path, kill: Callable[[], None], budget_mib: int) -> None:
        self.directory = directory
        self.kill = kill
        self.budget_mib = budget_mib
        self.exceeded = ""  # what was found, once the bot was killed for it
        self._stopped = threading.Event()
        self._thread = threading.Thread(
            target=self._watch, name=f"arena-disk-watch {directory.name}", daemon=True
        )
        self._thread.start()

    def _watch(self) -> None:
        while not self._stopped.wait(POLL_SECONDS):
            used, entries = disk_use(self.directory)
            if used > self.budget_mib << 20 or entries > MAX_ENTRIES:
                self.exceeded = (
                    f"{used >> 20} MiB" if entries <= MAX_ENTRIES else f"over {MAX_ENTRIES} files"
                )
                self.kill()
                return

    def limit_hit(self) -> str:
        """The limit the bot was killed for, or ""."""
        if not self.exceeded:
            return ""
        return (
            f"it kept {self.exceeded} in its writable directory, over the "
            f"{self.budget_mib} MiB / {MAX_ENTRIES} files disk limit"
        )

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()
