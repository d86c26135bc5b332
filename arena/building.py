"""Building a bot: the ``build`` command of its bot.toml (``["sh", "build.sh"]``), which ``arena
validate`` and ``arena submit`` run before the bot starts.

A build runs the author's code, so it is confined as the bot will be (``--sandbox none``: not at
all): the same sandbox, view, seccomp filter and unprivileged uid (as root: a host uid no other
live sandbox has, ``arena.sandbox.uids``), no network, with larger limits (``BUILD_LIMITS``,
``BUILD_SECONDS``). Its one difference is a writable bot directory. Not the author's directory
itself: a copy, owned by the build's uid and mounted at the directory's own path (so paths the
build records stay right); after a build that succeeded the arena copies the result back, as the
arena's user, leaving out set-user-ID bits and making every file readable by the bot's uid. A
build that fails or runs out of time changes nothing. Its output goes to a log, kept when it
fails (the error says where).
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from arena.bot_tree import entry_bytes
from arena.errors import InputError
from arena.manifest import BotSpec
from arena.referee.bot_text import one_line
from arena.referee.botprocess import kill_now
from arena.referee.child import tied_to_parent
from arena.sandbox import SandboxPolicy, prepare_launch, unreadable_problem
from arena.sandbox.bwrap import SharedDirectoryError, runs_as_root
from arena.sandbox.limits import BotLimits
from arena.sandbox.tempdirs import arena_root, remove_tree

BUILD_SECONDS = 600.0  # compiling against gRPC takes 1-2 minutes on two busy cores
# Compilers need more than a bot: g++ on gRPC's headers about 1.5 GiB, Go's cache in $HOME
# (a tmpfs, counted in the memory limit) a few hundred MiB; a static binary may pass 64 MiB.
BUILD_LIMITS = BotLimits(memory_mib=4096, file_mib=512, disk_mib=1024)
BUILD_PROCESSES = 512
# What a build may leave in its directory (all of it becomes the bot's version): as much as its
# disk limit, this many files and directories, this deep a tree (copying it back walks it).
BUILD_FILES = 100_000
BUILD_DEPTH = 100
_NOT_COPIED = frozenset({".git"})  # never needed to build, and the author's, not the bot's


class BuildError(InputError):
    """The bot's build failed or ran out of time; one line with the cause and the log's path."""


@dataclass(frozen=True)
class Built:
    seconds: float
    sandboxed: bool


def build_bot(
    spec: BotSpec,
    sandbox: SandboxPolicy | None,
    *,
    log_dir: Path | None = None,
    seconds: float = BUILD_SECONDS,
) -> Built | None:
    """Run ``spec``'s build (None if it has none) confined as ``sandbox`` says (None or tool
    "none": in its directory as the arena's user). Its log goes to ``log_dir`` if given (kept),
    else to a temporary file removed after a build that succeeds. Raises BuildError."""
    if not spec.build:
        return None
    assert spec.directory is not None
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
        log_path = log_dir / f"build-{_safe(spec.name)}.log"
    else:
        fd, name = tempfile.mkstemp(prefix=f"arena-build-{_safe(spec.name)}-", suffix=".log")
        os.close(fd)
        log_path = Path(name)
    sandboxed = sandbox is not None and sandbox.tool == "bwrap"
    if problem := unreadable_problem(spec.directory, sandbox):
        raise BuildError(problem)
    started = time.perf_counter()
    try:
        if sandboxed:
            assert sandbox is not None
            _build_sandboxed(spec, sandbox, log_path, seconds)
        else:
            _run(_argv(spec.build), spec.directory, {**os.environ, **spec.env}, log_path, seconds)
    except _Failed as failed:
        raise BuildError(
            f"{spec.directory}: build `{' '.join(spec.build)}` {failed}"
            f"{_cause(log_path)}; log: {log_path}"
        ) from None
    if log_dir is None:
        log_path.unlink(missing_ok=True)
    return Built(time.perf_counter() - started, sandboxed)


class _Failed(Exception):
    """How the build ended, when not with exit code 0: "exited with code 2", "timed out..."."""


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def _argv(command: tuple[str, ...]) -> list[str]:
    # "python" is the arena's interpreter, as in a bot's command (botprocess._argv)
    return [sys.executable if command[0] == "python" else command[0], *command[1:]]


def _run(
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    log_path: Path,
    seconds: float,
    *,
    pass_fds: tuple[int, ...] = (),
    on_start: Callable[[], None] = lambda: None,
    sandboxed: bool = False,
) -> None:
    """Run ``argv`` to its end (``on_start`` once it started); raises _Failed."""
    with open(log_path, "wb") as log:
        try:
            process = subprocess.Popen(
                tied_to_parent(argv),
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                pass_fds=pass_fds,
            )
        except OSError as exc:
            raise _Failed(f"could not start: {exc.strerror}") from None
        finally:
            on_start()
    try:
        code = process.wait(seconds)
    except subprocess.TimeoutExpired:
        kill_now(process.pid, sandboxed=sandboxed)
        process.wait()
        raise _Failed(f"did not finish within {seconds:g} s") from None
    except BaseException:  # Ctrl-C: nothing of the build outlives the arena's wait
        kill_now(process.pid, sandboxed=sandboxed)
        process.wait()
        raise
    if code != 0:
        # bwrap reports a command killed by signal N as 128 + N
        raise _Failed(
            f"was killed by signal {code - 128}"
            if sandboxed and 128 < code < 128 + 65
            else f"exited with code {code}"
        )


def _build_sandboxed(spec: BotSpec, sandbox: SandboxPolicy, log_path: Path, seconds: float) -> None:
    assert spec.directory is not None
    # in this arena's temp root: if the arena is killed, the next one unmounts and removes it
    workdir = Path(tempfile.mkdtemp(prefix="build-", dir=arena_root()))
    capped = _capped(workdir)
    copy = workdir / "bot"
    try:
        try:
            shutil.copytree(spec.directory, copy, symlinks=True, ignore=_not_copied)
        except (shutil.Error, OSError) as exc:  # e.g. larger than the build's disk limit
            raise _Failed(
                f"could not start: the bot's directory does not copy into the build's "
                f"{BUILD_LIMITS.disk_mib} MiB ({one_line(str(exc), 200)})"
            ) from None
        policy = SandboxPolicy(
            "bwrap", max_processes=BUILD_PROCESSES, cpu_cores=float(os.cpu_count() or 1)
        )
        try:
            launch = prepare_launch(
                policy,
                _argv(spec.build),
                bot_dir=spec.directory,
                seat=0,
                env=dict(spec.env),
                inherited_env={},
                limits=BUILD_LIMITS,
                wants_network=False,
                writable_dir=copy,
            )
        except SharedDirectoryError as exc:
            raise BuildError(str(exc)) from None
        try:
            if launch.uid_lease is not None:  # as root: the copy is the build's uid's to write
                _chown_tree(copy, launch.uid_lease.uid)
            _run(
                launch.argv,
                workdir,
                launch.env,
                log_path,
                seconds,
                pass_fds=launch.pass_fds,
                on_start=launch.started,
                sandboxed=True,
            )
        finally:
            launch.close()
        if problem := _result_problem(copy):
            raise _Failed(problem)
        mirror(copy, spec.directory)
    finally:
        remove_tree(workdir)
        if capped:
            subprocess.run(["umount", "--lazy", str(workdir)], capture_output=True)
            workdir.rmdir()


def _capped(workdir: Path) -> bool:
    """Mount a tmpfs of the build's disk limit on ``workdir`` (as root): the build writes its
    copy of the bot there, which is otherwise the host's disk with no bound on its total (only
    each file's). Without root (no mount) the result is still checked (``_result_problem``)."""
    if not runs_as_root():
        return False
    options = f"size={BUILD_LIMITS.disk_mib}m,nr_inodes={BUILD_FILES * 2},mode=0700"
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "arena-build", str(workdir)],
        capture_output=True,
    )
    return mounted.returncode == 0


