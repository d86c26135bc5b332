"""Where the arena calls a sandboxed bot: the socket the bot made in its sandbox's own socket
directory (a tmpfs no other process sees), reached through the sandbox's root
(``/proc/INIT/root``), opened once without following links and checked to be a socket.

From then on the arena calls that inode through its open descriptor, whatever the bot later
does to its directory: the arena's client connects to a link in the match's directory (where no
bot can reach) to ``/proc/ARENA/fd/N``. A bot that leaves a link to another socket of the
machine at its address is refused, since the link is not followed (it would resolve in the
arena's view, not the bot's).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from arena.sandbox.bwrap import SOCKET_DIR, SOCKET_NAME


class NotASocketError(Exception):
    """The bot put something other than a socket at its address; one line."""


def sandbox_address() -> str:
    """The address a sandboxed bot listens on, inside its sandbox."""
    return f"unix:{SOCKET_DIR}/{SOCKET_NAME}"


def open_socket(init_pid: int) -> int:
    """An ``O_PATH`` descriptor on the socket of the sandbox whose init is ``init_pid``.
    Raises FileNotFoundError while it does not exist yet, NotASocketError if the bot put
    anything else there, OSError if the sandbox is gone."""
    path = f"/proc/{init_pid}/root{SOCKET_DIR}/{SOCKET_NAME}"
    fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
    if not stat.S_ISSOCK(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotASocketError(f"its address {SOCKET_DIR}/{SOCKET_NAME} is not a socket")
    return fd


def link_socket(fd: int, link: Path) -> None:
    """Make ``link`` (where the arena's client connects) lead to the socket open as ``fd``."""
    link.unlink(missing_ok=True)
    os.symlink(f"/proc/{os.getpid()}/fd/{fd}", link)
