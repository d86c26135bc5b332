"""A tournament's games spread over worker processes (``--workers N``): all cores of one machine.

One referee process is capped by its interpreter lock (grpcio's CPU per call: README,
"Benchmarks"), so the runner can hand its games to N worker processes, each with its own event
loop, referee and bots that stay up. The main process keeps the schedule and alone writes SQLite
(one transaction per game, as before); a worker only plays the games it is sent and sends their
records back. A worker that dies voids the games it was playing (re-run like any voided game)
and is started again for the next ones. Ctrl-C reaches the workers too (the terminal signals the
whole process group): they ignore it, and the main process stops them and with them their bots.
Each worker, with its bots, keeps to a share of the machine's cores (``arena.tournament.cpus``)
unless told not to.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import signal
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import trio

from arena import operator_log, stopping
from arena.records import MatchRecord
from arena.tournament import cpus
from arena.tournament.playing import (
    GameSetup,
    InProcessGames,
    Watcher,
    in_process,
    picklable,
    voided_record,
)
from engine.core import GameState

_PR_SET_PDEATHSIG = 1
_STOP_SECONDS = 5.0
REPORT_SECONDS = 1.0  # between two reports of a game's progress to the main process
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Progress:
    """A game's actions so far, sent while it is played."""

    actions: list[int]


@dataclass(frozen=True)
class _Order:
    slot: int  # the runner's game slot: its kept-up bots are the worker's for that slot
    seats: tuple[int, ...]  # entrant positions
    seed: int


def _die_with_parent() -> None:
    """Ask the kernel to kill this worker when the arena dies (its bots die with it)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass  # not Linux: an orderly end of the arena still stops the workers


def _worker_main(
    connection: Connection,
    setup: GameSetup,
    log_config: operator_log.LogConfig,
    share: cpus.Share | None,
) -> None:
    _die_with_parent()
    cpus.keep_to(share)  # first: the threads and bots started later inherit it
    stopping.for_a_worker()
    with operator_log.logging_to(log_config):  # the main process's log, if it keeps one
        trio.run(_serve, connection, setup)


class _Reporter(Watcher):
    """A game in this worker, whose actions so far the main process is sent (the live view)."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.reported = 0

    def match_started(self, state: GameState, players: Sequence[str]) -> None:
        self.state = state


async def _serve(connection: Connection, setup: GameSetup) -> None:
    playing: dict[int, _Reporter] = {}

    async def play(order: _Order, games: InProcessGames) -> None:
        playing[order.slot] = reporter = _Reporter()
        try:
            outcome: Any = await games.play(order.slot, order.seats, order.seed, reporter)
        except Exception as exc:  # noqa: BLE001 - raised again in the main process
            outcome = exc
        finally:
            playing.pop(order.slot, None)
        connection.send((order.slot, outcome))

    async def report() -> None:
        while True:
            await trio.sleep(REPORT_SECONDS)
            for slot, reporter in list(playing.items()):
                if reporter.state is not None and len(reporter.state.history) > reporter.reported:
                    reporter.reported = len(reporter.state.history)
                    connection.send((slot, _Progress(list(reporter.state.history))))

    async with in_process(setup) as games, trio.open_nursery() as running:
        # SIGTERM abandons the games; leaving in_process stops the bots on the way out
        running.start_soon(stopping.StopSignal(signal.SIGTERM).watch, running.cancel_scope)
        running.start_soon(report)
        while (
            order := await trio.to_thread.run_sync(connection.recv, abandon_on_cancel=True)
        ) is not None:
            running.start_soon(play, order, games)
        running.cancel_scope.cancel()  # told to stop: no game is in flight then


class _Worker:
    """One worker process and the games it is playing."""

    def __init__(self, context: Any, setup: GameSetup, share: cpus.Share | None) -> None:
        self.connection, theirs = context.Pipe()
        self.process = context.Process(
            target=_worker_main,
            args=(theirs, setup, operator_log.current(), share),
            daemon=True,
            name="arena-tournament-worker",
        )
        self.process.start()  # from the trio thread: the worker's pdeathsig follows this thread
        theirs.close()
        self.playing: dict[int, _Order] = {}

    def stop(self, abandon: bool) -> None:
        """Ask the worker to finish (``abandon``: its games in flight too, by SIGTERM, which
        stops its bots); kill it if it does not within a few seconds."""
        if abandon:
            self.process.terminate()
        else:
            try:
                self.connection.send(None)
            except OSError:
                pass  # already gone
        self.process.join(_STOP_SECONDS)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()


