"""A bot that attacks the arena, its opponents or the machine, one attack per HOSTILE_MODE.

    HOSTILE_MODE=MODE python hostile.py

It plays random legal actions, except where its mode says otherwise; attacks that look for
something write what they found to stderr (the seat's log) as lines starting with "FOUND",
"REACHED", "KILLED" or "OPENED", and attacks that fail write what stopped them, so a test can
read the log. Every attack is bounded (a fork bomb is 200 sleepers, a memory hog stops at
HOSTILE_MIB), so that running one unsandboxed by mistake does not endanger the machine; still,
tests run them in the sandbox only.

Modes: hang-handshake, hang-start, hang-decide, hang-end, exit-midgame, index-out-of-range,
index-negative, stale-number, malformed-reply, raise-in-decide, slow-start (HOSTILE_DELAY
seconds before listening), memory-hog, memory-split, fork-bomb, stdout-flood, setsid-escape,
spy-tokens, call-other-seat, signal-others, open-database (HOSTILE_DB), seek-seed, huge-reply,
ignore-sigterm, many-children, socket-link, inspect (HOSTILE_PORT: a TCP port on the host to try),
disk-fill, fallocate, deep-tree (HOSTILE_DEPTH), kernel, list-tmp.
"""

import glob
import os
import random
import signal
import struct
import subprocess
import sys
import threading
import time
import tomllib
from concurrent import futures
from pathlib import Path

import grpc

from arena.bot.v1 import bot_pb2

MODE = os.environ["HOSTILE_MODE"]
MY_TOKEN = os.environ["ARENA_BOT_TOKEN"]
ADDRESS = os.environ["ARENA_BOT_ADDRESS"]
ATTACK_AT = 2  # the decision (of this seat, from 0) at which a mid-game attack happens
SLEEPER = ["sleep", "600"]
rng = random.Random(int(os.environ.get("ARENA_BOT_SEED", "0")))
decisions = 0
children: list[subprocess.Popen] = []  # kept referenced: they must live until the sandbox ends


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def hang() -> None:
    time.sleep(3600)


# --- attacks that look for secrets or other seats --------------------------------------------


