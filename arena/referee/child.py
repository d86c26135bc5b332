"""Child processes that cannot outlive the arena.

A bot runs in a session of its own (so that stopping it stops everything it started), which also
means nothing stops it if the arena dies without cleaning up: a SIGKILL, a SIGTERM, a crash. So a
bot is started under util-linux ``setpriv --pdeathsig KILL``, which asks the kernel to kill it when
its parent dies and then execs the bot (same process). The kernel's "parent" is the *thread* that
started the child, so the child is started from the calling (trio) thread itself, which lives as
long as the arena's event loop: ``trio.lowlevel.open_process`` would start it from a worker thread
that trio's thread cache ends after 10 idle seconds, killing the bot mid-game. An arena that dies
in the moment between starting a bot and setpriv's request cannot have the kernel kill the bot
any more, so after the request a shell checks that its parent is still the arena before it execs
the bot (a Ray node killed while its bots were starting left such bots behind).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from typing import Any

import trio

# How often to look at a child without a pidfd (Linux before 5.3) while waiting for it to exit.
_POLL_SECONDS = 0.01


@functools.cache
def _setpriv() -> str | None:
    return shutil.which("setpriv")


# Run by /bin/sh with $0 = the arena's pid: exec the bot only if the arena is still its parent
# (else the arena died before setpriv's request, and the kernel will never kill this bot).
_EXEC_IF_PARENT_ALIVE = '[ "$PPID" = "$0" ] || exit 125; exec "$@"'


def tied_to_parent(argv: list[str], parent: int | None = None) -> list[str]:
    """``argv`` run so that the kernel kills it when the thread that starts it ends, and not at
    all if its parent (this process, unless ``parent`` says otherwise) is already gone by then
    (unchanged without ``setpriv``: then only an orderly exit of the arena stops bots)."""
    setpriv = _setpriv()
    if setpriv is None:
        return argv
    pid = os.getpid() if parent is None else parent
    return [
        setpriv,
        "--pdeathsig",
        "KILL",
        "--",
        "/bin/sh",
        "-c",
        _EXEC_IF_PARENT_ALIVE,
        str(pid),
    ] + argv


class ChildProcess:
    """A started child: the part of ``trio.Process`` the arena uses (pid, poll, returncode and an
    awaitable, cancellable ``wait``)."""

    def __init__(self, popen: subprocess.Popen) -> None:
        self._popen = popen
        self.pid = popen.pid

    @property
    def returncode(self) -> int | None:
        return self._popen.returncode

    def poll(self) -> int | None:
        return self._popen.poll()

    async def wait(self) -> int:
        """Wait until the child exits and reap it; its exit code (negative: killed by a signal)."""
        if self._popen.poll() is None:
            try:
                exited = os.pidfd_open(self.pid)  # readable once the child has exited
            except (AttributeError, OSError):
                while self._popen.poll() is None:
                    await trio.sleep(_POLL_SECONDS)
            else:
                try:
                    await trio.lowlevel.wait_readable(exited)
                finally:
                    os.close(exited)
        return self._popen.wait()


def start_tied(argv: list[str], **popen_options: Any) -> ChildProcess:
    """Start ``argv`` from this thread, tied to it (see the module's docstring). Raises OSError if
    it cannot be started. Blocks for the fork and exec only: a few milliseconds."""
    return ChildProcess(subprocess.Popen(tied_to_parent(argv), **popen_options))
