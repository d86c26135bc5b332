"""Starting a command with a given SIGINT disposition, without ``preexec_fn``.

A ``preexec_fn`` makes Python fork instead of vfork, and a process with gRPC channels in use
(the test process, after in-process games) then runs gRPC's fork handlers: its poller, restarted
in the child, met the descriptors that Popen closes before exec and aborted the child (SIGABRT,
"Epoll1Poller encountered epoll_wait error: Bad file descriptor"; grpc/grpc#43055). Instead the
disposition is set in this process for the instant of the start: a child keeps an ignored signal
across exec, and a caught one is default there."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def popen_with_sigint(
    argv: list[str], sigint: signal.Handlers = signal.SIG_DFL, **options: Any
) -> subprocess.Popen:
    """``subprocess.Popen(argv, **options)`` whose process starts with SIGINT ``sigint``
    (SIG_DFL: as from a terminal, even if these tests run as a shell's background job, which
    ignores it; SIG_IGN: as such a job)."""
    previous = signal.signal(signal.SIGINT, sigint)
    try:
        return subprocess.Popen(argv, **options)
    finally:
        signal.signal(signal.SIGINT, previous)
