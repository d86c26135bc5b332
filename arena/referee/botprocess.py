"""Start a local bot process, wait until it answers the handshake, and stop its process group.

The arena passes the bot three environment variables (README, "Write a bot"):
``ARENA_BOT_ADDRESS`` (where to listen), ``ARENA_BOT_TOKEN`` (a secret sent with every call) and
``ARENA_BOT_SEED`` (for the bot's own randomness; derived from the game seed by a hash, so the bot
cannot learn the game seed from it). Each bot runs in its own session (process group) so that
stopping it also stops whatever it started, under the resource limits of ``limits``, and tied
to the arena (``child``): it dies when the arena dies.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import grpc
import trio

from arena.bot.v1 import bot_pb2
from arena.errors import AnsweredTwiceError, HandshakeMismatchError, NotReadyError
from arena.log_names import kept_log_bytes, kept_log_names, numbered
from arena.manifest import BotSpec, plays
from arena.protocol import PROTOCOL_VERSION
from arena.referee.bot_text import REASON_LIMIT, one_line
from arena.referee.child import ChildProcess, start_tied, tied_to_parent
from arena.referee.client import BotClient
from arena.referee.log_sink import LogSink, create_log, log_budget
from arena.referee.probe import LOOK_SECONDS, socket_answer, unreachable
from arena.sandbox import (
    BotLaunch,
    SandboxPolicy,
    prepare_launch,
    start_remote_relay,
)
from arena.sandbox.cgroups import BotCgroup
from arena.sandbox.limits import BotLimits, limited_argv, prlimit_path
from arena.sandbox.relay import EXIT_FLOODED, FLOODED, SECOND_REPLY
from arena.sandbox.sockets import NotASocketError, link_socket, open_socket, sandbox_address

_UNIX_PATH_MAX = 107


def bot_seed(game_seed: int, seat: int, bot_name: str) -> int:
    """The seed handed to the bot in ``seat``: reproducible, but not invertible to the game seed."""
    digest = hashlib.blake2b(
        f"{game_seed}/{seat}/{bot_name}".encode(), person=b"arena-bot-seed", digest_size=8
    ).digest()
    return int.from_bytes(digest, "big") >> 1


def _listen_address(workdir: Path, seat: int) -> str:
    """A Unix socket in the match's private directory, or TCP loopback where that cannot be."""
    path = workdir / f"seat{seat}.sock"
    if hasattr(socket, "AF_UNIX") and len(str(path)) <= _UNIX_PATH_MAX:
        path.unlink(missing_ok=True)  # a bot's earlier socket: Node refuses to bind over it
        return f"unix:{path}"
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


# Last lines of output like these mean the bot ran out of memory: Python (an allocation, or a
# thread's stack), Node/V8 ("Fatal process OOM in ..."), C++, C.
_OUT_OF_MEMORY = re.compile(
    r"MemoryError|can't start new thread|out of memory|\bOOM\b|bad_alloc"
    r"|Cannot allocate memory",
    re.IGNORECASE,
)
_OUT_OF_MEMORY_LINES = 3
_LOG_TAIL_BYTES = 4096


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NOFOLLOW)


# The arena sends remote bots (NAME@HOST:PORT, `arena submit --address`) the token in this
# variable of its own environment, the token their operator started them with; unset, they get an
# empty token (docs/bots.md, "Remote bots").
REMOTE_TOKEN_VARIABLE = "ARENA_REMOTE_BOT_TOKEN"


def remote_token() -> str:
    """The token every call to a remote bot carries ("" when none is configured)."""
    return os.environ.get(REMOTE_TOKEN_VARIABLE, "")


def _argv(command: tuple[str, ...]) -> list[str]:
    # "python" in a manifest means the arena's own interpreter (it has the SDK and the engines).
    return [sys.executable if command[0] == "python" else command[0], *command[1:]]


