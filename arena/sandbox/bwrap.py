"""The bubblewrap (``bwrap``) command line that runs one bot in a sandbox of its own.

What the bot sees (everything else of the machine does not exist for it):

* the system's programs and libraries read-only (``/usr`` and the ``/bin``, ``/lib`` links or
  directories), and a few files of ``/etc`` that programs read at start;
* the arena's interpreter (its virtualenv and the base installation, e.g. under pyenv), the
  arena's own Python packages and its ``proto/`` directory, read-only: "python" in a manifest
  is the arena's interpreter, the Python SDK is ``arena.sdk``, and the Node sample bot loads
  ``proto/`` at run time;
* its own directory read-only (as its working directory), at the same path as outside;
* its socket directory, the only writable place on disk, at the same path as outside so the
  address the referee hands it works unchanged;
* a private ``/tmp`` and home (tmpfs, gone with the sandbox), its own ``/proc`` and ``/dev``.

Namespaces: its own user (one unprivileged uid), PID (bwrap's init is pid 1: when the bot or
bwrap ends, the kernel kills every process left in it, ``setsid`` or not), mount, IPC, UTS,
cgroup and network (no network unless allowed: then the host's). ``--die-with-parent`` ends the
sandbox when the bwrap process outside is killed, and ``--new-session`` detaches the terminal.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

HOME = "/home/bot"
_TMPFS_BYTES = 256 << 20
_SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What programs read from /etc at start (dynamic linker cache, time zone, the `alternatives`
# links Debian's /usr/bin/node and friends go through, name lookups for bots with network).
_ETC_FILES = (
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/hosts",
    "/etc/resolv.conf",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/mime.types",
)
# The arena's packages a Python bot may import (the SDK, the wire codec, the engines).
_ARENA_PACKAGES = ("arena", "arena_sdk", "engine", "leaderboard")
_REPO = Path(__file__).resolve().parents[2]
_SAMPLE_BOTS = _REPO / "sample_bots"
# Public code a bot's directory may link to: the sample bots and the SDKs (a Node bot's
# node_modules/arena-bot-sdk is a link to sdk/node).
_LINKABLE = (_SAMPLE_BOTS, _REPO / "sdk")
BOT_UID_BASE = 1000


@functools.cache
def bwrap_path() -> str | None:
    """bwrap on PATH, else where the system's package installs it."""
    return shutil.which("bwrap") or shutil.which("bwrap", path="/usr/local/bin:/usr/bin:/bin")


def _package_dirs() -> list[Path]:
    dirs: list[Path] = []
    for name in _ARENA_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            dirs.extend(Path(location) for location in spec.submodule_search_locations)
    return dirs


@functools.cache
def _shared_read_only() -> tuple[Path, ...]:
    """The arena's directories every sandbox sees read-only: interpreter, packages, protos."""
    paths = {
        Path(sys.prefix),
        Path(sys.base_prefix),
        Path(sys.exec_prefix),
        Path(sys.base_exec_prefix),
        *_package_dirs(),
    }
    if (_REPO / "proto").is_dir():
        paths.add(_REPO / "proto")
    return tuple(paths)


def _linked_sample_code(bot_dir: Path) -> list[Path]:
    """Targets of links in a bot's directory that lead into the arena's own public code: the
    sample bots (``search-python/heuristics`` links to the heuristic bot's) and the SDKs. Links
    anywhere else stay dangling inside the sandbox, so a bot's directory cannot pull in the
    arena user's files."""
    targets = []
    for link in bot_dir.rglob("*"):
        if link.is_symlink():
            target = link.resolve()
            if any(target.is_relative_to(root) for root in _LINKABLE) and not target.is_relative_to(
                bot_dir
            ):
                targets.append(target)
    return targets


def _covered(path: Path, by: Iterable[Path]) -> bool:
    return any(path != other and path.is_relative_to(other) for other in by)


def _read_only_binds(paths: Iterable[Path]) -> list[str]:
    """``--ro-bind`` arguments for ``paths`` (each at its own path and, if that differs, at its
    resolved one), parents first and without paths inside another one."""
    wanted = set()
    for path in paths:
        wanted.add(Path(os.path.abspath(path)))
        wanted.add(path.resolve())
    # /usr is bound already; "/" (a prefix of "/") would show the bot the whole machine
    wanted = {
        path
        for path in wanted
        if path.exists() and path != Path("/") and not str(path).startswith("/usr/")
    }
    args: list[str] = []
    for path in sorted(wanted, key=lambda p: len(p.parts)):
        if not _covered(path, wanted):
            args += ["--ro-bind", str(path), str(path)]
    return args


def _system_binds() -> list[str]:
    args: list[str] = []
    for path in (*_SYSTEM_DIRS, *_ETC_FILES):
        if os.path.islink(path):  # merged /usr: /bin -> usr/bin
            args += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def bwrap_argv(
    argv: list[str], *, bot_dir: Path, socket_dir: Path, seat: int, network: bool
) -> list[str]:
    """``argv`` run in a sandbox; see the module's docstring. Requires ``bwrap_path()``."""
    bwrap = bwrap_path()
    assert bwrap is not None
    uid = str(BOT_UID_BASE + seat)
    return [
        bwrap,
        "--unshare-all",
        "--unshare-user",
        *(["--share-net"] if network else []),
        "--uid",
        uid,
        "--gid",
        uid,
        "--hostname",
        "arena-bot",
        "--die-with-parent",
        "--new-session",
        *_system_binds(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(_TMPFS_BYTES),
        "--tmpfs",
        "/tmp",
        "--size",
        str(_TMPFS_BYTES),
        "--tmpfs",
        HOME,
        *_read_only_binds([*_shared_read_only(), bot_dir, *_linked_sample_code(bot_dir)]),
        "--bind",
        str(socket_dir),
        str(socket_dir),
        "--chdir",
        str(bot_dir),
        "--",
        *argv,
    ]


def sandbox_env(bot_env: dict[str, str]) -> dict[str, str]:
    """The whole environment of a sandboxed bot: the arena's variables and the manifest's
    ``[env]`` (``bot_env``), on top of a minimal PATH, LANG, HOME and TMPDIR."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "HOME": HOME,
        "TMPDIR": "/tmp",
        **bot_env,
    }
