"""How a local bot's process is confined: a bubblewrap sandbox (``arena.sandbox.bwrap``), a cgroup
with limits for all its processes together (``arena.sandbox.cgroups``), rlimits where cgroups
cannot be made, and the arena's temp directories (``arena.sandbox.tempdirs``).

``SandboxPolicy`` is what the operator chose (``--sandbox bwrap|none``, ``--allow-network``);
``prepare_launch`` turns it into one bot's command line and environment, and the returned
``BotLaunch`` explains a limit the bot hit and removes what it made after the game.
"""

from __future__ import annotations

import functools
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import SetupError
from arena.sandbox import bwrap, cgroups, seccomp
from arena.sandbox.limits import BotLimits, limited_argv, prlimit_path
from arena.sandbox.uids import UidLease, lease_host_uid

_RELAY = Path(__file__).with_name("relay.py")


def start_relay(
    listen: Path,
    upstream: str,
    tied: Callable[[list[str]], list[str]],
    cgroup: cgroups.BotCgroup | None = None,
) -> subprocess.Popen:
    """Start a filter of a bot's HTTP/2 (``arena.sandbox.relay``) listening on ``listen`` (made
    here, so the arena may connect at once; an earlier file there is replaced) and relaying to
    ``upstream`` (a Unix socket's path, or HOST:PORT); ``tied`` wraps its command line (a tie to
    the arena), and it runs in ``cgroup`` if given."""
    listen.unlink(missing_ok=True)  # a bot of this seat before, as its link (sockets.py)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(listen))
        listener.listen(16)
        # the file alone, as a script (-I -S: no site, no environment): a few MB, 20 ms
        argv = tied([sys.executable, "-I", "-S", str(_RELAY), str(listener.fileno()), upstream])
        return subprocess.Popen(
            cgroup.joined(argv) if cgroup is not None else argv,
            pass_fds=(listener.fileno(),),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a terminal's Ctrl-C is the arena's to handle
        )
    finally:
        listener.close()


# A remote bot's filter runs beside the arena, in no bot's cgroup: where the arena may make
# cgroups it gets one of its own, so that a remote bot's flood (up to the filter's budget, and
# again on each connection it makes) takes at most half a core of the arena's machine (outside
# review E3: a remote stream of zero bytes kept a core busy). Threads: the filter starts two per
# connection, and gRPC connects every 0.1 s or so while a handshake waits on a silent address.
REMOTE_RELAY_LIMITS = cgroups.CgroupLimits(memory_mib=128, max_processes=512, cpu_cores=0.5)


def start_remote_relay(
    listen: Path, upstream: str, tied: Callable[[list[str]], list[str]], label: str
) -> tuple[subprocess.Popen, cgroups.BotCgroup | None]:
    """``start_relay`` for a remote bot at ``upstream`` (HOST:PORT), in a cgroup of its own under
    ``REMOTE_RELAY_LIMITS`` where the arena may make one (``label`` names it; the caller removes
    it once the relay is gone)."""
    cgroup = cgroups.create_bot_cgroup(label, REMOTE_RELAY_LIMITS)
    try:
        return start_relay(listen, upstream, tied, cgroup), cgroup
    except BaseException:
        if cgroup is not None:
            cgroup.remove()
        raise


TOOLS = ("bwrap", "none")
DEFAULT_MAX_PROCESSES = 128
DEFAULT_CPU_CORES = 1.0


class SandboxUnavailableError(SetupError):
    """The sandbox asked for cannot be made on this machine; one line saying why."""


@dataclass(frozen=True)
class SandboxPolicy:
    """The operator's choice for every local bot of a match or tournament."""

    tool: str = "bwrap"  # "bwrap": a sandbox per bot; "none": the arena's user, environment, files
    allow_network: bool = False  # a bot whose bot.toml has `network = true` gets the host's
    max_processes: int = DEFAULT_MAX_PROCESSES  # processes + threads of one bot (cgroup, NPROC)
    cpu_cores: float = DEFAULT_CPU_CORES  # CPU share of one bot (cgroups only)
    # Its HTTP/2 read through a filter in its cgroup (``relay.py``); off: a benchmark's yardstick
    filter_frames: bool = True

    def __post_init__(self) -> None:
        if self.tool not in TOOLS:
            raise SetupError(f"sandbox must be one of {', '.join(TOOLS)}, not {self.tool!r}")