@dataclass
class RunningBot:
    """A bot that can be called: a local process we own, or a remote address."""

    spec: BotSpec
    address: str
    token: str
    process: ChildProcess | None = None
    log: LogSink | None = None  # its stdout and stderr, drained into its log file
    log_kept: bool = False  # the log outlives the match (``--bot-logs``)
    limits: BotLimits | None = None  # as enforced; None if the bot runs without limits
    launch: BotLaunch | None = None  # its sandbox and cgroup, if started under a SandboxPolicy
    # Where the arena calls a sandboxed bot: its socket, held open and linked at ``socket_link``
    # (arena.sandbox.sockets), or the filter of its frames before it (arena.sandbox.relay).
    call_address: str | None = None
    socket_link: Path | None = None
    # A remote bot's filter (arena.sandbox.relay), a process of the arena's: killing it ends a
    # call the bot stalls. Its cgroup, where the arena may make one (REMOTE_RELAY_LIMITS).
    relay: subprocess.Popen | None = None
    relay_cgroup: BotCgroup | None = None
    stopped_by_arena: bool = False  # ``stop`` was called: how it ended says nothing of the bot

    @property
    def log_path(self) -> Path | None:
        return None if self.log is None else self.log.path

    @property
    def sandboxed(self) -> bool:
        return self.launch is not None and self.launch.sandboxed

    async def stop(self) -> None:
        """Stop a local bot's process and everything it started (a remote bot: nothing)."""
        if self.process is not None:
            self.stopped_by_arena = self.stopped_by_arena or self.process.poll() is None
            await stop_process_group(self.process, sandboxed=self.sandboxed)

    @property
    def on_stall(self) -> Callable[[], None] | None:
        """What ends a call to it that outlives its deadline (``arena.referee.stall_guard``):
        killing it, or a remote bot's relay; a remote bot read directly is no process of ours,
        so nothing."""
        if self.process is not None:
            return self.kill_now
        return self.kill_relay if self.relay is not None else None

    @property
    def frame_filter(self) -> subprocess.Popen | None:
        """The filter the arena reads its HTTP/2 through (``arena.sandbox.relay``), if any."""
        if self.relay is not None:
            return self.relay
        return self.launch.relay if self.launch is not None else None

    async def ended(self) -> None:
        """Wait until its process has ended, or a remote bot's filter; a remote bot read
        directly: not at all (callers bound the wait)."""
        if self.process is not None:
            await self.process.wait()
        elif self.relay is not None:
            while self.relay.poll() is None:
                await trio.sleep(0.01)

    @property
    def flooded(self) -> bool:
        """Whether its filter ended its connection for a flood (and exited: it takes no more)."""
        relay = self.frame_filter
        return relay is not None and relay.poll() == EXIT_FLOODED

    def kill_relay(self) -> None:
        """Kill a remote bot's relay, from any thread: its connections close, and with them any
        call to the bot."""
        assert self.relay is not None
        if self.relay.poll() is None:
            self.relay.kill()

    def kill_now(self) -> None:
        """Kill the bot's process and what it started, from any thread (a stalled call: ``arena
        .referee.stall_guard``); ``stop`` reaps it."""
        if self.process is not None and self.process.poll() is None:
            self.stopped_by_arena = True
            kill_now(self.process.pid, sandboxed=self.sandboxed)

    def terminate(self) -> None:
        """Send SIGTERM to the bot's own program, as an operator's ``kill`` would: in a sandbox
        that is the child of the sandbox's init, not bwrap (which does not pass signals on)."""
        assert self.process is not None, "a remote bot is not ours to stop"
        pids = [self.process.pid]
        if self.launch is not None:
            pids = self.launch.program_pids(self.process.pid)
        for pid in pids:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass  # already gone

    def exit_description(self) -> str | None:
        """How the process ended ("exited with code 3", "killed by SIGKILL"), None if running."""
        code = None if self.process is None else self.process.poll()
        if code is None:
            return None
        if self.launch is not None:
            code = self.launch.exit_code_to_signal(code)
        if code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exited with code {code}"

    def log_tail(self) -> tuple[int, list[str]]:
        """The log's size and its last lines that say something (Node frames its fatal errors
        with lines of a lone "#"); the log may be as large as the file-size limit."""
        if self.log is None:
            return 0, []
        size = self.log.sync()  # the last words may still be in the pipe
        try:
            with open(self.log.path, "rb", opener=_no_follow) as log:
                log.seek(max(0, size - _LOG_TAIL_BYTES))
                data = log.read(_LOG_TAIL_BYTES)
        except OSError:
            return 0, []
        text = data.decode(errors="replace")
        return size, [line for line in text.splitlines() if re.search(r"\w", line)]

    def limit_hit(self, size: int, lines: list[str]) -> str:
        """Which resource limit the bot's end and its log (``size`` bytes, ending in ``lines``)
        point to, or ""."""
        if self.launch is not None and (hit := self.launch.limit_hit()):
            return hit
        if self.limits is None:
            return ""
        if self.exit_description() == "killed by SIGXFSZ":
            return f"a file it wrote reached the {self.limits.file_mib} MiB file-size limit"
        address_space = self.launch is None or self.launch.address_space_limited
        if address_space and any(
            _OUT_OF_MEMORY.search(line) for line in lines[-_OUT_OF_MEMORY_LINES:]
        ):
            return f"out of memory under the {self.limits.memory_mib} MiB address-space limit"
        return ""

    def crash_reason(self, what: str) -> str:
        """One line: what failed, how the process ended, the error in its log (or its last
        output), the limit it hit and where its log is kept."""
        parts = [what]
        if self.flooded:
            parts.append(FLOODED)
        # a process the arena killed (a call it stalled, a handshake past its time) says nothing
        if not self.stopped_by_arena and (exit_text := self.exit_description()):
            parts.append(f"process {exit_text}")
        size, lines = self.log_tail()  # read once: the log can be as large as the file limit
        if error := error_line(lines):
            parts.append(f"error: {error}")
        elif line := _last_line(lines):
            parts.append(f"last output: {line}")
        if limit := self.limit_hit(size, lines):
            parts.append(limit)
        if self.log_kept:
            parts.append(f"log: {self.log_path}")
        return one_line("; ".join(parts), REASON_LIMIT)


