"""The directories a Ray actor keeps in its node's shared temp directory (the shipped bots' cache,
their logs, the claims on cores): this user's own, or refused.

A well-known name in /tmp can be taken first by anyone on the machine. A cache directory made by
another user would hand this user's actors whatever bot it holds under an archive's digest, and a
logs or claims directory of theirs could be swapped for links under the actor. So a directory
that is a link, belongs to another user or may be written by others is never used: the actor
reports one line saying which (``SetupError``), and the operator removes it or sets TMPDIR.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from arena.errors import SetupError


def node_directory(name: str, mode: int) -> Path:
    """``name`` in the temp directory, made with ``mode`` if missing; SetupError unless it is a
    real directory of this user that only this user may write."""
    return own_directory(Path(tempfile.gettempdir()) / name, mode)


def own_directory(path: Path, mode: int) -> Path:
    """``path``, made with ``mode`` (and its parents) if missing, checked as ``node_directory``
    says."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(path, mode)
        os.chmod(path, mode)  # not narrowed by the umask: a sandboxed bot may need to read it
    except FileExistsError:
        pass
    except OSError as exc:
        raise SetupError(f"cannot make {path}: {exc.strerror}") from None
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise SetupError(f"cannot use {path}: {exc.strerror}") from None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        problem = "a link" if stat.S_ISLNK(info.st_mode) else "not a directory"
    elif info.st_uid != os.geteuid():
        problem = f"owned by user id {info.st_uid}, not this user ({os.geteuid()})"
    elif info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        problem = f"writable by others (mode {stat.S_IMODE(info.st_mode):o})"
    else:
        return path
    raise SetupError(f"{path} is {problem}: remove it, or set TMPDIR to a directory of your own")
