"""The resource limits the arena imposes on a bot process: its memory (an address space where
no cgroup counts it), the largest file it may write (which also caps its log), and the size of
each of its sandbox's writable directories (``BotLimits``; the sandbox enforces them all).

A bot's command is wrapped with util-linux ``prlimit``, which sets the limits on itself and execs
the bot: the PID, process group and exit status stay the bot's. (Setting the limits in a
``preexec_fn`` instead makes gRPC warn about forking.) Without ``prlimit`` on PATH, bots run
without limits and a warning says so once.
"""

from __future__ import annotations

import shutil
import warnings
from dataclasses import dataclass
from functools import cache

from arena.errors import SetupError
from arena.log_names import QUOTA_MIB

# Below this a bot's runtime barely starts: with 64 MiB a Python gRPC bot hangs instead of exiting.
MIN_MEMORY_MIB = 256
# Above this a limit limits nothing a machine has (16 TiB), and its bytes pass what an rlimit
# or a cgroup holds: 10^23 MiB was taken and printed as "the limit in force" (outside review).
MAX_MEMORY_MIB = 1 << 24


class LimitsUnavailableWarning(UserWarning):
    """Bots run without resource limits on this machine."""


@dataclass(frozen=True)
class BotLimits:
    # Address space (RLIMIT_AS), not resident memory: Node's V8 reserves about 1 GiB of it at start,
    # an unlimited Python gRPC bot about 700 MiB (VmPeak in /proc/PID/status).
    memory_mib: int = 4096
    file_mib: int = 64  # largest file the bot may write, its log included (RLIMIT_FSIZE)
    # Each writable directory of a sandboxed bot is a tmpfs of this size (arena.sandbox.bwrap).
    disk_mib: int = 256
    # All of a bot's kept logs in one directory (--bot-logs) together: past it its oldest logs
    # no process is writing are removed to make room (arena.referee.log_sink). Without it a bot
    # that crashes every other game would leave a new file of file_mib each time, and fill the
    # disk.
    logs_mib: int = QUOTA_MIB

    def __post_init__(self) -> None:
        if not MIN_MEMORY_MIB <= self.memory_mib <= MAX_MEMORY_MIB:
            raise SetupError(
                f"bot memory must be from {MIN_MEMORY_MIB} to {MAX_MEMORY_MIB:,} MiB, not "
                f"{self.memory_mib}"
            )
        if self.disk_mib < 1:
            raise SetupError(f"bot disk limit must be at least 1 MiB, not {self.disk_mib}")
        if self.file_mib < 1:
            raise SetupError(f"bot file size limit must be at least 1 MiB, not {self.file_mib}")
        if self.logs_mib < 0:
            raise SetupError(f"bot log quota must be at least 0 MiB, not {self.logs_mib}")


@cache
def prlimit_path() -> str | None:
    """Where ``prlimit`` is; None (with a LimitsUnavailableWarning, once) if it is not on PATH."""
    path = shutil.which("prlimit")
    if path is None:
        warnings.warn(
            "prlimit (util-linux) is not on PATH: bots run without memory and file-size limits",
            LimitsUnavailableWarning,
            stacklevel=2,
        )
    return path


def limited_argv(
    argv: list[str],
    limits: BotLimits,
    *,
    address_space: bool = True,
    processes: int | None = None,
) -> list[str]:
    """``argv`` run under ``limits`` (unchanged when ``prlimit`` is missing); without the
    address-space limit if not ``address_space`` (where a cgroup counts the bot's memory);
    with at most ``processes`` processes and threads of its uid (RLIMIT_NPROC: counted per
    user, so only for a sandbox whose uid is its own, ``arena.sandbox.uids``)."""
    prlimit = prlimit_path()
    if prlimit is None:
        return argv
    memory = [f"--as={limits.memory_mib << 20}"] if address_space else []
    count = [f"--nproc={processes}"] if processes is not None else []
    return [prlimit, *memory, *count, f"--fsize={limits.file_mib << 20}", "--", *argv]
