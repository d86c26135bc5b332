"""The bubblewrap (``bwrap``) command lines that run one bot in a sandbox of its own.

What the bot sees (everything else of the machine does not exist for it):

* the system's programs and libraries read-only (``/usr`` and the ``/bin``, ``/lib`` links or
  directories), and a few files of ``/etc`` that programs read at start;
* the arena's interpreter (its virtualenv and the base installation, e.g. under pyenv), the
  arena's own Python packages and its ``proto/`` directory, read-only: "python" in a manifest
  is the arena's interpreter, the Python SDK is ``arena.sdk``, and the Node sample bot loads
  ``proto/`` at run time;
* its own directory read-only (as its working directory), at the same path as outside (a build
  sees a copy there instead, writable: ``bwrap_argv``'s ``writable_dir``);
* nothing of the host's disk to write: its socket directory (``SOCKET_DIR``), ``/tmp``, its
  home and ``/dev/shm`` are size-capped tmpfs (the disk budget each, and all in its memory
  cgroup), gone with the sandbox; ``/`` and ``/dev`` are read-only; its own ``/proc``.

Namespaces: its own user (uid ``SANDBOX_UID_BASE`` + seat, never mapped to a privileged host
uid, and no further user namespaces: the seccomp filter, else ``--disable-userns``), PID
(bwrap's init is pid 1: when the bot or bwrap ends, the kernel kills every process left in it,
``setsid`` or not), mount, IPC, UTS, cgroup and network (no network unless allowed: then the
host's). ``--die-with-parent`` ends the sandbox when the bwrap process outside is killed, and
``--new-session`` detaches the terminal. A seccomp filter (``arena.sandbox.seccomp``) refuses
the system calls no bot needs.

The bot's environment is set by bwrap itself (``--clearenv``, ``--setenv``, read from a file
descriptor with ``--args`` so that the token is not on any command line), or as root by a shell
after the drop of privileges, just before the bot's command runs: no program of the launcher
chain outside the sandbox, nor any that runs with privileges, ever sees a variable of the bot's
choosing (``LD_PRELOAD`` in a bot.toml reaches only the bot's own program).

**When the arena runs as root**, an unprivileged bwrap would map the sandbox's uid to root, so
the arena never runs one. With the seccomp filter (``ROOT``): one bwrap, as root, builds the
view and the namespaces (no user namespace) keeping only the capabilities to change uid; inside,
``setpriv`` drops to a host uid of the sandbox's own (``arena.sandbox.uids``: no other live
sandbox on the host has it) with no groups and no capabilities, and only then does a shell read
the bot's environment from ``ENV_FILE`` and exec the bot. Without the filter (``ROOT_NESTED``):
an outer bwrap, as root, only builds the view (root can reach paths such as a pyenv interpreter
under ``/root``), ``setpriv`` drops to that uid, and an inner, unprivileged bwrap makes the
sandbox above (with ``--disable-userns``) inside that view. Either way the bot maps to that host
uid: its files, its processes and its access to the kernel (``/proc/sys``, root-only files) are
an unprivileged stranger's.
"""

from __future__ import annotations

import functools
import glob
import importlib.util
import os
import shlex
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path, PurePosixPath

from arena.bot_tree import REPO, linked_public_code
from arena.errors import SetupError
from arena.sandbox.uids import HOST_UID_BASE, UID_SLOTS

HOME = "/home/bot"
SOCKET_DIR = "/run/arena"  # where a sandboxed bot makes its socket (a tmpfs of its own)
SOCKET_NAME = "bot.sock"
ENV_FILE = "/run/arena-env"  # as root: the bot's environment, read after the drop of privileges
# The writable places of a sandbox, each a tmpfs capped at the bot's disk budget.
WRITABLE = (SOCKET_DIR, "/tmp", HOME, "/dev/shm")
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
    # Debian's JDK keeps jvm.cfg, java.security and logging.properties here (its lib/ links to
    # them): without them the JVM dies at start. No secrets: templates and public settings.
    *sorted(glob.glob("/etc/java-*-openjdk")),
)
# The arena's packages a Python bot may import (the SDK, the wire codec, the engines).
_ARENA_PACKAGES = ("arena", "arena_sdk", "engine", "leaderboard")
SANDBOX_UID_BASE = 1000  # the bot's uid (and gid) inside its user namespace: this + its seat
_LAUNCH_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


class SharedDirectoryError(SetupError):
    """A directory to show writable lies inside one every sandbox shows read-only."""


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
    if (REPO / "proto").is_dir():
        paths.add(REPO / "proto")
    return tuple(paths)