def visible_pids() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def read_proc(pid: int, name: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/{name}").read_bytes()
    except OSError:
        return b""


def spy_tokens() -> None:
    pids = visible_pids()
    say(f"visible pids: {len(pids)}")
    for pid in pids:
        for variable in read_proc(pid, "environ").split(b"\0"):
            if (
                variable.startswith(b"ARENA_BOT_TOKEN=")
                and variable.split(b"=", 1)[1] != MY_TOKEN.encode()
            ):
                say(f"FOUND token of pid {pid}: {variable.decode()}")


def seek_seed() -> None:
    """Write everything that could hold the game's seed to the log: every command line and
    environment this bot can see, and the names and contents of small files it can find."""
    for pid in visible_pids():
        for name in ("cmdline", "environ"):
            text = read_proc(pid, name).replace(b"\0", b" ").decode(errors="replace")
            say(f"{name} {pid}: {text}")
    roots = [
        "/tmp",
        os.environ.get("HOME", "/"),
        str(Path.cwd().parent),
        "/run",
        "/var",
        "/root",
        "/home",
        "/work",
        "/etc",
        str(Path(ADDRESS.removeprefix("unix:")).parent.parent),
    ]
    seen = 0
    for root in roots:
        for directory, _, files in os.walk(root):
            for name in files:
                path = Path(directory, name)
                seen += 1
                if seen > 20000:
                    return
                try:
                    if path.stat().st_size < 1 << 20:
                        say(f"file {path}: {path.read_bytes()[:256]!r}")
                except OSError:
                    pass


def call_other_seat() -> None:
    own = Path(ADDRESS.removeprefix("unix:"))
    guesses = set(glob.glob("/tmp/**/*.sock", recursive=True))
    guesses |= set(glob.glob(str(own.parent.parent / "*" / "*.sock")))
    guesses |= {str(own.parent.parent / f"seat{n}" / f"seat{n}.sock") for n in range(5)}
    guesses |= {str(own.parent / f"seat{n}.sock") for n in range(5)}
    guesses.discard(str(own))
    say(f"trying {len(guesses)} socket paths")
    for path in sorted(guesses):
        channel = grpc.insecure_channel(f"unix:{path}")
        try:
            grpc.channel_ready_future(channel).result(timeout=0.2)
            say(f"REACHED {path}")
        except grpc.FutureTimeoutError:
            pass
        finally:
            channel.close()


def signal_others() -> None:
    for pid in visible_pids():
        if pid in (os.getpid(), 1, os.getppid()):
            continue
        try:
            os.kill(pid, signal.SIGKILL)
            say(f"KILLED {pid}: {read_proc(pid, 'cmdline')[:80]!r}")
        except OSError as exc:
            say(f"cannot signal {pid}: {exc}")


def open_database() -> None:
    target = os.environ["HOSTILE_DB"]
    try:
        with open(target, "r+b") as db:
            db.seek(0)
            db.write(b"pwned by a bot")
        say(f"OPENED {target} for writing")
    except OSError as exc:
        say(f"cannot open {target}: {exc}")
    try:
        Path(target).read_bytes()
        say(f"OPENED {target} for reading")
    except OSError as exc:
        say(f"cannot read {target}: {exc}")


def inspect() -> None:
    """What the sandbox looks like from inside: uid, environment, network, writable places."""
    import socket

    say(f"uid {os.getuid()} gid {os.getgid()}")
    say(f"env {sorted(os.environ)}")
    if "HOSTILE_ECHO" in os.environ:
        say(f"echo {os.environ['HOSTILE_ECHO']!r}")
    port = int(os.environ.get("HOSTILE_PORT", "0"))
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        say(f"REACHED tcp 127.0.0.1:{port}")
    except OSError as exc:
        say(f"cannot reach tcp 127.0.0.1:{port}: {exc}")
    for directory in (
        Path.cwd(),
        Path(sys.prefix),
        Path("/usr"),
        Path("/tmp"),
        Path(os.environ["HOME"]),
    ):
        try:
            (directory / "hostile-was-here").write_text("x")
            say(f"WROTE {directory}")
        except OSError as exc:
            say(f"cannot write {directory}: {exc.strerror}")


# --- attacks on resources ---------------------------------------------------------------------


def memory_hog() -> None:
    limit = int(os.environ.get("HOSTILE_MIB", "1024"))
    chunks = []
    for mib in range(0, limit, 16):
        chunks.append(bytearray(16 << 20))  # zero-filled: every page is touched
        say(f"allocated {mib + 16} MiB")
    say("memory-hog: allocated everything")


def memory_split() -> None:
    each = 200
    code = (
        f"import sys, time; block = bytearray({each} << 20); print('ok', flush=True); "
        "time.sleep(600)"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE) for _ in range(4)
    ]
    children.extend(procs)
    said_ok = [proc for proc in procs if proc.stdout.readline().strip() == b"ok"]
    # A child the OOM killer takes after its "ok" (to make room for the next) said it all the
    # same: count those still alive once the kernel has had time to act.
    time.sleep(1)
    alive = sum(proc.poll() is None for proc in said_ok)
    say(f"memory-split: {alive} of 4 children hold {each} MiB at once")


def fork_bomb() -> None:
    started = 0
    for _ in range(200):
        try:
            children.append(subprocess.Popen(SLEEPER))
            started += 1
            if started % 16 == 0:
                say(f"fork-bomb: {started} sleepers so far")
        except OSError as exc:
            say(f"fork-bomb: stopped after {started} sleepers: {exc}")
            break
    say(f"fork-bomb: {started} sleepers started")


def stdout_flood() -> None:
    block = b"x" * (1 << 20)
    for _ in range(100):
        sys.stdout.buffer.write(block)
    sys.stdout.flush()


def setsid_escape() -> None:
    if os.fork() == 0:  # child: a new session, then a grandchild the bot's process never waits for
        os.setsid()
        subprocess.Popen(SLEEPER, start_new_session=True)
        os._exit(0)
    os.wait()
    say("setsid-escape: grandchild started")


