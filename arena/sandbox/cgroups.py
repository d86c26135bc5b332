"""A control group per bot: memory, number of processes (threads included) and CPU share for the
bot and everything it starts together, and a way to kill all of them at once.

cgroup v2 is used where the arena's own cgroup can delegate the memory, pids and cpu controllers
to a child; otherwise cgroup v1, where those controllers are mounted (as on Debian hosts with the
legacy hierarchy). A bot's cgroup is a child of the arena's own cgroup, so the arena's limits
still bound it. Without either (no permission, no mounts) there is no cgroup and the caller falls
back to rlimits.

The bot joins its cgroup before its command starts: its command is wrapped in ``sh -c`` that
writes its own pid into the cgroup and execs the rest, so nothing the bot starts can be forked
before the limits apply (a ``preexec_fn`` would do the same, but makes gRPC warn about forking).

A SIGKILLed arena leaves its cgroups behind; they carry the arena's pid and start time in their
name, and the next arena removes those whose arena is gone. They are empty, but for a bot whose
arena was killed in the moment its bwrap started: bwrap drops its privileges, which clears the
parent-death signal the arena gave it, and asks for it again a few milliseconds later, too late
if its parent has died meanwhile (outside review: 3 sandboxes of 12 arenas killed as they
started bots ran on with no parent). The next arena kills what is left in them first: a dead
arena's cgroups hold its bots alone.
"""

from __future__ import annotations

import functools
import os
import shlex
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from arena.sandbox.tempdirs import arena_tag, stale_dirs

_V1_CONTROLLERS = ("memory", "pids", "cpu", "freezer")
_V2_CONTROLLERS = ("memory", "pids", "cpu")
_CPU_PERIOD_US = 100_000
_KILL_ROUNDS = 50
_KILL_PAUSE_SECONDS = 0.01


@dataclass(frozen=True)
class CgroupLimits:
    memory_mib: int  # resident memory of all the bot's processes together (no swap beyond it)
    max_processes: int  # processes and threads together
    cpu_cores: float  # CPU time per wall-clock second, in cores


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup path per v1 controller, and under "" its v2 path."""
    paths: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return paths
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def _mounts() -> tuple[dict[str, Path], Path | None]:
    """Where each v1 controller's hierarchy is mounted, and where the v2 hierarchy is."""
    v1: dict[str, Path] = {}
    v2 = None
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return v1, v2
    for line in lines:
        fields = line.split()
        separator = fields.index("-")
        mount_point, fs_type, options = fields[4], fields[separator + 1], fields[separator + 3]
        if fs_type == "cgroup2":
            v2 = Path(mount_point)
        elif fs_type == "cgroup":
            for option in options.split(","):
                if option in _V1_CONTROLLERS:
                    v1[option] = Path(mount_point)
    return v1, v2


def _write(path: Path, value: str) -> None:
    path.write_text(value)


def _end_stale(found: _Hierarchy) -> list[str]:
    """Kill what is left in the bots' cgroups of arenas that are gone and remove them (module
    docstring); their names."""
    names = sorted(
        {entry.name for parent in found.parents.values() for entry in stale_dirs(parent)}
    )
    for name in names:
        left = BotCgroup.left_behind(found, name)
        left.kill_all()
        left.remove()
    return names


class _Hierarchy:
    """Where bots' cgroups go: the arena's own cgroup in v2, or in each v1 controller."""

    def __init__(self, version: int, parents: dict[str, Path]) -> None:
        self.version = version
        self.parents = parents  # controller (v2: "") -> the arena's own cgroup directory

    def describe(self) -> str:
        return f"cgroup v{self.version}"


def _v2_hierarchy(mount: Path, own: str) -> _Hierarchy | None:
    parent = mount / own.lstrip("/")
    try:
        available = (parent / "cgroup.controllers").read_text().split()
        if not all(c in available for c in _V2_CONTROLLERS):
            return None
        enabled = (parent / "cgroup.subtree_control").read_text().split()
        missing = [c for c in _V2_CONTROLLERS if c not in enabled]
        if missing:  # fails (EBUSY) if the arena's cgroup holds processes and is not the root
            _write(parent / "cgroup.subtree_control", " ".join(f"+{c}" for c in missing))
    except OSError:
        return None
    return _Hierarchy(2, {"": parent})


def _v1_hierarchy(mounts: dict[str, Path], own: dict[str, str]) -> _Hierarchy | None:
    parents: dict[str, Path] = {}
    for controller in ("memory", "pids", "cpu"):
        if controller not in mounts or controller not in own:
            return None
        parents[controller] = mounts[controller] / own[controller].lstrip("/")
    if "freezer" in mounts and "freezer" in own:
        parents["freezer"] = mounts["freezer"] / own["freezer"].lstrip("/")
    for parent in parents.values():
        if not os.access(parent, os.W_OK):
            return None
    return _Hierarchy(1, parents)


@functools.cache
def hierarchy() -> _Hierarchy | None:
    """The hierarchy bots' cgroups are made in, or None if this arena cannot make any. Stale
    cgroups of dead arenas are removed the first time."""
    v1_mounts, v2_mount = _mounts()
    own = _own_cgroups()
    found = None
    if v2_mount is not None and "" in own:
        found = _v2_hierarchy(v2_mount, own[""])
    if found is None:
        found = _v1_hierarchy(v1_mounts, own)
    if found is not None:
        _end_stale(found)
    return found


