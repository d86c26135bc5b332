"""Bounded retention of the bots' kept logs (``arena logs prune``): the operator removes the logs
older than an age, then the oldest ones until the directory fits a size budget; never a log
that a process is writing (``arena.log_locks``).

Only regular ``*.log`` files right in the directory are counted and removed (a link or a
subdirectory, such as ``arena validate``'s per-game folders, is left alone). Age is the time of
a file's last write: a kept-up bot's log is written game after game, so it stays while the bot
plays. A stored game whose log was removed keeps its ``seat_log`` row; its download then says the
log is kept no more (410). No name is given twice (``arena.referee.log_sink``), so a removed log's
name never comes back holding another game's bytes.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import trio

from arena.log_locks import being_written, remove_unless_written

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class KeptLog:
    name: str
    size: int
    modified: float  # seconds since the epoch


@dataclass
class Pruned:
    """What ``prune`` removed (or would remove, on a dry run) and what it kept."""

    removed: list[KeptLog] = field(default_factory=list)
    kept: list[KeptLog] = field(default_factory=list)
    in_use: list[KeptLog] = field(default_factory=list)  # kept, though due: being written

    @property
    def removed_bytes(self) -> int:
        return sum(log.size for log in self.removed)

    @property
    def kept_bytes(self) -> int:
        return sum(log.size for log in self.kept)


def kept_logs(directory: Path) -> list[KeptLog]:
    """The logs in ``directory``, oldest first."""
    found = []
    with os.scandir(directory) as entries:
        for entry in entries:
            if entry.name.endswith(".log") and entry.is_file(follow_symlinks=False):
                status = entry.stat(follow_symlinks=False)
                found.append(KeptLog(entry.name, status.st_size, status.st_mtime))
    return sorted(found, key=lambda log: (log.modified, log.name))


def prune(
    directory: Path,
    *,
    older_than: float | None = None,
    max_bytes: int | None = None,
    now: float | None = None,
    dry_run: bool = False,
) -> Pruned:
    """Remove the logs last written more than ``older_than`` seconds ago, then the oldest until
    the rest hold at most ``max_bytes``. A log that a process is writing is kept (``in_use``):
    a kept-up bot's log, idle between its games, is still its log. A log that vanishes meanwhile
    (another prune) counts as removed."""
    now = time.time() if now is None else now
    logs = kept_logs(directory)
    total = sum(log.size for log in logs)
    pruned = Pruned()
    for log in logs:
        too_old = older_than is not None and log.modified < now - older_than
        if too_old or (max_bytes is not None and total > max_bytes):
            path = directory / log.name
            written = being_written(path) if dry_run else remove_unless_written(path) is None
            if written:
                pruned.kept.append(log)
                pruned.in_use.append(log)
                continue
            pruned.removed.append(log)
            total -= log.size
        else:
            pruned.kept.append(log)
    return pruned


@dataclass(frozen=True)
class Retention:
    """How long and how much a running ladder keeps of its bots' logs (None: no bound)."""

    older_than: float | None = None  # seconds
    max_bytes: int | None = None

    def __bool__(self) -> bool:
        return self.older_than is not None or self.max_bytes is not None


async def keep_pruned(directory: Path, retention: Retention, every: float = 60.0) -> None:
    """Prune ``directory`` now and every ``every`` seconds until cancelled (a ladder's own
    retention, so a ladder left running does not fill the disk with logs). A failed prune (the
    directory gone, a permission) is logged and tried again next time, never the ladder's end."""
    while True:
        try:
            pruned = await trio.to_thread.run_sync(
                lambda: prune(
                    directory, older_than=retention.older_than, max_bytes=retention.max_bytes
                )
            )
        except OSError as exc:
            log.warning("pruning the bot logs in %s failed: %s", directory, exc)
        else:
            if pruned.removed:
                log.info(
                    "pruned %d bot logs (%d bytes) from %s",
                    len(pruned.removed),
                    pruned.removed_bytes,
                    directory,
                )
        await trio.sleep(every)