def many_children() -> None:
    fork_count = 20
    for _ in range(fork_count):
        children.append(subprocess.Popen(SLEEPER))
    setsid_escape()
    say(f"many-children: {fork_count} children and a setsid grandchild started")


def writable_places() -> list[str]:
    """Where a bot may write: its socket's directory, /tmp, its home, /dev/shm; and / and /dev,
    which must not be writable at all."""
    socket_dir = os.path.dirname(ADDRESS.removeprefix("unix:"))
    return [socket_dir, "/tmp", os.environ.get("HOME", "/tmp"), "/dev/shm", "/", "/dev"]


def disk_fill() -> None:
    """Files under the file-size limit into every writable place, until the disk budget stops
    them; the bot plays on."""
    block = os.urandom(1 << 20)
    for directory in writable_places():
        written = 0
        try:
            for mib in range(int(os.environ.get("HOSTILE_MIB", "64"))):
                with open(os.path.join(directory, f"fill-{mib}"), "wb") as out:
                    out.write(block)
                written += 1
        except OSError as exc:
            say(f"disk-fill: {directory} took {written} MiB: {exc.strerror}")
        else:
            say(f"disk-fill: {directory} took {written} MiB: all")
    if os.environ.get("HOSTILE_THEN_EXIT"):
        os._exit(3)


def fallocate() -> None:
    """HOSTILE_MIB (2 GiB) allocated at once in every writable place, faster than any look at
    the disk."""
    mib = int(os.environ.get("HOSTILE_MIB", "2048"))
    for directory in writable_places():
        path = os.path.join(directory, "fallocated")
        try:
            fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
            try:
                os.posix_fallocate(fd, 0, mib << 20)
                say(f"FALLOCATED {mib} MiB in {directory}")
            finally:
                os.close(fd)
                os.unlink(path)
        except OSError as exc:
            say(f"fallocate: {directory} refused: {exc.strerror}")


def deep_tree() -> None:
    """Thousands of nested directories where the arena must clean up (a bot run with
    --sandbox none writes in the match's directory), made read-only at the bottom."""
    directory = os.path.dirname(ADDRESS.removeprefix("unix:"))
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(int(os.environ.get("HOSTILE_DEPTH", "3000"))):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(os.open("stuck", os.O_CREAT | os.O_WRONLY, 0o400, dir_fd=fd))
    os.fchmod(fd, 0o500)
    os.close(fd)
    say("deep-tree: made")


def list_tmp() -> None:
    say(f"in /tmp: {sorted(os.listdir('/tmp'))}")


# --- attacks on the kernel --------------------------------------------------------------------

# System call numbers the libc has no function for, by machine.
_SYSCALLS = {
    "x86_64": {"keyctl": 250, "bpf": 321, "perf_event_open": 298},
    "aarch64": {"keyctl": 219, "bpf": 280, "perf_event_open": 241},
}