def _covered(path: Path, by: Iterable[Path]) -> bool:
    return any(path != other and path.is_relative_to(other) for other in by)


def _both_paths(path: Path) -> set[Path]:
    """``path`` as given (made absolute) and resolved: a bind at each shows it under both."""
    return {Path(os.path.abspath(path)), path.resolve()}


def _read_only_binds(paths: Iterable[Path], writable: Mapping[Path, Path] = {}) -> list[str]:
    """``--ro-bind`` arguments for ``paths`` (each at its own path and, if that differs, at its
    resolved one), parents first and without paths inside another one; a path that ``writable``
    maps to a source is bound writable from that source instead."""
    wanted = set()
    for path in paths:
        wanted |= _both_paths(path)
    # /usr is bound already; "/" (a prefix of "/") would show the bot the whole machine
    wanted = {
        path
        for path in wanted
        if path.exists() and path != Path("/") and not str(path).startswith("/usr/")
    }
    args: list[str] = []
    for path in sorted(wanted, key=lambda p: len(p.parts)):
        if _covered(path, wanted):
            continue
        source = writable.get(path)
        args += ["--ro-bind", str(path)] if source is None else ["--bind", str(source)]
        args.append(str(path))
    return args


def _system_binds() -> list[str]:
    args: list[str] = []
    for path in (*_SYSTEM_DIRS, *_ETC_FILES):
        if os.path.islink(path):  # merged /usr: /bin -> usr/bin
            args += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def _view(bot_dir: Path, writable_from: Path | None = None) -> list[str]:
    """The read-only binds that make up what a bot sees of the machine: the system's, then the
    arena's and the bot's (which may lie under /tmp: they go over the sandbox's own /tmp). With
    ``writable_from``, the bot's directory shows that directory instead, writable."""
    own = {} if writable_from is None else dict.fromkeys(_both_paths(bot_dir), writable_from)
    binds = _read_only_binds([*_shared_read_only(), bot_dir, *linked_public_code(bot_dir)], own)
    if own and "--bind" not in binds:
        raise SharedDirectoryError(
            f"{bot_dir}: cannot be made writable inside a directory every sandbox shows "
            "read-only (/usr, the arena's own code): move it elsewhere"
        )
    return [*_system_binds(), *binds]


def _sandbox_argv(
    argv: list[str],
    *,
    view: list[str],
    bot_dir: Path,
    seat: int,
    network: bool,
    disk_bytes: int,
    args_fd: int,
    seccomp_fd: int | None,
) -> list[str]:
    """The unprivileged bwrap that confines the bot (see the module's docstring)."""
    bwrap = bwrap_path()
    assert bwrap is not None
    uid = str(SANDBOX_UID_BASE + seat)
    writable: list[str] = []
    for path in WRITABLE:
        writable += ["--size", str(disk_bytes), "--tmpfs", path]
    return [
        bwrap,
        "--unshare-all",
        "--unshare-user",
        # No user namespaces inside: the seccomp filter refuses them; without a filter, bwrap
        # does (its way costs a nested namespace at every start, about 5 ms)
        *(["--disable-userns"] if seccomp_fd is None else []),
        *(["--share-net"] if network else []),
        "--uid",
        uid,
        "--gid",
        uid,
        "--hostname",
        "arena-bot",
        "--die-with-parent",
        "--new-session",
        *_file_system(view, writable, bot_dir),
        *(["--seccomp", str(seccomp_fd)] if seccomp_fd is not None else []),
        "--args",
        str(args_fd),
        "--",
        *argv,
    ]


def _file_system(
    view: list[str], writable: list[str], bot_dir: Path, *, extra: Sequence[str] = ()
) -> list[str]:
    """What the bot's file system is made of: its own /proc and /dev, its writable tmpfs, then
    ``view`` (which may lie under /tmp: it goes over the sandbox's own) and ``extra``; all of it
    read-only but the tmpfs; its directory as the working directory."""
    return [
        *("--proc", "/proc", "--dev", "/dev"),
        *writable,
        *view,
        *extra,
        *("--remount-ro", "/dev", "--remount-ro", "/"),
        *("--chdir", str(bot_dir)),
    ]