# Ruby: "bot.rb:14:in 'require': cannot load such file -- grpc (LoadError)", its frames after.
_RUBY = r"\S+:\d+:in .*\([A-Z][\w:]*\)$"
# Rust: "thread 'main' panicked at src/main.rs:5:9:" (since 1.73 the message is the next line;
# since 1.88 the thread's id follows its name: "thread 'main' (1) panicked").
_RUST = r"thread '.*'(?: \(\d+\))? panicked"
# The line that states an error, in the crash output of common languages; what follows it is
# a stack (Python's traceback ends with it, but Go, Node, Java and C++ print their frames after).
_ERROR_LINE = re.compile(
    r"^(?:[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)(?::|$)"  # Python, Node: "ValueError: x"
    r"|Error(?: \[\w+\])?:"  # Node: "Error: x"
    r"|panic:|fatal error:"  # Go
    r"|Exception in thread"  # Java
    r"|terminate called"  # C++
    r"|" + _RUST + "|" + _RUBY + ")"
)
_REASON_CHARS = 200


# A runtime's own report of what ended the program: its first one is the cause, what follows
# is a consequence (the JVM's other threads failing as it shuts down, a Go re-panic).
_FIRST_CAUSE = re.compile(
    r"^(?:Exception in thread|panic:|fatal error:|" + _RUST + "|" + _RUBY + ")"
)


def error_line(lines: list[str]) -> str:
    """The line of ``lines`` (a bot's output) that states the error, shortened, or "": the first
    JVM "Exception in thread" or Go "panic:", else the last line that states an error (a
    traceback's "ValueError: ..." explains a crash, the stack frame printed after it does not)."""
    for at, line in enumerate(lines):
        if _FIRST_CAUSE.match(line):
            if line.endswith(":") and at + 1 < len(lines):  # Rust's message, on the next line
                line = f"{line} {lines[at + 1]}"
            return one_line(line, _REASON_CHARS)
    for line in reversed(lines):
        if _ERROR_LINE.match(line):
            return one_line(line, _REASON_CHARS)
    return ""


def _last_line(lines: list[str]) -> str:
    """The last line the bot wrote to stdout/stderr, shortened, to explain a crash."""
    return one_line(lines[-1], _REASON_CHARS) if lines else ""