def kernel() -> None:
    """Everything a bot must not do to the kernel: write sysctls, make user namespaces, mount,
    open raw sockets, use keyrings, BPF, perf; read root-only files; and where it maps to on
    the host (its uid_map)."""
    import ctypes
    import socket

    libc = ctypes.CDLL(None, use_errno=True)
    say("uid_map " + Path("/proc/self/uid_map").read_text().strip())
    say("gid_map " + Path("/proc/self/gid_map").read_text().strip())
    for name in ("kernel/core_pattern", "fs/lease-break-time", "kernel/hostname"):
        path = Path("/proc/sys", name)
        try:
            value = path.read_bytes()
            with open(path, "wb") as knob:
                knob.write(value)
            say(f"WROTE /proc/sys/{name}")
        except OSError as exc:
            say(f"cannot write /proc/sys/{name}: {exc.strerror}")
    for what, call in (
        ("user namespace", lambda: libc.unshare(0x10000000)),
        ("mount namespace", lambda: libc.unshare(0x00020000)),
        ("tmpfs mount", lambda: libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
    ):
        if call() == 0:
            say(f"MADE {what}")
        else:
            say(f"cannot make {what}: {os.strerror(ctypes.get_errno())}")
    numbers = _SYSCALLS.get(os.uname().machine, {})
    for name, number in numbers.items():
        if libc.syscall(number, 0, 0, 0, 0, 0) == -1 and ctypes.get_errno() in (1, 38):
            say(f"cannot call {name}: {os.strerror(ctypes.get_errno())}")
        else:
            say(f"CALLED {name}")
    try:
        socket.socket(socket.AF_PACKET, socket.SOCK_RAW).close()
        say("OPENED a packet socket")
    except OSError as exc:
        say(f"cannot open a packet socket: {exc.strerror}")
    try:  # vsock (family 40) is outside the network namespace: the hypervisor, the whole VM
        socket.socket(40, socket.SOCK_STREAM).close()
        say("OPENED a vsock socket")
    except OSError as exc:
        say(f"cannot open a vsock socket: {exc.strerror}")
    for private in ("/etc/ssl/private",):
        try:
            say(f"LISTED {private}: {os.listdir(private)}")
        except OSError as exc:
            say(f"cannot list {private}: {exc.strerror}")
    marker = Path("/tmp/setuid-file")
    marker.write_text("#!/bin/sh\n")
    os.chmod(marker, 0o4755)
    info = marker.stat()
    say(f"setuid file owned by uid {info.st_uid} mode {oct(info.st_mode)}")
    say("kernel: done")
    time.sleep(float(os.environ.get("HOSTILE_DELAY", "0")))  # for a look from the host


def locks() -> None:
    """Signal through what every sandbox sees: a lock on a shared read-only file (another
    seat's bot tests it to read a bit: outside review), a watch on it (inotify, dnotify)."""
    import ctypes
    import fcntl

    shared = "/usr/bin/env"
    first, second = os.open(shared, os.O_RDONLY), os.open(shared, os.O_RDONLY)
    fcntl.flock(first, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:  # a lock of another open file of it: as another process's would, it conflicts
        fcntl.flock(second, fcntl.LOCK_EX | fcntl.LOCK_NB)
        say("flock: no lock held")
    except OSError as exc:
        say(f"LOCKED: flock {exc.strerror}")
    # fcntl's locks of open files (OFD): as flock's, another open file's lock conflicts (a
    # process's own F_SETLK locks never conflict with each other, another process's do)
    record = struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0)  # struct flock (x86_64, arm64)
    fcntl.fcntl(first, fcntl.F_OFD_SETLK, record)
    probe = struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0)
    seen = struct.unpack("hhqqi", fcntl.fcntl(second, fcntl.F_OFD_GETLK, probe))
    say(f"fcntl: {'no lock held' if seen[0] == fcntl.F_UNLCK else 'LOCKED: a read lock seen'}")
    libc = ctypes.CDLL(None, use_errno=True)
    watcher = libc.inotify_init1(0)
    if watcher >= 0 and libc.inotify_add_watch(watcher, shared.encode(), 0x20) >= 0:  # IN_OPEN
        say("WATCHING with inotify")
    else:
        say(f"cannot watch: {os.strerror(ctypes.get_errno())}")
    try:
        fcntl.fcntl(os.open("/usr/bin", os.O_RDONLY), fcntl.F_NOTIFY, fcntl.DN_ACCESS)
        say("WATCHING with dnotify")
    except OSError as exc:
        say(f"cannot dnotify: {exc.strerror}")
    say("locks: done")


ATTACKS = {
    "locks": locks,
    "spy-tokens": spy_tokens,
    "seek-seed": seek_seed,
    "call-other-seat": call_other_seat,
    "signal-others": signal_others,
    "open-database": open_database,
    "memory-hog": memory_hog,
    "memory-split": memory_split,
    "fork-bomb": fork_bomb,
    "stdout-flood": stdout_flood,
    "setsid-escape": setsid_escape,
    "many-children": many_children,
    "inspect": inspect,
    "disk-fill": disk_fill,
    "fallocate": fallocate,
    "deep-tree": deep_tree,
    "kernel": kernel,
    "list-tmp": list_tmp,
}
AT_START = ("fallocate", "deep-tree", "list-tmp", "locks")  # at StartGame, before any decision


