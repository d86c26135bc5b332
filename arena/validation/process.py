"""The checks on one bot process: start to ready, the handshake's fields and name, refusing a
wrong token, and (for a bot the arena starts) a clean exit on SIGTERM."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path

import grpc
import trio

from arena.bot.v1 import bot_pb2
from arena.errors import AnsweredTwiceError, NotReadyError
from arena.log_names import numbered
from arena.manifest import BotSpec, plays, unknown_games_problem, version_problem
from arena.protocol import PROTOCOL_VERSION, TOKEN_REFUSED
from arena.referee.bot_text import one_line
from arena.referee.botprocess import (
    REMOTE_TOKEN_VARIABLE,
    RunningBot,
    error_line,
    first_handshake,
    run_bot,
)
from arena.referee.client import BotClient
from arena.referee.probe import PROTOCOL_MISMATCH
from arena.sandbox import SandboxPolicy
from arena.validation.report import Check, Report, Status
from engine.registry import game_names

_TOKEN_CALL_SECONDS = 3.0
_EXIT_SECONDS = 3.0

READY_HINT = (
    "listen on ARENA_BOT_ADDRESS exactly as given (unix:PATH or 127.0.0.1:PORT) and "
    "answer Handshake within the limit; the error shown comes from the bot's output"
)
# What a failure to start says, and what to do about it (else READY_HINT).
_START_HINTS = (
    (
        ("exec:", "not found", "No such file"),
        "bot.toml's command must name a program that exists in the bot's directory (./NAME) "
        "or on the system's PATH; a compiled bot must be built (its build, or arena submit)",
    ),
    (
        ("Permission denied",),
        "the bot's uid must read its directory (chmod -R a+rX DIR) and run its program (chmod +x)",
    ),
    (
        (PROTOCOL_MISMATCH,),
        "the bot must serve gRPC (HTTP/2 without TLS) with the service arena.bot.v1.Bot of "
        "proto/arena/bot/v1/bot.proto on ARENA_BOT_ADDRESS; the arena is its client",
    ),
    (
        ("never listened on ARENA_BOT_ADDRESS",),
        "listen on ARENA_BOT_ADDRESS exactly as given (unix:PATH or 127.0.0.1:PORT; a Unix "
        "socket at PATH), not on an address of the bot's own; if it does, it starts too slowly: "
        "it must listen and answer the handshake within the start-up limit (load less at start)",
    ),
)


def start_hint(failure: str) -> str:
    """The hint for a bot that never became ready with ``failure``."""
    return next(
        (hint for marks, hint in _START_HINTS if any(mark in failure for mark in marks)),
        READY_HINT,
    )


# The last words of SANDBOX_HINT: a hosted arena's author cannot choose the sandbox, so its
# worker says what they can do instead (arena.submissions.worker).
SANDBOX_TRY_NONE = "does it pass with --sandbox none?"
SANDBOX_HINT = (
    "; in the sandbox the bot sees only its own directory, the system's /usr, /bin and /lib "
    f"and the arena's runtimes (docs/sandbox.md): {SANDBOX_TRY_NONE}"
)
REFUSED_HINT = (
    f"the bot refused the arena's token: start the arena with {REMOTE_TOKEN_VARIABLE} "
    'set to the bot\'s ARENA_BOT_TOKEN (docs/bots.md, "Remote bots")'
)
TOKEN_HINT = (
    "compare the x-arena-token metadata of every call with ARENA_BOT_TOKEN and refuse "
    "a mismatch with status UNAUTHENTICATED (both SDKs do)"
)


async def check_process(
    spec: BotSpec,
    report: Report,
    workdir: Path,
    ready_seconds: float,
    games: Sequence[str],
    sandbox: SandboxPolicy | None = None,
    bot_logs: Path | None = None,
) -> bot_pb2.HandshakeReply | None:
    """Start the bot (confined as ``sandbox`` says, or reach it at its address) and check it;
    the handshake's reply, or None if it never answered or its handshake does not fit (the game
    checks are then skipped). Its log is kept in ``bot_logs`` if given, as ``process.log``."""
    started = time.perf_counter()
    async with run_bot(
        spec,
        seat=0,
        game_seed=report.seed,
        workdir=workdir,
        sandbox=sandbox,
        log_dir=bot_logs,
        log_names=numbered("process"),
    ) as bot:
        logs = _kept_log(bot, bot_logs)

        def add(check: Check) -> Check:
            return report.add(check.kept_in(logs))

        try:
            client, reply = await first_handshake(bot, ready_seconds)
        except AnsweredTwiceError as exc:
            add(Check.failed("handshake", str(exc), "reply once to each call, then return"))
            return None
        except NotReadyError as exc:
            refused = TOKEN_REFUSED.name in str(exc)
            add(
                Check.failed(
                    "start to ready",
                    f"never became ready: {exc}",
                    REFUSED_HINT
                    if refused
                    else start_hint(str(exc))
                    + (SANDBOX_HINT if bot.sandboxed and PROTOCOL_MISMATCH not in str(exc) else ""),
                )
            )
            return None
        client.close()
        add(_ready_check(time.perf_counter() - started, ready_seconds))
        handshake = add(handshake_check(reply, spec.name, games, remote=spec.is_remote))
        add(await _token_check(bot))
        if not spec.is_remote:
            add(await _exit_check(bot))
    return reply if handshake.status is Status.PASS else None


def _kept_log(bot: RunningBot, bot_logs: Path | None) -> str:
    """The bot's log, relative to ``bot_logs`` ("" if not kept there)."""
    if bot_logs is None or bot.log is None or not bot.log.path.is_relative_to(bot_logs):
        return ""
    return str(bot.log.path.relative_to(bot_logs))


