"""Bots that stay up across games: a tournament's pool of running bot processes.

Starting a bot costs far more than a game's decisions (a Python bot needs about 0.1 s of CPU to
import gRPC), so a tournament keeps each entrant's process running and lends it to game after
game, as chess tournament managers keep engines running. A match leases its seats' bots and
gives each one back when the game is over: healthy (it finished the game and acknowledged
EndGame), it waits for the next game; otherwise (it forfeited, crashed, hit a limit, or the game
was voided) it is stopped, and a fresh process takes its place at the next lease. So one game's
failure never reaches the next.

Each bot process is its own: its sandbox, limits, token and ``ARENA_BOT_SEED`` belong to the
process, not to a game. The pool keeps one process per (worker, entrant, occurrence of the entrant
in a game), so concurrent games never share a bot.

A process never plays two seat rotations of one deal (a game's seed): every rotation deals the
same cards, so a bot that remembered the first would know, in the next, what the others hold and
will draw. Lent for a deal it has played, it is replaced by a fresh one (the sandbox gives each
process empty writable paths, so nothing of the first rotation carries over). So is a process
that has played ``MAX_DEALS`` deals: the deals it played are remembered exactly, and a ladder
runs for days.
"""

from __future__ import annotations

import itertools
import logging
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

import trio

from arena.log_names import kept_process_log_name, stamp
from arena.manifest import BotSpec
from arena.records import LogSlice
from arena.referee.botprocess import RunningBot, connect, run_bot
from arena.referee.client import BotClient
from arena.sandbox import SandboxPolicy
from arena.sandbox.limits import BotLimits
from arena.sandbox.tempdirs import new_match_dir, remove_tree

log = logging.getLogger("arena.bots")  # one line per bot process started and stopped


def _named(bot: RunningBot) -> str:
    where = f"pid {bot.process.pid}" if bot.process is not None else f"at {bot.address}"
    return f"bot {bot.spec.name} ({where})"


def log_started(bot: RunningBot, kept_up: bool) -> None:
    # the arena neither starts nor stops a bot running elsewhere: it connects to it
    what = "started" if bot.process is not None else "connected"
    log.info("%s %s%s", _named(bot), what, ", kept up across games" if kept_up else "")


def log_stopping(bot: RunningBot) -> None:
    """Before the arena stops ``bot``: whether it had ended by itself (crashed, exited). One the
    arena stopped already (a forfeit) did not: its SIGKILL was the arena's."""
    if bot.process is None:
        log.info("%s disconnected", _named(bot))
        return
    how = None if bot.stopped_by_arena else bot.exit_description()
    log.info("%s stopped %s", _named(bot), f"(it had ended: {how})" if how else "by the arena")


# worker, the bot (name, version, directory, address), its occurrence among the game's seats
_Key = tuple[int, str, str, str, str, int]


def log_size(bot: RunningBot) -> int | None:
    """How much the bot's log holds now (what it wrote so far, drained); None if it is not kept
    (``--bot-logs``)."""
    if not bot.log_kept or bot.log is None:
        return None
    return bot.log.sync()


def _key(worker: int, spec: BotSpec, occurrence: int) -> _Key:
    return (worker, spec.name, spec.version, str(spec.directory), str(spec.address), occurrence)


@dataclass
class LeasedBot:
    """A running bot lent to one game: its process (or remote address) and its open client."""

    bot: RunningBot
    client: BotClient
    key: _Key
    stack: AsyncExitStack = field(repr=False)  # stops the process
    # Where its next game's part of the kept log begins: where the last game's ended, so that
    # what it writes between games (after EndGame) still belongs to a game.
    log_from: int = 0
    deals: set[int] = field(default_factory=set)  # the seeds of the games it was lent for

    @property
    def alive(self) -> bool:
        """Its client open, its process running, and the filter of its HTTP/2 too (one that
        ended a connection for a flood takes no more)."""
        relay = self.bot.frame_filter
        return (
            not self.client.closed
            and (self.bot.process is None or self.bot.process.poll() is None)
            and (relay is None or relay.poll() is None)
        )


MAX_DEALS = 10_000  # deals one process plays at most (its memory of them stays bounded)