@asynccontextmanager
async def run_bot(
    spec: BotSpec,
    seat: int,
    game_seed: int,
    workdir: Path,
    *,
    limits: BotLimits = BotLimits(),
    log_dir: Path | None = None,
    sandbox: SandboxPolicy | None = None,
    log_names: Iterable[str] | None = None,
) -> AsyncIterator[RunningBot]:
    """Start ``spec``'s process for ``seat`` under ``limits`` (a remote bot is just addressed)
    and stop its whole process group on exit, also when the surrounding scope is cancelled.
    The bot's stdout/stderr go to a new log in ``workdir``, or kept in ``log_dir`` if given
    (named by the first free one of ``log_names``, by default ``kept_log_names``), at most
    ``limits.file_mib`` MiB of it (``arena.referee.log_sink``), and a kept log no more than what
    is left of the bot's ``limits.logs_mib`` in ``log_dir``.
    With a ``sandbox`` policy the bot runs as ``arena.sandbox`` says (its socket in a directory
    of its own in ``workdir``); without one, as the arena's user with its environment."""
    if spec.address is not None:  # a remote bot
        async with _remote_bot(spec, seat, workdir, sandbox) as remote:
            yield remote
        return
    assert spec.command is not None and spec.directory is not None
    sandboxed = sandbox is not None and sandbox.tool == "bwrap"
    bot = RunningBot(
        spec,
        sandbox_address() if sandboxed else _listen_address(workdir, seat),
        secrets.token_hex(16),
        log_kept=log_dir is not None,
        limits=limits if prlimit_path() is not None else None,
    )
    if sandboxed:
        bot.socket_link = workdir / f"seat{seat}.sock"
        bot.call_address = f"unix:{bot.socket_link}"
    bot_env = {
        # A Python bot's print() reaches its log as it happens: block-buffered into a pipe, it
        # would be lost when the arena ends the process with SIGTERM.
        "PYTHONUNBUFFERED": "1",
        **spec.env,
        "ARENA_BOT_ADDRESS": bot.address,
        "ARENA_BOT_TOKEN": bot.token,
        "ARENA_BOT_SEED": str(bot_seed(game_seed, seat, spec.name)),
    }
    if sandbox is None:
        argv = limited_argv(_argv(spec.command), limits)
        env = {**os.environ, **bot_env}
    else:
        bot.launch = prepare_launch(
            sandbox,
            _argv(spec.command),
            bot_dir=spec.directory,
            seat=seat,
            env=bot_env,
            inherited_env=dict(os.environ),
            limits=limits,
            wants_network=spec.network,
        )
        argv, env = bot.launch.argv, bot.launch.env
        if bot.launch.filter_frames:  # the referee reads the bot through its frames' filter
            bot.call_address = f"unix:{workdir / f'r{seat}.sock'}"
    file_cap = limits.file_mib << 20
    try:
        if log_dir is None:
            sink = LogSink(*create_log(workdir, numbered(f"seat{seat}")), file_cap)
        else:
            budget = log_budget(log_dir, spec.name, limits.logs_mib << 20)

            names = log_names or kept_log_names(game_seed, seat, spec.name)

            def recount_and_create() -> tuple[Path, int]:
                mark = budget.counting()
                budget.counted(mark, kept_log_bytes(log_dir, spec.name))
                return budget.create(names)

            # a directory of many logs takes a while to list, and the count may be held by a
            # sink mid-move: not on trio's thread
            created = await trio.to_thread.run_sync(recount_and_create)
            sink = LogSink(*created, cap=file_cap, budget=budget)
        bot.log = sink
    except OSError as exc:
        raise NotReadyError(f"cannot create its log in {log_dir or workdir}: {exc}") from None
    try:
        bot.process = start_tied(
            argv,
            cwd=spec.directory,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=bot.log.write_fd,
            stderr=bot.log.write_fd,
            start_new_session=True,
            pass_fds=() if bot.launch is None else bot.launch.pass_fds,
        )
    except OSError as exc:
        if bot.launch is not None:
            bot.launch.close()
        bot.log.close()
        raise NotReadyError(f"cannot start {' '.join(spec.command)!r}: {exc}") from None
    finally:
        bot.log.started()
        if bot.launch is not None:
            bot.launch.started()
    try:
        yield bot
    finally:
        with trio.CancelScope(shield=True):
            await bot.stop()
            if bot.launch is not None:
                bot.launch.close()  # whatever is left in its cgroup, and its socket
            await trio.to_thread.run_sync(bot.log.close)  # its last words, then the file
            if not bot.log_kept:  # read for crash reasons only: a pool's restarts would pile up
                bot.log.path.unlink(missing_ok=True)


@asynccontextmanager
async def _remote_bot(
    spec: BotSpec, seat: int, workdir: Path, sandbox: SandboxPolicy | None
) -> AsyncIterator[RunningBot]:
    """A remote bot (``NAME@HOST:PORT``), read through a filter of its HTTP/2 beside the arena
    (``arena.sandbox.relay``): its flood is spent outside the referee's interpreter, and a call it
    stalls (it stops reading) ends when the relay is killed, where grpcio would keep the call's
    thread for ever (grpc/grpc#28434). Read directly only where the policy turns filters off."""
    assert spec.address is not None
    bot = RunningBot(spec, spec.address, token=remote_token())
    listen = workdir / f"r{seat}.sock"
    if sandbox is None or sandbox.filter_frames:
        if len(str(listen)) > _UNIX_PATH_MAX:  # never read unfiltered without a word
            raise NotReadyError(
                f"its filter cannot listen at {listen}: a path over {_UNIX_PATH_MAX} bytes "
                "(set TMPDIR to a shorter directory)"
            )
        bot.relay, bot.relay_cgroup = start_remote_relay(
            listen, spec.address, tied_to_parent, f"relay{seat}"
        )
        bot.call_address = f"unix:{listen}"
    try:
        yield bot
    finally:
        if bot.relay is not None:
            bot.kill_relay()
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(bot.relay.wait)
                if bot.relay_cgroup is not None:
                    await trio.to_thread.run_sync(bot.relay_cgroup.kill_all)
                    await trio.to_thread.run_sync(bot.relay_cgroup.remove)