def _root_sandbox_argv(
    argv: list[str],
    *,
    view: list[str],
    bot_dir: Path,
    host_uid: int,
    network: bool,
    disk_bytes: int,
    env_fd: int,
    seccomp_fd: int,
) -> list[str]:
    """The sandbox as root, with the seccomp filter: one bwrap, as root, builds the view and the
    namespaces (no user namespace: root needs none); inside, ``setpriv`` drops to ``host_uid``
    with no groups and no capabilities, and only then does a shell read the bot's environment
    from ``ENV_FILE`` and exec the bot. The filter refuses new user namespaces (bwrap cannot,
    without a user namespace of its own)."""
    bwrap = bwrap_path()
    assert bwrap is not None
    writable: list[str] = []
    for path in WRITABLE:  # made by root: open to the bot's uid (only its processes see them)
        writable += ["--perms", "1777", "--size", str(disk_bytes), "--tmpfs", path]
    return [
        bwrap,
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        *([] if network else ["--unshare-net"]),
        "--hostname",
        "arena-bot",
        "--die-with-parent",
        "--new-session",
        # what setpriv needs to drop to the bot's uid, and nothing else
        "--cap-drop",
        "ALL",
        *("--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"),
        *_file_system(
            [*_traversable_parents(view), *view],
            writable,
            bot_dir,
            extra=["--perms", "0444", "--ro-bind-data", str(env_fd), ENV_FILE],
        ),
        "--seccomp",
        str(seccomp_fd),
        "--",
        *_dropped_to(host_uid),
        "/bin/sh",
        "-c",
        f'. {ENV_FILE} && exec "$@"',
        # the shell's name, which it puts before an error of its own: "sandbox: 1: exec: cargo:
        # not found" (the environment file's path there read as the bot's own doing)
        "sandbox",
        *argv,
    ]


def _dropping_privileges(inner: list[str], *, view: list[str], host_uid: int) -> list[str]:
    """``inner`` (an unprivileged bwrap) run from root: an outer bwrap builds the view as root,
    and ``setpriv`` drops to the unprivileged ``host_uid`` before ``inner`` starts."""
    bwrap = bwrap_path()
    assert bwrap is not None
    return [
        bwrap,
        "--unshare-pid",
        "--die-with-parent",
        # bwrap returns once its command has, before its init is reaped: that init, in a
        # session of its own, is not taken for a process the bot left behind
        "--new-session",
        *_traversable_parents(view),
        *view,
        "--dir",  # the inner bwrap builds the sandbox's root on a tmpfs it mounts here
        "/tmp",
        # The host's /proc as it is: the kernel lets the inner bwrap mount a new proc only where
        # a whole one is visible (bwrap's own --proc covers parts of it)
        "--bind",
        "/proc",
        "/proc",
        "--dev",
        "/dev",
        "--",
        *_dropped_to(host_uid),
        *inner,
    ]


def _traversable_parents(view: list[str]) -> list[str]:
    """``--dir`` (mode 0755) for every parent directory of what ``view`` binds, so that an
    unprivileged uid can reach each bound path (bwrap 0.8 makes a bound file's parents 0700)."""
    parents: set[PurePosixPath] = set()
    for position, arg in enumerate(view):
        if arg in ("--ro-bind", "--bind"):
            parents.update(PurePosixPath(view[position + 2]).parents)
    parents.discard(PurePosixPath("/"))
    ordered = sorted(parents, key=lambda path: len(path.parts))
    return [arg for path in ordered for arg in ("--dir", str(path))]


def _dropped_to(host_uid: int) -> list[str]:
    """``setpriv`` that drops to ``host_uid`` (as uid and gid), with no groups, no capabilities
    and an empty bounding set, then runs what follows."""
    assert HOST_UID_BASE <= host_uid < HOST_UID_BASE + UID_SLOTS, host_uid
    uid = str(host_uid)
    drop = ["--reuid", uid, "--regid", uid, "--clear-groups", "--inh-caps=-all"]
    return [_setpriv(), *drop, "--bounding-set=-all", "--"]


@functools.cache
def _setpriv() -> str:
    return shutil.which("setpriv", path="/usr/bin:/bin") or "/usr/bin/setpriv"


def runs_as_root() -> bool:
    return os.geteuid() == 0


def _bot_env(bot_env: dict[str, str]) -> dict[str, str]:
    """The bot's whole environment: the arena's variables and the manifest's ``[env]``
    (``bot_env``) on top of a minimal PATH, LANG, HOME and TMPDIR."""
    return {**_LAUNCH_ENV, "HOME": HOME, "TMPDIR": "/tmp", **bot_env}


def env_payload(bot_env: dict[str, str], kind: str) -> bytes:
    """What carries the bot's environment into its sandbox of ``kind`` (``sandbox_kind``):
    NUL-separated ``bwrap --args`` (``--clearenv``, ``--setenv``) for an unprivileged bwrap, or
    the shell's ``ENV_FILE`` (``export NAME='value'``) read after the drop of privileges."""
    env = _bot_env(bot_env)
    if kind == ROOT:
        return "".join(
            f"export {name}={shlex.quote(value)}\n" for name, value in env.items()
        ).encode()
    args = ["--clearenv"]
    for name, value in env.items():
        args += ["--setenv", name, value]
    return b"".join(arg.encode() + b"\0" for arg in args)