class BotPool:
    """Running bots of one tournament run, lent out per worker (``lender``). Use as an async
    context manager: leaving it stops every bot it still holds."""

    def __init__(
        self,
        game: str,
        *,
        game_seed: int,
        limits: BotLimits = BotLimits(),
        bot_logs: Path | None = None,
        sandbox: SandboxPolicy | None = None,
    ) -> None:
        self.game = game
        self.game_seed = game_seed  # the seed ARENA_BOT_SEED is derived from, per process
        self.limits = limits
        self.bot_logs = bot_logs
        self.sandbox = sandbox
        self._idle: dict[_Key, LeasedBot] = {}
        self._slots: dict[_Key, int] = {}
        self._workdir: Path | None = None
        self._starts = itertools.count()
        self.started = 0  # bot processes started (tests and the benchmark read it)

    async def __aenter__(self) -> Self:
        self._workdir = new_match_dir()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        with trio.CancelScope(shield=True):
            idle, self._idle = list(self._idle.values()), {}
            for leased in idle:
                await self._stop(leased)
        if self._workdir is not None:
            remove_tree(self._workdir)

    @property
    def idle(self) -> list[LeasedBot]:
        """The bots waiting for their next game."""
        return list(self._idle.values())

    def lender(self, worker: int) -> PoolLender:
        """What ``play_match`` borrows from for the games of one worker (one game at a time)."""
        return PoolLender(self, worker)

    def _slot(self, key: _Key) -> int:
        if key not in self._slots:
            self._slots[key] = len(self._slots)
        return self._slots[key]

    async def lease(
        self, key: _Key, spec: BotSpec, ready_seconds: float, deal: int | None = None
    ) -> LeasedBot:
        """The idle bot under ``key`` unless it played ``deal`` (a game's seed) already, else a
        freshly started and connected one. Raises what ``run_bot`` and ``connect`` raise
        (NotReadyError, HandshakeMismatchError)."""
        leased = self._idle.pop(key, None)
        if leased is not None and not (
            leased.alive and deal not in leased.deals and len(leased.deals) < MAX_DEALS
        ):
            if leased.alive:
                log.info(
                    "%s replaced: %s",
                    _named(leased.bot),
                    "it played another rotation of this deal"
                    if deal in leased.deals
                    else f"it played {MAX_DEALS} deals",
                )
            await self._stop(leased)  # or it died while idle
            leased = None
        if leased is None:
            leased = await self._start(key, spec, ready_seconds)
        if deal is not None:
            leased.deals.add(deal)
        return leased

    async def _start(self, key: _Key, spec: BotSpec, ready_seconds: float) -> LeasedBot:
        assert self._workdir is not None, "use the pool as an async context manager"
        slot = self._slot(key)
        stack = AsyncExitStack()
        try:
            bot = await stack.enter_async_context(
                run_bot(
                    spec,
                    slot,
                    self.game_seed,
                    self._workdir,
                    limits=self.limits,
                    log_dir=self.bot_logs,
                    sandbox=self.sandbox,
                    log_names=(
                        kept_process_log_name(spec.name, stamp(), start) for start in self._starts
                    ),
                )
            )
            self.started += 1
            log_started(bot, kept_up=True)
            stack.callback(log_stopping, bot)
            client, _ = await connect(bot, self.game, ready_seconds)
        except BaseException:
            with trio.CancelScope(shield=True):
                await stack.aclose()
            raise
        return LeasedBot(bot, client, key, stack)

    async def give_back(self, leased: LeasedBot, replaced_because: str = "") -> LogSlice | None:
        """Keep a bot for the next lease of its key unless ``replaced_because`` says why not
        (the operator's log says it); stop it then (its last words, a traceback, reach its log
        first). The part of its kept log that this game wrote."""
        if not replaced_because and leased.alive and leased.key not in self._idle:
            self._idle[leased.key] = leased
        else:
            if replaced_because:
                log.info("%s replaced: %s", _named(leased.bot), replaced_because)
            await self._stop(leased)
        end = log_size(leased.bot)
        if end is None:
            return None
        assert leased.bot.log_path is not None  # a kept log has a path
        piece = LogSlice(str(leased.bot.log_path), min(leased.log_from, end), end)
        leased.log_from = end
        return piece

    @staticmethod
    async def _stop(leased: LeasedBot) -> None:
        leased.client.close()
        with trio.CancelScope(shield=True):
            await leased.stack.aclose()


class PoolLender:
    """One worker's view of the pool, as ``play_match`` uses it (``arena.referee.match``)."""

    def __init__(self, pool: BotPool, worker: int) -> None:
        self.pool = pool
        self.worker = worker

    async def lease(
        self, spec: BotSpec, occurrence: int, ready_seconds: float, deal: int | None = None
    ) -> LeasedBot:
        """``occurrence``: how many seats before this one in the game hold the same bot;
        ``deal``: the game's seed (a process that played it is replaced)."""
        # The worker is part of the key: two concurrent games never call one process.
        key = _key(self.worker, spec, occurrence)
        return await self.pool.lease(key, spec, ready_seconds, deal)

    async def give_back(self, leased: LeasedBot, replaced_because: str = "") -> LogSlice | None:
        return await self.pool.give_back(leased, replaced_because)