# How long bwrap may take to reap its killed child and exit before its group is killed anyway.
_BWRAP_EXIT_SECONDS = 1.0


def _children(pid: int) -> list[int]:
    try:
        return [
            int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        ]
    except OSError:
        return []  # gone, or a kernel without the file: the group is killed at once


def _kill_sandbox_init(pid: int) -> bool:
    """Kill the children of bwrap ``pid``: the sandbox's init (pid 1 of the bot's PID
    namespace), which takes every process of the bot with it. False if it has none."""
    children = _children(pid)
    for child in children:
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return bool(children)


def kill_now(pid: int, *, sandboxed: bool) -> None:
    """Kill bot process ``pid`` and what it started, from any thread; ``stop_process_group``
    reaps it later."""
    if sandboxed and _kill_sandbox_init(pid):
        return  # bwrap exits once it has reaped its child
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


async def stop_process_group(process: ChildProcess, *, sandboxed: bool = False) -> None:
    """Kill the process and everything in its group, then reap it. A ``sandboxed`` process is
    bwrap, whose child is the sandbox's init (pid 1 of the bot's PID namespace: it takes every
    process of the bot with it); that child is killed first, so that bwrap reaps it and exits.
    Killed together, bwrap may die first and leave its child a zombie for the machine's init."""
    if sandboxed and _kill_sandbox_init(process.pid):
        with trio.move_on_after(_BWRAP_EXIT_SECONDS):
            await process.wait()
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # the group is already gone
    await process.wait()


async def connect(
    bot: RunningBot, game: str, timeout: float
) -> tuple[BotClient, bot_pb2.HandshakeReply]:
    """Open a channel and wait for the handshake; fail fast if the process exits meanwhile.
    Raises NotReadyError, or HandshakeMismatchError for another protocol, games that leave out
    ``game``, or another name than the spec's; the client is closed then."""
    client, reply = await first_handshake(bot, timeout)
    try:
        if reply.protocol_version != PROTOCOL_VERSION:
            raise HandshakeMismatchError(
                f"speaks protocol version {reply.protocol_version}, the arena speaks 1"
            )
        if not plays(reply.games, game):
            raise HandshakeMismatchError(f"says it plays {list(reply.games)}, not {game!r}")
        check_handshake_name(reply, bot.spec.name)
    except BaseException:
        client.close()
        raise
    return client, reply


async def first_handshake(
    bot: RunningBot, timeout: float
) -> tuple[BotClient, bot_pb2.HandshakeReply]:
    """Open a channel and wait for the handshake's reply, unjudged (``connect`` judges it, and so
    does ``arena validate``, check by check). Raises NotReadyError; the client is closed then."""
    client = BotClient(bot.call_address or bot.address, bot.token, on_stall=bot.on_stall)
    try:
        return client, await _handshake_or_exit(client, bot, timeout)
    except BaseException:
        client.close()
        raise


def check_handshake_name(reply: bot_pb2.HandshakeReply, expected: str) -> None:
    """The bot must call itself what its bot.toml (or the NAME of NAME@HOST:PORT, or ``arena
    submit --name``) calls it: otherwise another bot answers at that address, or the manifest and
    the code disagree. Raises HandshakeMismatchError."""
    if reply.name != expected:
        raise HandshakeMismatchError(f"name {reply.name[:80]!r}, expected {expected!r}")


