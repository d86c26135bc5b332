"""The arena's temporary files: one root directory per arena process, holding each match's
directory (the seats' logs and socket directories).

A SIGKILLed arena cannot remove its root, so every arena, when it first needs one, removes the
roots of arenas that are gone, and unmounts what they left mounted there (a build's tmpfs, which
``arena.building`` mounts as root inside its arena's root). A root's name carries its arena's
pid and that process's start time: a root is stale only if no process with that pid exists, or
one does but started at another time (the pid was reused). A live arena's root is never
touched.
"""

from __future__ import annotations

import atexit
import functools
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

_ROOT_PREFIX = "arena-run-"


def process_start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or None
    if there is no such process (or no /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def arena_alive(name: str) -> bool:
    """Whether the arena named in ``name`` (``arena-run-PID-START-...``: a temp root or a
    cgroup) still runs."""
    try:
        pid_text, start, _ = name.removeprefix(_ROOT_PREFIX).split("-", 2)
        pid = int(pid_text)
    except ValueError:
        return True  # not one of ours by its name: leave it alone
    return process_start_time(pid) == start


def arena_tag() -> str:
    """``arena-run-PID-START``: the start of the name of what this arena makes that may outlive
    it (its temp root, its bots' cgroups), for ``arena_alive`` to read."""
    pid = os.getpid()
    return f"{_ROOT_PREFIX}{pid}-{process_start_time(pid) or '0'}"


def stale_dirs(parent: Path) -> list[Path]:
    """The directories under ``parent`` named by arenas (``arena_tag``) that no longer run."""
    try:
        entries = list(parent.iterdir())
    except OSError:
        return []
    return [
        entry
        for entry in entries
        if entry.name.startswith(_ROOT_PREFIX)
        and entry.is_dir()
        and not entry.is_symlink()
        and not arena_alive(entry.name)
    ]


def remove_tree(path: Path) -> None:
    """Remove ``path`` and everything under it, whatever a bot left there: a tree of any depth,
    links (never followed), directories made read-only. Never raises.

    ``shutil.rmtree`` first (fast, in process); where it fails (it recurses, so thousands of
    nested directories end in RecursionError; a read-only directory refuses an ordinary user),
    coreutils' ``chmod -R`` (which ignores links met on the way) and ``rm -rf``, made for any
    depth."""
    try:
        shutil.rmtree(path)
        return
    except FileNotFoundError:
        return
    except (OSError, RecursionError):
        pass
    for command in (["chmod", "-R", "u+rwX"], ["rm", "-rf", "--one-file-system"]):
        try:
            subprocess.run([*command, "--", str(path)], capture_output=True, timeout=300)
        except (OSError, subprocess.TimeoutExpired):
            return


def remove_stale_roots(parent: Path) -> list[Path]:
    """Delete the temp roots of arenas that no longer run (unmounting what is mounted in them
    first); return what was deleted."""
    removed = stale_dirs(parent)
    for entry in removed:
        unmount_under(entry)
        remove_tree(entry)
    return removed


def unmount_under(path: Path) -> None:
    """Lazily unmount every mount at or under ``path`` (deepest first): a killed arena's build
    tmpfs would otherwise hold its memory, and its directory, until the machine restarts. Only
    root has mounts to undo; elsewhere nothing is mounted there, and umount fails harmlessly."""
    try:
        table = Path("/proc/self/mounts").read_text()
    except OSError:
        return
    inside = str(path.resolve())
    points = []
    for line in table.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        # /proc/self/mounts writes space, tab, newline and backslash as octal escapes
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), fields[1])
        if point == inside or point.startswith(inside + "/"):
            points.append(point)
    for point in sorted(points, key=len, reverse=True):
        subprocess.run(["umount", "--lazy", point], capture_output=True, check=False)


# A Unix socket's path holds at most 107 bytes, and a match's sockets lie 66 or fewer below the
# temp directory (``arena-run-PID-START-xxxxxxxx/match-xxxxxxxx/seat0.sock``): a longer temp
# directory (TMPDIR) would leave the bots' sockets, and the filter of a remote bot's HTTP/2,
# without a path (outside review: a TMPDIR of 54 characters turned the filter off).
_LONGEST_PARENT = 107 - 66


def temp_parent() -> Path:
    """Where this arena's temp root goes: the temp directory (TMPDIR), or /tmp where that is too
    long a path for the sockets under it."""
    parent = Path(tempfile.gettempdir())
    if len(str(parent)) > _LONGEST_PARENT and os.access("/tmp", os.W_OK | os.X_OK):
        return Path("/tmp")
    return parent


@functools.cache
def arena_root() -> Path:
    """This arena process's temp root, made on first use (after removing dead arenas' roots)."""
    parent = temp_parent()
    remove_stale_roots(parent)
    root = Path(tempfile.mkdtemp(prefix=f"{arena_tag()}-", dir=parent))
    atexit.register(remove_tree, root)
    return root


def new_match_dir() -> Path:
    """A fresh private directory for one match inside this arena's root; the caller removes it."""
    root = arena_root()
    if not root.is_dir():  # removed under us (e.g. a tmp cleaner): make it again
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="match-", dir=root))