@functools.cache
def bwrap_problem() -> str | None:
    """Why no bubblewrap sandbox can be made here (one line), or None if one can: bwrap is
    missing, or it fails to make a trivial sandbox (e.g. user namespaces are disabled)."""
    if bwrap.bwrap_path() is None:
        return (
            "bubblewrap (bwrap) is not installed: bots cannot be sandboxed "
            "(install the `bubblewrap` package, or run scripts/setup as root)"
        )
    # The sandbox's own shape (as root: the drop of privileges too), with the system's programs
    # as its view.
    kind, fds = _sandbox_fds({})
    try:
        lease = _lease_for(kind)
    except SetupError as exc:
        for fd in fds:
            os.close(fd)
        return f"bubblewrap cannot make a sandbox here: {exc}"
    probe = bwrap.probe_argv(
        ["/bin/true"],
        kind=kind,
        env_fd=fds[0],
        seccomp_fd=_filter_fd(fds),
        host_uid=None if lease is None else lease.uid,
    )
    try:
        done = subprocess.run(probe, capture_output=True, timeout=10, pass_fds=fds)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap cannot make a sandbox here: {exc}"
    finally:
        for fd in fds:
            os.close(fd)
        if lease is not None:
            lease.release()
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bubblewrap cannot make a sandbox here: {why[-1] if why else done.returncode}"
    return None


def check_available(policy: SandboxPolicy) -> None:
    """Raise SandboxUnavailableError if ``policy`` asks for a sandbox this machine cannot make."""
    if policy.tool == "bwrap" and (problem := bwrap_problem()) is not None:
        raise SandboxUnavailableError(problem)


# Entries of a bot's directory looked at before giving up the check (node_modules holds thousands).
_READABLE_CHECK_LIMIT = 200_000


def unreadable_problem(directory: Path, policy: SandboxPolicy | None) -> str:
    """Why the bot of ``directory`` could not read its own files in its sandbox, in one line
    that says what to do, or "". As root the sandbox runs the bot (and its build) as a uid of
    its own, which reads the directory as any other user does: every directory must be open
    to others and every file readable (a directory made under ``umask 077`` is not). Without
    root the bot's uid is the arena user's, so nothing needs checking."""
    if policy is None or policy.tool != "bwrap" or os.geteuid() != 0:
        return ""
    looked_at = 0
    for root, directories, files in os.walk(directory):
        # each directory once: as "." where it is the root, not again as its parent's entry
        for name in [*(["."] if Path(root) == directory else []), *directories, *files]:
            path = Path(root) / name
            looked_at += 1
            if looked_at > _READABLE_CHECK_LIMIT:
                return ""
            try:
                mode = path.lstat().st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                continue
            wanted = stat.S_IROTH | (
                stat.S_IXOTH if stat.S_ISDIR(mode) or mode & stat.S_IXUSR else 0
            )
            if mode & wanted != wanted:
                shown = Path(root) if name == "." else path
                return (
                    f"{directory}: the sandbox runs the bot as a user of its own, which cannot "
                    f"{'open' if stat.S_ISDIR(mode) else 'read'} {shown}: run "
                    f"`chmod -R a+rX {directory}`"
                )
    return ""


def _cgroup_limits(policy: SandboxPolicy, limits: BotLimits) -> cgroups.CgroupLimits:
    return cgroups.CgroupLimits(
        memory_mib=limits.memory_mib, max_processes=policy.max_processes, cpu_cores=policy.cpu_cores
    )


def describe_limits(policy: SandboxPolicy, limits: BotLimits) -> str:
    """One line: the sandbox and the limits each local bot runs under on this machine."""
    if policy.tool == "bwrap":
        network = "network if its bot.toml asks" if policy.allow_network else "no network"
        where = f"sandbox bwrap ({network})"
        if seccomp.filter_problem() is not None:
            where += ", no seccomp filter: libseccomp2 is missing"
    else:
        where = "no sandbox"
    kind = cgroups.cgroup_kind()
    if kind is not None:
        cores = f"{policy.cpu_cores:g} CPU core" + ("" if policy.cpu_cores == 1 else "s")
        memory = (
            f"each bot with all its processes: memory {limits.memory_mib} MiB, "
            f"{policy.max_processes} processes/threads, {cores} ({kind})"
        )
    elif prlimit_path() is not None and policy.tool == "bwrap" and bwrap.runs_as_root():
        memory = (
            f"address space {limits.memory_mib} MiB per process, {policy.max_processes} "
            "processes/threads (rlimits on the sandbox's own uid; no cgroups: no CPU limit)"
        )
    elif prlimit_path() is not None:
        memory = (
            f"address space {limits.memory_mib} MiB per process (rlimit; no cgroups: "
            f"no process or CPU limit)"
        )
    else:
        memory = "no memory, process or CPU limit"
    files = (
        f"files up to {limits.file_mib} MiB (rlimit)"
        if prlimit_path() is not None
        else "no file-size limit"
    )
    if policy.tool == "bwrap":  # each writable place of the sandbox is a capped tmpfs
        files += f", {limits.disk_mib} MiB in each writable directory (tmpfs)"
    return f"bots: {where}; {memory}; {files}"