# --- the protocol -----------------------------------------------------------------------------


class HostileBot:
    def __init__(self) -> None:
        manifest = tomllib.loads(Path("bot.toml").read_text())
        self.identity = bot_pb2.HandshakeReply(
            name=manifest["name"],
            version="1",
            protocol_version=bot_pb2.PROTOCOL_VERSION_1,
            games=manifest["games"],
        )

    def Handshake(self, request, context):
        if MODE == "hang-handshake":
            hang()
        return self.identity

    def StartGame(self, request, context):
        if MODE == "hang-start":
            hang()
        if MODE in AT_START:
            ATTACKS[MODE]()
        return bot_pb2.StartGameReply()

    def Decide(self, request, context):
        global decisions
        decisions += 1
        index = rng.randrange(len(request.legal_actions))
        number = request.decision_number
        comment = ""
        if decisions == ATTACK_AT:
            if MODE in ("hang-decide", "ignore-sigterm", "many-children"):
                if MODE == "many-children":
                    many_children()
                hang()
            elif MODE == "exit-midgame":
                say("hostile: exiting on purpose")
                os._exit(3)
            elif MODE == "index-out-of-range":
                index = len(request.legal_actions) + 5
            elif MODE == "index-negative":
                index = -1
            elif MODE == "stale-number":
                number -= 1
            elif MODE == "raise-in-decide":
                raise RuntimeError("hostile: an exception in Decide")
            elif MODE == "huge-reply":
                comment = "x" * (20 << 20)  # over the arena's 16 MiB message limit
            elif MODE in ATTACKS and MODE not in AT_START:
                ATTACKS[MODE]()
        return bot_pb2.DecisionReply(decision_number=number, action_index=index, comment=comment)

    def EndGame(self, request, context):
        if MODE == "hang-end":
            hang()
        return bot_pb2.EndGameReply()


def handlers(bot: HostileBot) -> grpc.GenericRpcHandler:
    """The service's methods; in malformed-reply mode Decide answers bytes that are no
    DecisionReply."""

    def malformed(request, context):
        return b"\xff\xff\xff\xff not a protobuf message"

    def method(function, request_type, reply_type):
        return grpc.unary_unary_rpc_method_handler(
            function,
            request_deserializer=request_type.FromString,
            response_serializer=reply_type.SerializeToString,
        )

    decide = (
        grpc.unary_unary_rpc_method_handler(
            malformed,
            request_deserializer=bot_pb2.DecisionRequest.FromString,
            response_serializer=lambda raw: raw,
        )
        if MODE == "malformed-reply"
        else method(bot.Decide, bot_pb2.DecisionRequest, bot_pb2.DecisionReply)
    )
    return grpc.method_handlers_generic_handler(
        "arena.bot.v1.Bot",
        {
            "Handshake": method(bot.Handshake, bot_pb2.HandshakeRequest, bot_pb2.HandshakeReply),
            "StartGame": method(bot.StartGame, bot_pb2.StartGameRequest, bot_pb2.StartGameReply),
            "Decide": decide,
            "EndGame": method(bot.EndGame, bot_pb2.EndGameRequest, bot_pb2.EndGameReply),
        },
    )


def link_to_other_seat() -> None:
    """Instead of listening, leave at its address a link to the other seat's socket, so that the
    arena would call the other seat as this one."""
    own = Path(ADDRESS.removeprefix("unix:"))
    os.symlink(own.parent.parent / "seat1" / "seat1.sock", own)
    say("socket-link: linked my address to seat 1's socket")
    hang()


def main() -> None:
    if MODE == "socket-link":
        link_to_other_seat()
    if MODE == "ignore-sigterm":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if MODE == "slow-start":
        time.sleep(float(os.environ["HOSTILE_DELAY"]))
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    server.add_generic_rpc_handlers([handlers(HostileBot())])
    server.add_insecure_port(ADDRESS)
    server.start()
    threading.Event().wait()


if __name__ == "__main__":
    main()