def _not_copied(directory: str, names: list[str]) -> list[str]:
    """What the build's copy leaves out: .git, and files no build needs that a copy cannot
    take (fifos, sockets, devices)."""
    left = []
    for name in names:
        try:
            mode = os.lstat(os.path.join(directory, name)).st_mode
        except OSError:
            continue
        kinds = stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)
        if name in _NOT_COPIED or not kinds:
            left.append(name)
    return left


def _result_problem(root: Path) -> str:
    """Why the build's result cannot become the bot's directory (too large, too many files, too
    deep a tree: each would cost the host, and a deep tree broke the walk that copies it back),
    or "". Walked without recursion. A sparse file counts at its apparent size
    (``entry_bytes``): it costs the build's tmpfs nothing, but ``mirror`` writes it dense (a
    400-byte upload left 2 GB on the host, outside review)."""
    total = entries = 0
    stack = [(root, 0)]
    while stack:
        directory, depth = stack.pop()
        if depth > BUILD_DEPTH:
            return f"left a directory tree deeper than {BUILD_DEPTH} levels"
        with os.scandir(directory) as found:
            for entry in found:
                entries += 1
                if entries > BUILD_FILES:
                    return f"left more than {BUILD_FILES:,} files and directories"
                info = entry.stat(follow_symlinks=False)
                total += entry_bytes(info)
                if entry.is_dir(follow_symlinks=False):
                    stack.append((Path(entry.path), depth + 1))
    if total > BUILD_LIMITS.disk_mib << 20:
        return (
            f"left {total >> 20} MiB in the bot's directory, over its {BUILD_LIMITS.disk_mib} MiB"
        )
    return ""