@dataclass
class BotLaunch:
    """How one bot is started, and what to undo after it: its command line and environment,
    the file descriptors it inherits, its cgroup (if any)."""

    argv: list[str]
    env: dict[str, str]
    sandboxed: bool
    limits: BotLimits
    cgroup: cgroups.BotCgroup | None = None
    address_space_limited: bool = False  # memory limited per process (no cgroup)
    pass_fds: tuple[int, ...] = ()  # what bwrap reads at start: the environment, the filter
    depth: int = 1  # how far below the started process (bwrap) the sandbox's init is
    # Held on the sandbox's writable tmpfs once it is up, to tell why the bot stopped.
    writable_fds: dict[str, int] = field(default_factory=dict)
    socket_fd: int | None = None  # the bot's socket, where the arena calls it (sockets.py)
    filter_frames: bool = False  # read the bot's HTTP/2 through ``start_relay``
    relay: subprocess.Popen[bytes] | None = None  # its frames' filter (relay.py, ``start_relay``)
    uid_lease: UidLease | None = None  # as root: the sandbox's host uid, held until ``close``

    def started(self) -> None:
        """The bot's process exists: the descriptors it inherited are its own now."""
        for fd in self.pass_fds:
            os.close(fd)
        self.pass_fds = ()

    def sandbox_pid(self, pid: int) -> int | None:
        """The sandbox's init, whose root is the bot's view, for the started process ``pid``
        (bwrap), or None while the sandbox is not made yet (or is gone)."""
        return _descendant(pid, self.depth) if self.sandboxed else None

    def program_pids(self, pid: int) -> list[int]:
        """The bot's own program (the sandbox init's children) for the started process ``pid``;
        without a sandbox, ``pid`` itself."""
        if not self.sandboxed:
            return [pid]
        init = self.sandbox_pid(pid)
        return [] if init is None else _children(init)

    def hold_writable(self, init: int) -> None:
        """Keep a handle on each writable tmpfs of the sandbox of ``init``, to tell later
        whether the bot filled one."""
        for path in bwrap.WRITABLE:
            if path not in self.writable_fds:
                try:
                    self.writable_fds[path] = os.open(
                        f"/proc/{init}/root{path}", os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW
                    )
                except OSError:
                    pass  # gone already: then nothing to tell

    def full_directory(self) -> str:
        """The first writable directory of the sandbox the bot filled to its disk budget, or
        "" (a tmpfs is full when not one more block is free)."""
        for path, fd in self.writable_fds.items():
            try:
                if os.fstatvfs(fd).f_bavail == 0:
                    return path
            except OSError:
                continue
        return ""

    def exit_code_to_signal(self, code: int) -> int:
        """bwrap reports a command killed by signal N as exit code 128 + N: the negative code
        ``subprocess`` uses for a signal, as if the bot were the process started."""
        return -(code - 128) if self.sandboxed and 128 < code < 128 + 65 else code

    def limit_hit(self) -> str:
        """The cgroup limit the bot ran into, or "" (rlimits are explained by the caller)."""
        if self.cgroup is not None and self.cgroup.out_of_memory():
            return (
                f"out of memory under the {self.limits.memory_mib} MiB memory limit "
                f"(all its processes together)"
            )
        if full := self.full_directory():
            return f"it filled {full} to the {self.limits.disk_mib} MiB disk limit"
        return ""

    def start_relay(
        self, listen: Path, upstream: Path, tied: Callable[[list[str]], list[str]]
    ) -> None:
        """Start the filter of the bot's HTTP/2 (``arena.sandbox.relay``) in the bot's cgroup,
        where its work counts as the bot's: listening on ``listen`` (made here, so the arena may
        connect at once), relaying to the bot's socket at ``upstream``; ``tied`` makes its
        command line one that dies with the arena, as the bot's does."""
        self.relay = start_relay(listen, str(upstream), tied, self.cgroup)

    def close(self) -> None:
        """Kill whatever is left in the bot's cgroup, remove the cgroup, close what is held,
        and last free the sandbox's host uid (its processes are gone)."""
        self.started()
        for fd in self.writable_fds.values():
            os.close(fd)
        self.writable_fds.clear()
        if self.socket_fd is not None:
            os.close(self.socket_fd)
            self.socket_fd = None
        if self.relay is not None:
            self.relay.kill()
            self.relay.wait()
            self.relay = None
        if self.cgroup is not None:
            self.cgroup.kill_all()
            self.cgroup.remove()
        if self.uid_lease is not None:
            self.uid_lease.release()