class BotCgroup:
    """One bot's cgroup (a directory per v1 controller, or one v2 directory)."""

    def __init__(self, found: _Hierarchy, name: str, limits: CgroupLimits) -> None:
        self.version = found.version
        self.limits: CgroupLimits | None = limits  # None: one left behind by another arena
        self.dirs = {controller: parent / name for controller, parent in found.parents.items()}
        try:
            for directory in self.dirs.values():
                directory.mkdir()
            self._apply(limits)
        except OSError:
            self.remove()
            raise

    @classmethod
    def left_behind(cls, found: _Hierarchy, name: str) -> BotCgroup:
        """The cgroup ``name`` that an arena made and left (nothing created, nothing applied)."""
        left = cls.__new__(cls)
        left.version, left.limits = found.version, None
        left.dirs = {
            controller: parent / name
            for controller, parent in found.parents.items()
            if (parent / name).is_dir()
        }
        return left

    def _dir(self, controller: str) -> Path | None:
        return self.dirs.get("" if self.version == 2 else controller)

    def _apply(self, limits: CgroupLimits) -> None:
        memory = str(limits.memory_mib << 20)
        quota = str(max(1000, int(limits.cpu_cores * _CPU_PERIOD_US)))
        if self.version == 2:
            directory = self.dirs[""]
            _write(directory / "memory.max", memory)
            if (directory / "memory.swap.max").exists():
                _write(directory / "memory.swap.max", "0")
            _write(directory / "pids.max", str(limits.max_processes))
            _write(directory / "cpu.max", f"{quota} {_CPU_PERIOD_US}")
            return
        _write(self.dirs["memory"] / "memory.limit_in_bytes", memory)
        if (self.dirs["memory"] / "memory.memsw.limit_in_bytes").exists():
            _write(self.dirs["memory"] / "memory.memsw.limit_in_bytes", memory)  # no swap
        _write(self.dirs["pids"] / "pids.max", str(limits.max_processes))
        _write(self.dirs["cpu"] / "cpu.cfs_period_us", str(_CPU_PERIOD_US))
        _write(self.dirs["cpu"] / "cpu.cfs_quota_us", quota)

    def joined(self, argv: list[str]) -> list[str]:
        """``argv`` started inside this cgroup: a shell joins it, then execs ``argv``."""
        joins = "; ".join(
            f"echo $$ > {shlex.quote(str(d / 'cgroup.procs'))} || exit 125"
            for d in self.dirs.values()
        )
        return ["/bin/sh", "-c", f'{joins}; exec "$@"', "arena-cgroup-join", *argv]

    def pids(self) -> list[int]:
        """The processes in the cgroup now."""
        directory = self._dir("pids") or next(iter(self.dirs.values()))
        try:
            return [int(pid) for pid in (directory / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the bot for reaching the memory limit."""
        directory = self._dir("memory")
        if directory is None:
            return False
        events = "memory.events" if self.version == 2 else "memory.oom_control"
        try:
            lines = (directory / events).read_text().splitlines()
        except OSError:
            return False
        counts = dict(line.split() for line in lines if len(line.split()) == 2)
        return int(counts.get("oom_kill", "0")) > 0

    def kill_all(self) -> None:
        """SIGKILL every process in the cgroup (frozen first, so a forking one cannot escape
        the count), until it is empty or a few rounds passed."""
        if self.version == 2 and (self.dirs[""] / "cgroup.kill").exists():
            try:
                _write(self.dirs[""] / "cgroup.kill", "1")
            except OSError:
                pass
        freezer = self._dir("freezer") if self.version == 1 else None
        for _ in range(_KILL_ROUNDS):
            pids = self.pids()
            if not pids:
                return
            self._freeze(freezer, "FROZEN")
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self._freeze(freezer, "THAWED")  # a frozen process does not die until thawed
            time.sleep(_KILL_PAUSE_SECONDS)

    @staticmethod
    def _freeze(freezer: Path | None, state: str) -> None:
        if freezer is not None:
            try:
                _write(freezer / "freezer.state", state)
            except OSError:
                pass

    def remove(self) -> None:
        """Remove the cgroup's directories (kill its processes first with ``kill_all``)."""
        for _ in range(_KILL_ROUNDS):
            left = []
            for directory in self.dirs.values():
                try:
                    directory.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    left.append(directory)
            if not left:
                return
            time.sleep(_KILL_PAUSE_SECONDS)


def create_bot_cgroup(label: str, limits: CgroupLimits) -> BotCgroup | None:
    """A new cgroup for one bot under ``limits``, or None where the arena cannot make one.
    ``label`` (e.g. ``seat0``) only makes the name readable."""
    found = hierarchy()
    if found is None:
        return None
    name = f"{arena_tag()}-{label}-{os.urandom(4).hex()}"
    try:
        return BotCgroup(found, name, limits)
    except OSError:
        return None


def cgroup_kind() -> str | None:
    """ "cgroup v1" or "cgroup v2" if bots get cgroups on this machine, else None."""
    found = hierarchy()
    return None if found is None else found.describe()