def _chown_tree(root: Path, uid: int) -> None:
    for directory, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            os.chown(os.path.join(directory, name), uid, uid, follow_symlinks=False)
    os.chown(root, uid, uid)


def mirror(source: Path, target: Path) -> None:
    """Make ``target`` hold what ``source`` holds (the build's result): changed and new files
    copied, files the build removed removed; links copied as links, never followed in either
    tree; other kinds of file (fifos) left out. Modes lose set-user-ID, set-group-ID and sticky
    bits and write for group and others, and gain read (and, where the owner may, execute) for
    everyone: the bot runs as another uid."""
    for directory, dirs, files in os.walk(source):
        relative = Path(directory).relative_to(source)
        into = target / relative
        for name in sorted(set(os.listdir(into)) - set(dirs) - set(files) - _NOT_COPIED):
            _remove(into / name)
        for name in [*dirs, *files]:
            _copy_entry(Path(directory) / name, into / name)
        dirs[:] = [name for name in dirs if not (Path(directory) / name).is_symlink()]


def _copy_entry(source: Path, target: Path) -> None:
    mode = source.lstat().st_mode
    kind = stat.S_IFMT(mode)
    existing = target.lstat().st_mode if os.path.lexists(target) else None
    if existing is not None and stat.S_IFMT(existing) != kind:
        _remove(target)
        existing = None
    if stat.S_ISLNK(mode):
        link = os.readlink(source)
        if existing is not None and os.readlink(target) == link:
            return
        target.unlink(missing_ok=True)
        os.symlink(link, target)
        return
    if stat.S_ISDIR(mode):
        if existing is None:
            target.mkdir()
    elif stat.S_ISREG(mode):
        if existing is None or not filecmp.cmp(source, target, shallow=False):
            target.unlink(missing_ok=True)
            shutil.copyfile(source, target, follow_symlinks=False)
            shutil.copystat(source, target, follow_symlinks=False)
    else:
        return
    permissions = stat.S_IMODE(mode) & 0o755 | 0o644  # nobody else may write the bot's code
    if mode & stat.S_IXUSR or stat.S_ISDIR(mode):
        permissions |= 0o111
    os.chmod(target, permissions)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        remove_tree(path)
    else:
        path.unlink(missing_ok=True)


# A build log's line that names the cause: a compiler's "file:line[:col]: ..." or any "error".
_CAUSE = re.compile(r"^[^\s:]+:\d+(?::\d+)?: |\berror\b", re.IGNORECASE)
_CAUSE_CHARS = 300
_CAUSE_BYTES = 1 << 20  # a log may be as large as the file-size limit


def _cause(log_path: Path) -> str:
    """ "; error: LINE" with the log's first line that names an error (compilers report the
    cause first), else its last line; "" for an empty log."""
    try:
        with open(log_path, "rb") as log:
            text = log.read(_CAUSE_BYTES).decode(errors="replace")
    except OSError:
        return ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    cause = next((line for line in lines if _CAUSE.search(line)), lines[-1])
    return f"; error: {one_line(cause, _CAUSE_CHARS)}"  # the author's text: no escape sequences