async def _handshake_or_exit(
    client: BotClient, bot: RunningBot, timeout: float
) -> bot_pb2.HandshakeReply:
    reply: bot_pb2.HandshakeReply | None = None
    failure = ""
    answered_twice = False
    listening = False
    said: str | None = None  # what the bot's socket answered, if not HTTP/2

    async def handshake(scope: trio.CancelScope) -> None:
        nonlocal reply, failure, answered_twice, listening
        try:
            await _until_listening(bot)
            listening = True
            reply = await client.handshake(timeout)
        except NotASocketError as exc:
            failure = str(exc)
        except OSError as exc:
            failure = f"cannot link its socket: {exc.strerror}"
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                failure = f"did not answer the handshake within {timeout:g} s"
            elif exc.code() == grpc.StatusCode.INTERNAL and exc.details() == SECOND_REPLY:
                answered_twice = True
            else:
                details = one_line(exc.details() or "", _REASON_CHARS)
                failure = f"handshake failed: {exc.code().name}: {details}"
        scope.cancel()

    async def look_before_the_deadline() -> None:
        # gRPC retries a channel that fails until the deadline: the bot's own socket says why,
        # asked before the deadline (the call cancelled then kills the bot)
        nonlocal said
        await trio.sleep(max(0.0, timeout - 1.2 * LOOK_SECONDS))
        if listening and bot.process is None:  # a bot running elsewhere: is it there at all?
            said = await unreachable(bot.address) or None
        if listening and said is None:
            said = await socket_answer(_own_socket(bot), quote=bot.spec.address is None)

    async def watch_exit(scope: trio.CancelScope) -> None:
        nonlocal failure
        if bot.process is not None:
            await bot.process.wait()
            failure = "exited before answering the handshake"
            scope.cancel()

    with trio.move_on_after(timeout):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(handshake, nursery.cancel_scope)
            nursery.start_soon(watch_exit, nursery.cancel_scope)
            nursery.start_soon(look_before_the_deadline)
    if answered_twice:
        raise AnsweredTwiceError("answered Handshake twice (the call takes one reply)")
    if reply is None and failure.startswith("handshake failed"):
        await _filter_settled(bot)  # a flood it ended is the reason, not the lost connection
    if reply is None:
        if not failure:
            failure = (
                f"did not answer the handshake within {timeout:g} s"
                if listening
                else f"never listened on ARENA_BOT_ADDRESS ({bot.address}) within {timeout:g} s"
            )
        if said is not None and failure.startswith("did not answer"):
            failure = f"{failure}: {said}"
        raise NotReadyError(bot.crash_reason(failure))
    return reply


async def _filter_settled(bot: RunningBot, seconds: float = 0.5) -> None:
    """Wait until the filter of the bot's HTTP/2 has exited, if it is ending (it exits once it
    has ended a connection for a flood, just after the call failed), at most ``seconds``."""
    relay = bot.frame_filter
    with trio.move_on_after(seconds):
        while relay is not None and relay.poll() is None:
            await trio.sleep(0.01)


def _own_socket(bot: RunningBot) -> str:
    """Where the bot itself listens, as the arena reaches it (a sandboxed bot's socket is
    linked into the arena's directory; the referee's calls go through its frame filter)."""
    return bot.address if bot.socket_link is None else f"unix:{bot.socket_link}"


# How often to look for a starting bot's Unix socket. A gRPC channel that finds no listener
# backs off before it tries again (tens of milliseconds even with the low back-off of
# arena.referee.client), so the first attempt waits until the socket file exists.
_SOCKET_POLL_SECONDS = 0.002


async def _until_listening(bot: RunningBot) -> None:
    """Return once a ``unix:`` address's socket file exists (at once for other addresses); a
    sandboxed bot's socket is opened where the arena calls it. Raises NotASocketError."""
    if bot.sandboxed:
        assert bot.launch is not None and bot.process is not None and bot.call_address
        assert bot.socket_link is not None
        while True:
            init = bot.launch.sandbox_pid(bot.process.pid)
            if init is not None:
                try:
                    bot.launch.socket_fd = open_socket(init)
                except (FileNotFoundError, ProcessLookupError):
                    pass  # not listening yet (or the sandbox is still being made)
                else:
                    bot.launch.hold_writable(init)
                    link_socket(bot.launch.socket_fd, bot.socket_link)
                    # the referee reads the bot's frames through their filter, which runs in
                    # the bot's cgroup (arena.sandbox.relay: a flood was the referee's work)
                    if bot.launch.filter_frames:
                        relay = Path(bot.call_address.removeprefix("unix:"))
                        bot.launch.start_relay(relay, bot.socket_link, tied_to_parent)
                    return
            await trio.sleep(_SOCKET_POLL_SECONDS)
    elif bot.address.startswith("unix:"):
        path = Path(bot.address.removeprefix("unix:"))
        while not os.path.lexists(path):
            await trio.sleep(_SOCKET_POLL_SECONDS)