def bwrap_argv(
    argv: list[str],
    *,
    kind: str,
    bot_dir: Path,
    seat: int,
    network: bool,
    disk_bytes: int,
    env_fd: int,
    seccomp_fd: int | None,
    host_uid: int | None = None,
    view: list[str] | None = None,
    writable_dir: Path | None = None,
) -> list[str]:
    """``argv`` run in a sandbox of ``kind`` (see the module's docstring). ``env_fd`` holds
    ``env_payload``; ``seccomp_fd`` the filter; as root, ``host_uid`` is the sandbox's leased
    host uid (``arena.sandbox.uids``); ``view`` is the bot's by default. With
    ``writable_dir`` the sandbox shows that directory, writable, at the bot's directory's path
    (a build works in a copy of the bot); raises SharedDirectoryError where the bot's directory
    lies inside one every sandbox shows. Requires ``bwrap_path()``."""
    if view is None:
        view = _view(bot_dir, writable_dir)
    inner_view = view
    if writable_dir is not None and kind == ROOT_NESTED:
        # the outer bwrap shows the copy at the bot's path; the inner binds it there again
        inner_view = _view(bot_dir, bot_dir)
    assert (host_uid is not None) == (kind != UNPRIVILEGED), "as root, a leased uid"
    if kind == ROOT:
        assert seccomp_fd is not None, "as root, only the filter refuses user namespaces"
        assert host_uid is not None
        return _root_sandbox_argv(
            argv,
            view=view,
            bot_dir=bot_dir,
            host_uid=host_uid,
            network=network,
            disk_bytes=disk_bytes,
            env_fd=env_fd,
            seccomp_fd=seccomp_fd,
        )
    inner = _sandbox_argv(
        argv,
        view=inner_view,
        bot_dir=bot_dir,
        seat=seat,
        network=network,
        disk_bytes=disk_bytes,
        args_fd=env_fd,
        seccomp_fd=seccomp_fd,
    )
    if kind == ROOT_NESTED:
        assert host_uid is not None
        return _dropping_privileges(inner, view=view, host_uid=host_uid)
    return inner


def launch_env() -> dict[str, str]:
    """The environment of the launcher chain outside the sandbox (setpriv, sh, prlimit, bwrap):
    fixed, nothing of the bot's."""
    return dict(_LAUNCH_ENV)


UNPRIVILEGED = "unprivileged"  # an ordinary user's bwrap, in a user namespace of its own
ROOT = "root"  # as root with the seccomp filter: one bwrap, setpriv inside
ROOT_NESTED = "root-nested"  # as root without a filter: an outer bwrap, setpriv, an inner one


def sandbox_kind(filtered: bool) -> str:
    """How this arena makes a sandbox: as an ordinary user, or as root with or without the
    seccomp filter (``filtered``)."""
    if not runs_as_root():
        return UNPRIVILEGED
    return ROOT if filtered else ROOT_NESTED


def is_uid_inside(kind: str, seat: int, uid: int) -> bool:
    """Whether ``uid`` is what a bot in ``seat`` may see as its uid (and gid) in its sandbox
    of ``kind``: its own user namespace's ``SANDBOX_UID_BASE`` + seat, or, as root with the
    filter (no user namespace), its leased host uid."""
    if kind == ROOT:
        return HOST_UID_BASE <= uid < HOST_UID_BASE + UID_SLOTS
    return uid == SANDBOX_UID_BASE + seat


def sandbox_depth(kind: str) -> int:
    """How many processes below the started one (bwrap) the sandbox's init is: bwrap -> init
    (1), or, nested, outer bwrap -> its init -> inner bwrap -> init (3). The bot's own program
    is the init's child."""
    return 3 if kind == ROOT_NESTED else 1


def probe_argv(
    argv: list[str], *, kind: str, env_fd: int, seccomp_fd: int | None, host_uid: int | None
) -> list[str]:
    """``argv`` in a sandbox of the real shape (``kind``) whose view is the system's programs: a
    trial of whether this machine can make sandboxes at all."""
    return bwrap_argv(
        argv,
        kind=kind,
        bot_dir=Path("/"),
        seat=0,
        network=False,
        disk_bytes=1 << 20,
        env_fd=env_fd,
        seccomp_fd=seccomp_fd,
        host_uid=host_uid,
        view=_system_binds(),
    )
