"""Where the arena calls a sandboxed bot: not the path in the bot's own socket directory, which
the bot controls (it could put a link to another socket of the machine there), but a hard link
to the socket the bot made, in the match's directory, which no bot can see.

The link is made once the bot's socket exists and is checked to be a socket (not a symbolic
link): from then on the arena calls that inode, whatever the bot does to its own directory.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotASocketError(Exception):
    """The bot put something other than a socket at its address; one line."""


def link_socket(socket_path: Path, link_path: Path) -> None:
    """Hard-link the bot's socket at ``link_path`` (replacing an older link) and check that what
    was linked is a socket. Raises NotASocketError, or OSError if it cannot be linked."""
    link_path.unlink(missing_ok=True)
    os.link(socket_path, link_path, follow_symlinks=False)  # a symlink is linked, not followed
    if not stat.S_ISSOCK(os.lstat(link_path).st_mode):
        link_path.unlink()
        raise NotASocketError(f"its address {socket_path} is not a socket")