def _children(pid: int) -> list[int]:
    try:
        return [
            int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]
    except OSError:
        return []  # gone


def _descendant(pid: int, depth: int) -> int | None:
    """The process ``depth`` generations below ``pid`` along first children, or None."""
    for _ in range(depth):
        children = _children(pid)
        if not children:
            return None
        pid = children[0]
    return pid


def _sandbox_fds(env: dict[str, str]) -> tuple[str, tuple[int, ...]]:
    """The kind of sandbox this arena makes (``bwrap.sandbox_kind``) and what bwrap reads at
    start: the bot's environment (``env``) and, where libseccomp is, the filter."""
    program = seccomp.filter_program()
    kind = bwrap.sandbox_kind(filtered=program is not None)
    env_fd = _memfd("arena-bot-env", bwrap.env_payload(env, kind))
    if program is None:
        return kind, (env_fd,)
    return kind, (env_fd, _memfd("arena-seccomp", program))


def _lease_for(kind: str) -> UidLease | None:
    """As root, a host uid of the sandbox's own (``arena.sandbox.uids``); else None (an
    ordinary user's sandbox maps to that user)."""
    return None if kind == bwrap.UNPRIVILEGED else lease_host_uid()


def _filter_fd(fds: tuple[int, ...]) -> int | None:
    return fds[1] if len(fds) > 1 else None


def _memfd(name: str, data: bytes) -> int:
    """An anonymous file holding ``data``, read from its start by the process that inherits it."""
    fd = os.memfd_create(name, 0)  # inheritable: bwrap reads it after the launcher chain
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def prepare_launch(
    policy: SandboxPolicy,
    argv: list[str],
    *,
    bot_dir: Path,
    seat: int,
    env: dict[str, str],
    inherited_env: dict[str, str],
    limits: BotLimits,
    wants_network: bool,
    writable_dir: Path | None = None,
) -> BotLaunch:
    """One bot's launch under ``policy``: ``argv`` (run in ``bot_dir``) in a sandbox (its socket
    in ``bwrap.SOCKET_DIR``), with the environment ``env`` (the arena's variables and the
    manifest's) and nothing more, inside a cgroup with ``limits`` where one can be made, else
    under rlimits. Without a sandbox the bot also inherits ``inherited_env``. With
    ``writable_dir`` the sandbox shows that directory writable in place of ``bot_dir`` (a build).
    Raises SandboxUnavailableError, and bwrap.SharedDirectoryError for a ``writable_dir`` whose
    ``bot_dir`` lies inside a directory every sandbox shows."""
    check_available(policy)
    sandboxed = policy.tool == "bwrap"
    pass_fds: tuple[int, ...] = ()
    depth = 0
    lease: UidLease | None = None
    try:
        if sandboxed:
            kind, pass_fds = _sandbox_fds(env)
            depth = bwrap.sandbox_depth(kind)
            lease = _lease_for(kind)
            argv = bwrap.bwrap_argv(
                argv,
                kind=kind,
                bot_dir=bot_dir,
                seat=seat,
                network=wants_network and policy.allow_network,
                disk_bytes=limits.disk_mib << 20,
                env_fd=pass_fds[0],
                seccomp_fd=_filter_fd(pass_fds),
                host_uid=None if lease is None else lease.uid,
                writable_dir=writable_dir,
            )
            full_env = bwrap.launch_env()
        else:
            full_env = {**inherited_env, **env}
        cgroup = cgroups.create_bot_cgroup(f"seat{seat}", _cgroup_limits(policy, limits))
    except BaseException:
        for fd in pass_fds:
            os.close(fd)
        if lease is not None:
            lease.release()
        raise
    # Where a cgroup counts the bot's memory, an address space is no measure of it (V8 reserves
    # 1 GiB at start): only the file size is an rlimit then. A uid of the sandbox's own (as
    # root) also bounds its processes where no cgroup does (root is not held to it: only the
    # bot, once setpriv has dropped to that uid).
    processes = policy.max_processes if lease is not None else None
    argv = limited_argv(argv, limits, address_space=cgroup is None, processes=processes)
    if cgroup is not None:
        argv = cgroup.joined(argv)
    return BotLaunch(
        argv,
        full_env,
        sandboxed,
        limits,
        cgroup,
        address_space_limited=cgroup is None and prlimit_path() is not None,
        pass_fds=pass_fds,
        depth=depth,
        uid_lease=lease,
        filter_frames=sandboxed and policy.filter_frames,
    )
