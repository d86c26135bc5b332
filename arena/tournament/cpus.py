"""Which cores each worker process (``--workers N``) or Ray actor runs on: a share of its own,
which the bots it starts inherit.

A decision is a chain of short hops between the referee's thread and one bot's threads. Left to
itself, the scheduler moves those threads between cores at almost every hop; on the 2-core
virtual machines measured (docs/scale.md, "Eighth pass") that doubled the CPU and the wall time
of a gRPC round trip. Two workers kept to their own cores with their bots played 8 concurrent
matches 12-20% faster than the same workers left free, and 11-40% faster than one process.

A Ray actor (one game slot, placed by Ray) cannot know how many others share its machine: it
claims a core instead (``claimed_core``), one each in turn, as workers' shares go when they
outnumber the cores.

The share is a placement, not a limit: a bot may widen its own affinity, as any process may. What
bounds a bot's CPU is the sandbox's cgroup quota (``arena.sandbox.cgroups``).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Collection, Sequence
from pathlib import Path

from arena.errors import SetupError
from arena.tournament.node_dirs import node_directory

Share = frozenset[int]


SYSFS_CPUS = Path("/sys/devices/system/cpu")
CLAIMS_NAME = "arena-core-claims"  # in the temp directory: one claim file per slot
_MAX_CLAIMS = 4096


def by_core(cpus: Collection[int], sysfs: Path = SYSFS_CPUS) -> list[int]:
    """``cpus`` ordered by package and physical core (Linux's topology files), so that the
    hyperthreads of one core come next to each other and land in one share; by number where
    the topology cannot be read."""
    try:
        keys = {
            cpu: tuple(
                int((sysfs / f"cpu{cpu}" / "topology" / name).read_text())
                for name in ("physical_package_id", "core_id")
            )
            for cpu in cpus
        }
    except (OSError, ValueError):
        return sorted(cpus)
    return sorted(cpus, key=lambda cpu: (*keys[cpu], cpu))


def shares(count: int, cpus: Sequence[int]) -> list[Share]:
    """``count`` shares of ``cpus``: contiguous blocks in the order given, as even as can be;
    with fewer cores than shares, one core each in turn."""
    ordered = list(cpus)
    if not ordered or count < 1:
        raise ValueError(f"cannot share {len(ordered)} core(s) among {count}")
    if count >= len(ordered):
        return [frozenset({ordered[i % len(ordered)]}) for i in range(count)]
    return [
        frozenset(ordered[i * len(ordered) // count : (i + 1) * len(ordered) // count])
        for i in range(count)
    ]


def worker_shares(count: int, pin: bool = True) -> Sequence[Share | None]:
    """Each of ``count`` workers' cores (None: wherever the scheduler puts it): shares of the
    cores this process may run on, if ``pin`` and there are at least two."""
    allowed = _allowed()
    if not pin or len(allowed) < 2:
        return [None] * count
    return shares(count, by_core(allowed))


def _allowed() -> set[int]:
    try:
        return os.sched_getaffinity(0)
    except (AttributeError, OSError):  # not Linux
        return set()


def claimed_core(directory: Path | None = None) -> tuple[Share | None, int | None]:
    """A core for a process that shares the machine with an unknown number of others like it:
    claim ``j``, the lowest no living process holds, is on core ``j mod N`` (of the ``N`` this
    process may use, in ``by_core`` order). A claim is an exclusive flock on its file, held
    until the returned descriptor is closed or the process ends (the kernel drops it, also on
    kill -9). ``(None, None)`` with one core, or where no claim can be made (a claims directory
    planted by another user: ``arena.tournament.node_dirs``)."""
    ordered = by_core(_allowed())
    if len(ordered) < 2:
        return None, None
    try:
        directory = directory or node_directory(CLAIMS_NAME, 0o700)
    except SetupError:
        return None, None
    for claim in range(_MAX_CLAIMS):
        try:
            held = os.open(directory / f"claim-{claim}", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW)
        except OSError:
            return None, None
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a living process's
            os.close(held)
            continue
        return frozenset({ordered[claim % len(ordered)]}), held
    return None, None


def keep_to(share: Share | None, pid: int | None = None) -> None:
    """Keep this process (or process ``pid``) to ``share``: every thread it has. Threads and
    child processes started later inherit the mask of the thread that starts them."""
    if share is None:
        return
    try:
        threads = [int(tid) for tid in os.listdir(f"/proc/{pid or 'self'}/task")]
    except OSError:
        threads = [pid or 0]  # 0: the calling thread
    for thread in threads:
        try:
            os.sched_setaffinity(thread, share)
        except OSError:
            pass  # a thread that ended meanwhile, or cores this process may not use
