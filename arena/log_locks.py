"""Which kept logs are being written: each sink holds a shared ``flock(2)`` on its log from
creating it until it closes (or its process dies: the kernel drops the lock), and a log is
removed only under a non-blocking exclusive one, so no process's live log is ever removed, be
it to make room within a bot's quota (``arena.referee.log_sink``) or by retention (``arena logs
prune``, a ladder's own). A lock, not a list of live processes or the file's age: it is right
across every arena process on the machine (``--workers``), for a kept-up bot's log idle between
games, and after a crash, without anything to clean up. On a file system without ``flock``
neither lock is taken, and every log counts as not written.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

_PROBE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def hold_while_written(fd: int) -> None:
    """Mark the log open as ``fd`` as written until ``fd`` is closed."""
    with contextlib.suppress(OSError):
        fcntl.flock(fd, fcntl.LOCK_SH)


def remove_unless_written(path: Path) -> int | None:
    """Remove the log ``path`` unless a process is writing it: the bytes freed (0 if it was
    gone, or a link planted there), None if it is being written (and so kept)."""
    try:
        fd = os.open(path, _PROBE)
    except OSError:
        return 0
    try:
        size = os.fstat(fd).st_size
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return None
    except OSError:
        return 0
    try:
        os.unlink(path)
        return size
    except OSError:
        return 0
    finally:
        os.close(fd)


def being_written(path: Path) -> bool:
    """Whether a process is writing the log ``path`` now (a probe: nothing is removed)."""
    try:
        fd = os.open(path, _PROBE)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # drops the probe's lock
    return False