def _ready_check(seconds: float, limit: float) -> Check:
    detail = f"answered the handshake {seconds:.2f} s after its start (limit {limit:g} s)"
    if seconds > limit / 2:
        return Check(
            "start to ready",
            Status.WARN,
            detail,
            "start faster: load big data after the handshake or lazily; a busy "
            "machine may push a slow start past the limit",
        )
    return Check.passed("start to ready", detail)


def handshake_check(
    reply: bot_pb2.HandshakeReply, name: str, games: Sequence[str], *, remote: bool
) -> Check:
    """The handshake's fields: name as expected, a version, protocol 1, every claimed game."""
    problems, hints = [], []
    if reply.name != name:
        problems.append(f"name {reply.name!r}, expected {name!r}")
        hints.append(
            "answer with the NAME given in NAME@HOST:PORT"
            if remote
            else "answer with the name in bot.toml (the SDKs read it from there)"
        )
    if not reply.version:
        problems.append("no version")
        hints.append("send a version (bot.toml's)")
    elif remote and (problem := version_problem(reply.version)):  # stored as the handshake says
        problems.append(problem)
        hints.append("send a short version: `arena submit --address` refuses this one")
    if reply.protocol_version != PROTOCOL_VERSION:
        problems.append(f"protocol version {reply.protocol_version}, the arena speaks 1")
        hints.append("answer protocol_version PROTOCOL_VERSION_1")
    if remote and (problem := unknown_games_problem(reply.games)):
        problems.append(problem)  # stored as the handshake says: `arena submit` refuses it
        hints.append(f"list only games this arena has ({', '.join(game_names())})")
    missing = [game for game in games if not plays(reply.games, game)]
    if missing:
        problems.append(f"does not list {', '.join(missing)}")
        hints.append("list every game bot.toml claims")
    if problems:
        return Check.failed("handshake", "; ".join(problems), "; ".join(hints))
    return Check.passed(
        "handshake",
        f"name {reply.name!r}, version {reply.version[:80]!r}, "
        f"protocol 1, games {one_line(', '.join(reply.games), 200)}",
    )


async def _token_check(bot: RunningBot) -> Check:
    if not bot.token:  # a remote bot, and the arena has no token for it
        return Check(
            "token",
            Status.WARN,
            f"no token configured ({REMOTE_TOKEN_VARIABLE} is "
            "not set), so the refusal of a wrong one was not tried",
            f"start the bot with ARENA_BOT_TOKEN=SECRET and the arena with "
            f"{REMOTE_TOKEN_VARIABLE}=SECRET; without one, anyone who reaches the "
            'address can call the bot (docs/bots.md, "Remote bots")',
        )
    client = BotClient(bot.call_address or bot.address, f"wrong-{bot.token}", on_stall=bot.on_stall)
    try:
        await client.handshake(_TOKEN_CALL_SECONDS)
    except grpc.RpcError as exc:
        if exc.code() == TOKEN_REFUSED:
            return Check.passed("token", "a call with a wrong token is refused (UNAUTHENTICATED)")
        return Check.failed(
            "token",
            f"a wrong token is refused with {exc.code().name}, not UNAUTHENTICATED",
            TOKEN_HINT,
        )
    finally:
        client.close()
    return Check.failed("token", "answered a call with a wrong token", TOKEN_HINT)


async def _exit_check(bot: RunningBot) -> Check:
    """SIGTERM ends the bot promptly and leaves nothing of its process group behind (in a
    sandbox the kernel ends whatever the bot left once its program exits)."""
    assert bot.process is not None
    bot.terminate()
    with trio.move_on_after(_EXIT_SECONDS):
        await bot.process.wait()
    hint = "exit promptly on SIGTERM, with whatever the bot started (the SDKs stop serving)"
    if bot.process.poll() is None:
        return Check.failed("clean exit", f"still running {_EXIT_SECONDS:g} s after SIGTERM", hint)
    ended = bot.exit_description() or "exited"
    try:
        os.killpg(bot.process.pid, 0)
    except ProcessLookupError:
        pass
    else:
        return Check.failed(
            "clean exit", f"SIGTERM ended it ({ended}), but processes it started still run", hint
        )
    code = bot.process.returncode
    if bot.launch is not None and code is not None:
        code = bot.launch.exit_code_to_signal(code)
    if code not in (0, -signal.SIGTERM):
        _, lines = bot.log_tail()
        error = error_line(lines)
        return Check(
            "clean exit",
            Status.WARN,
            f"SIGTERM ended it ({ended})" + (f"; error: {error}" if error else ""),
            "exit with code 0 on SIGTERM; an error at exit hides real crashes in logs",
        )
    return Check.passed("clean exit", f"SIGTERM ended it ({ended}), nothing left running")