class WorkerProcesses:
    """Plays games in ``count`` worker processes (a ``GamePlayer``), each kept with its bots to
    a share of this machine's cores if ``pin_cpus``."""

    def __init__(self, count: int, setup: GameSetup, pin_cpus: bool = True) -> None:
        self.setup = setup
        self._context = multiprocessing.get_context("spawn")  # gRPC is fork-unsafe
        self._shares = cpus.worker_shares(count, pin_cpus)
        self._workers = [_Worker(self._context, setup, share) for share in self._shares]
        self._results: dict[int, tuple[trio.Event, list[Any]]] = {}
        self._watchers: dict[int, Watcher] = {}
        self._closing = False

    def _worker_of(self, slot: int) -> int:
        return slot % len(self._workers)

    async def play(
        self, slot: int, seats: Sequence[int], seed: int, watcher: Watcher | None = None
    ) -> MatchRecord:
        """Play one game in the slot's worker; a voided record if the worker died meanwhile.
        Re-raises what ``play_match`` raised there (a SetupError). ``watcher`` hears of the
        game's actions every REPORT_SECONDS."""
        order = _Order(slot, tuple(seats), seed)
        worker = self._workers[self._worker_of(slot)]
        done, box = self._results[slot] = trio.Event(), []
        worker.playing[slot] = order
        if watcher is not None:
            self._watchers[slot] = watcher
        worker.connection.send(order)
        try:
            await done.wait()
        finally:
            worker.playing.pop(slot, None)
            self._results.pop(slot, None)
            self._watchers.pop(slot, None)
        if isinstance(box[0], Exception):
            raise box[0]
        return box[0]

    def _deliver(self, slot: int, outcome: Any) -> None:
        if (waiting := self._results.get(slot)) is not None:
            waiting[1].append(outcome)
            waiting[0].set()

    async def receive(self, index: int) -> None:
        """Hand worker ``index``'s results to the waiting games; restart the worker if it dies."""
        while True:
            worker = self._workers[index]
            try:
                slot, outcome = await trio.to_thread.run_sync(
                    worker.connection.recv, abandon_on_cancel=True
                )
            except (EOFError, OSError):
                if self._closing:
                    return
                why = f"worker process died (exit code {worker.process.exitcode})"
                log.warning(
                    "%s with %d game(s) in flight: they are voided; a new worker starts",
                    why,
                    len(worker.playing),
                )
                for slot, order in list(worker.playing.items()):
                    self._deliver(slot, voided_record(self.setup, order.seats, order.seed, why))
                worker.connection.close()
                self._workers[index] = _Worker(self._context, self.setup, self._shares[index])
                continue
            if isinstance(outcome, _Progress):
                if (watcher := self._watchers.get(slot)) is not None:
                    watcher.progress(outcome.actions)
            else:
                self._deliver(slot, outcome)

    def stop(self, abandon: bool) -> None:
        self._closing = True
        for worker in self._workers:
            worker.stop(abandon)


@asynccontextmanager
async def worker_processes(
    count: int, setup: GameSetup, pin_cpus: bool = True
) -> AsyncIterator[WorkerProcesses]:
    """``count`` running workers, stopped (with their bots) on exit, also when cancelled."""
    workers = WorkerProcesses(count, picklable(setup), pin_cpus)
    try:
        async with trio.open_nursery() as receivers:
            for index in range(count):
                receivers.start_soon(workers.receive, index)
            abandon = True
            try:
                yield workers
                abandon = False
            finally:
                with trio.CancelScope(shield=True):
                    await trio.to_thread.run_sync(workers.stop, abandon)
                receivers.cancel_scope.cancel()
    finally:
        workers._closing = True
