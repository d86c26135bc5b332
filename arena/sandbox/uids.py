"""Host uids for sandboxes run by root: one of its own for every live sandbox on the host.

As root a bot runs as an unprivileged host uid (``bwrap``'s ``setpriv`` drop). Processes of one
uid share the kernel's per-user counts (inotify instances and watches, pipe buffer pages,
message queue bytes, the process count of ``RLIMIT_NPROC``), so two sandboxes of one uid could
starve each other: a hostile bot exhausting its uid's inotify instances would break an opponent
in another game, or a build, that happened to run as the same uid. So a sandbox leases a uid
that no other live sandbox on the host holds, across every arena process (a ladder, ``arena
serve``'s upload worker, a tournament's ``--workers``): a lease is an exclusive ``flock`` on a
file named by the uid's offset, in a directory only root may write. The kernel drops the lock
when its holder closes it or dies (``kill -9`` included), and a sandbox dies with its arena
(``--die-with-parent``), so a dead arena's uids are free again with no clean-up.

A uid is reused only after its sandbox has ended: its PID namespace is gone, so no process of
the uid is left (the kernel kills a namespace's processes with its init), and a sandbox's
writable places are tmpfs that go with it. A build's copy, owned by the build's uid, is
removed by the arena after the build.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import tempfile
import threading
from pathlib import Path

from arena.errors import SetupError

HOST_UID_BASE = 2_000_000_000
# How many uids the leases use: HOST_UID_BASE to HOST_UID_BASE + UID_SLOTS - 1. More than the
# sandboxes a host can run at once, below 2**31 for tools that read uids as signed.
UID_SLOTS = 65_536
_RUN_DIR = Path("/run/arena-uids")  # a tmpfs where systems have one: empty after a reboot


class UidLeaseError(SetupError):
    """No directory for the leases could be made safely, or every uid is taken."""


class UidLease:
    """A host uid held for one sandbox until ``release`` (idempotent)."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd: int | None = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # the lock goes with the descriptor

    def __repr__(self) -> str:
        return f"UidLease({self.uid}, {'held' if self._fd is not None else 'released'})"


_lock = threading.Lock()  # one lease at a time in this process: the probe is not atomic
_next = 0  # where this process probes first: after its last lease, so uids go round


def lease_host_uid() -> UidLease:
    """A host uid no other live sandbox holds (see the module's docstring). Raises
    UidLeaseError when every one is taken or the leases' directory is not safe to use."""
    global _next
    directory = _lease_dir()
    with _lock:
        for step in range(UID_SLOTS):
            offset = (_next + step) % UID_SLOTS
            fd = _try_lock(directory / str(offset))
            if fd is not None:
                _next = (offset + 1) % UID_SLOTS
                return UidLease(HOST_UID_BASE + offset, fd)
    raise UidLeaseError(f"all {UID_SLOTS} sandbox uids are in use: too many bots at once")


def _try_lock(path: Path) -> int | None:
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(path, flags, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return None
        raise
    return fd


def _lease_dir() -> Path:
    """``/run/arena-uids``, else the same in the temp directory: made 0700 by root, and used
    only if it is a real directory owned by root that nobody else may write (a local user who
    made it first could otherwise hold every lease, or swap its files)."""
    for directory in (_RUN_DIR, Path(tempfile.gettempdir()) / "arena-uids"):
        try:
            directory.mkdir(mode=0o700, exist_ok=True)
        except OSError:
            continue
        info = os.lstat(directory)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0 or info.st_mode & 0o022:
            raise UidLeaseError(
                f"{directory} is not a directory of root's that only root may write: remove "
                "it (the arena makes it again) and run again"
            )
        return directory
    raise UidLeaseError(f"cannot make {_RUN_DIR} or a directory for sandbox uids in the temp dir")
