"""A tournament's games on a Ray cluster (``arena tournament --ray ADDRESS``): many machines.

The shape of ``arena.tournament.workers`` with Ray actors for worker processes: each game slot
gets one actor (``SlotActor``), placed by Ray on some node of the cluster (spread over the nodes),
which keeps its own trio loop and bot pool there (bots stay up per actor) and plays each game it
is sent, returning the MatchRecord. This process, Ray's driver, keeps the schedule and alone
writes SQLite, one transaction per game, as without Ray.

* Bots: each local entrant's directory is packed once here and put in Ray's object store; an actor
  unpacks it on its node (``arena.tournament.shipping``, whose cache the actor holds while it
  lives and cleans when it starts) and runs the bot from there, sandboxed on that node by the
  tournament's policy as a local referee would (the node needs bwrap for that). A remote bot
  (``NAME@HOST:PORT``) is called at its address from whichever node plays.
* Bot logs (``--bot-logs DIR``): kept on the actor's node and sent back with each game's record
  and when the actor stops; this process writes them into DIR (``arena.tournament.ray_logs``).
* An actor that dies mid-game (its node lost, its process killed) voids that game ("Ray actor
  died ..."), which the runner records and plays again like any voided game; the slot's next
  game gets a new actor, which Ray places on a live node.
* On the way out (the end, Ctrl-C, a fault) every actor is asked to stop its games and bots, then
  killed; the tournament stays resumable as ever.

Only the arena's own code runs on the nodes (no Ray runtime environment): every node has the
arena installed, so plain ``ray`` suffices, without the ``ray[default]`` extras.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections import Counter
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import trio

from arena.errors import SetupError
from arena.records import LogSlice, MatchRecord
from arena.sandbox import check_available
from arena.tournament import cpus, ray_logs, shipping
from arena.tournament.playing import (
    GameSetup,
    InProcessGames,
    Watcher,
    in_process,
    picklable,
    voided_record,
)

INSTALL_HINT = "scripts/setup --with-ray (or pip install '.[ray]' in the checkout)"
DEFAULT_ACTOR_CPUS = 0.5  # Ray CPUs reserved per game slot: a referee and its bots, mostly idle
_REACH_SECONDS = 5.0
_STOP_SECONDS = 10.0
# Ray notices a dead node within about half a minute (its health checks); until then it may
# place a new actor there, which is lost at once: try again for about a minute.
_CREATE_ATTEMPTS = 30
_CREATE_PAUSE_SECONDS = 2.0
# A slot's actor waits this long for a node with room for it: a running actor holds its CPUs
# until the tournament ends, so one that waits longer would wait forever.
_PLACEMENT_SECONDS = 120.0
log = logging.getLogger(__name__)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SetupError(
            f"--ray needs the ray package, which is not installed here: {INSTALL_HINT}"
        ) from None
    return ray


def _one_line(exc: BaseException, limit: int = 200) -> str:
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else type(exc).__name__
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _last_line(exc: BaseException, limit: int = 200) -> str:
    """The last line of a remote traceback: the exception that ended it."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    text = lines[-1] if lines else type(exc).__name__
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _check_reachable(address: str) -> None:
    """Fail fast and in one line where Ray would retry for a minute: nothing listens there."""
    if "://" in address:
        raise SetupError(
            f"--ray {address!r}: Ray Client addresses are not supported; run arena on a node of "
            "the cluster and give the head's HOST:PORT"
        )
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit():
        raise SetupError(
            f"--ray {address!r}: give the Ray head's HOST:PORT (as `ray start --head` printed "
            "it), or auto for the cluster started on this machine"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_REACH_SECONDS).close()
    except OSError as exc:
        raise SetupError(
            f"no Ray cluster at {address}: {exc.strerror or exc} (start one with `ray start "
            '--head`, README "Running on many machines")'
        ) from None


@dataclass
class RayCluster:
    """This process's connection to a running Ray cluster (``connect``); ``close`` leaves it."""

    address: str
    ray: Any  # the ray module
    actor_cpus: float = DEFAULT_ACTOR_CPUS
    games_by_node: Counter[str] = field(default_factory=Counter)  # finished games, by node IP

    def nodes(self) -> list[str]:
        """The live nodes' addresses."""
        return sorted(node["NodeManagerAddress"] for node in self.ray.nodes() if node["Alive"])

    def played(self) -> str:
        """Where this run's games were played, on one line."""
        spread = ", ".join(f"{node}: {count}" for node, count in sorted(self.games_by_node.items()))
        total = sum(self.games_by_node.values())
        return f"Ray: {total} games played on {len(self.games_by_node)} node(s) ({spread})"

    def close(self) -> None:
        self.ray.shutdown()


def connect(address: str, actor_cpus: float = DEFAULT_ACTOR_CPUS) -> RayCluster:
    """Connect to the Ray cluster whose head is at ``address`` (``HOST:PORT``, or ``auto``);
    raises SetupError (one line) if ray is not installed or no cluster answers there."""
    ray = _import_ray()
    if not actor_cpus > 0:
        raise SetupError("--ray-cpus must be > 0")
    if address != "auto":
        _check_reachable(address)
    try:
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
        raise SetupError(
            f"cannot connect to a Ray cluster at {address}: {_one_line(exc)}"
        ) from None
    return RayCluster(address, ray, actor_cpus)


@contextmanager
def connected(address: str | None, actor_cpus: float) -> Iterator[RayCluster | None]:
    """``connect`` for the duration of the block (None without an address)."""
    if address is None:
        yield None
        return
    cluster = connect(address, actor_cpus)
    try:
        yield cluster
    finally:
        cluster.close()


@dataclass(frozen=True)
class _Order:
    slot: int
    seats: tuple[int, ...]  # entrant positions
    seed: int


class _SlotLoop:
    """An actor's trio side, in its own thread: the bot pool and the games being played."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.token: trio.lowlevel.TrioToken | None = None
        self.games: InProcessGames | None = None
        self.playing: set[trio.CancelScope] = set()
        self.started = threading.Event()
        self.thread = threading.Thread(target=trio.run, args=(self.serve,), daemon=True)
        self.thread.start()  # bots die with this thread (their pdeathsig): it lives as the actor
        self.started.wait()

    async def serve(self) -> None:
        self.stopping = trio.Event()
        setup = self.setup
        try:
            async with in_process(setup) as games:
                self.games = games
                self.token = trio.lowlevel.current_trio_token()
                self.started.set()
                await self.stopping.wait()
            # leaving the pool stopped its bots
        finally:
            self.started.set()  # also if the pool could not be made (token None: no games)

    async def play(self, order: _Order) -> MatchRecord | Exception | None:
        """The game's record, what play_match raised (a SetupError), or None if stopped."""
        assert self.games is not None, "no game before the loop started"
        with trio.CancelScope() as scope:
            self.playing.add(scope)
            try:
                return await self.games.play(order.slot, order.seats, order.seed)
            except Exception as exc:  # noqa: BLE001 - raised again by the driver
                return exc
            finally:
                self.playing.discard(scope)
        return None

    def stop(self) -> None:
        """Abandon the games in flight and stop the bots (from the trio thread)."""
        for scope in self.playing:
            scope.cancel()
        self.stopping.set()


_Outcome = MatchRecord | Exception | None  # what a game in an actor came to (_SlotLoop.play)


class SlotActor:
    """One game slot of a tournament on a Ray node (made a Ray actor by ``RayActors``). Its
    methods are plain (not ``async``: that would make Ray run it on asyncio); the games run in
    the trio loop of ``_SlotLoop``. ``log_cap``: keep the bots' logs and send each up to that
    many bytes (None: no logs kept). ``pin_cpus``: keep the actor and its bots to a core of
    their own (``arena.tournament.cpus.claimed_core``), taken before any game thread starts."""

    def __init__(
        self, setup: GameSetup, archives: dict[int, Any], log_cap: int | None, pin_cpus: bool
    ) -> None:
        import ray

        share, self.claim = cpus.claimed_core() if pin_cpus else (None, None)
        cpus.keep_to(share)
        self.node = ray.util.get_node_ip_address()
        self.problem: SetupError | None = None
        self.loop: _SlotLoop | None = None
        self.held: list[int] = []  # the cache entries its bots run from (shipping.hold)
        self.logs: ray_logs.NodeLogs | None = None
        try:
            check_available(setup.settings.sandbox)
            specs = list(setup.specs)
            for position, archive in zip(archives, ray.get(list(archives.values()))):
                directory, held = shipping.hold(archive)
                self.held.append(held)
                specs[position] = shipping.at(specs[position], directory)
            if log_cap is not None:
                self.logs = ray_logs.NodeLogs(log_cap, self.node)
        except (SetupError, OSError) as exc:
            self.problem = SetupError(f"on Ray node {self.node}: {exc}")
            return
        _clean_cache()  # this actor's entries held: never its own
        logs = None if self.logs is None else self.logs.directory
        self.loop = _SlotLoop(replace(setup, specs=specs, bot_logs=logs))
        if self.loop.token is None:
            self.problem = SetupError(f"on Ray node {self.node}: the game loop did not start")

    def ready(self) -> tuple[str, SetupError | None]:
        """This actor's node, and why it cannot play there (None if it can)."""
        return self.node, self.problem

    def play(self, order: _Order) -> tuple[_Outcome, list[ray_logs.LogPiece]]:
        """The game's outcome, and what its bots' logs gained meanwhile."""
        assert self.loop is not None and self.loop.token is not None
        outcome = trio.from_thread.run(self.loop.play, order, trio_token=self.loop.token)
        return outcome, self._log_news()

    def stop(self) -> list[ray_logs.LogPiece]:
        """Stop the games in flight and the bots; returns once they are stopped, with the rest
        of their logs."""
        if self.loop is not None and self.loop.token is not None:
            try:
                trio.from_thread.run_sync(self.loop.stop, trio_token=self.loop.token)
            except trio.RunFinishedError:
                pass
            else:
                self.loop.thread.join(_STOP_SECONDS)
        news = self._log_news()
        if self.logs is not None:
            self.logs.close()
        for held in self.held:
            shipping.release(held)
        self.held = []
        if self.claim is not None:
            os.close(self.claim)  # its core, free for the next actor
            self.claim = None
        return news

    def _log_news(self) -> list[ray_logs.LogPiece]:
        return [] if self.logs is None else self.logs.news()


def _clean_cache() -> None:
    """Evict unused bots from the node's cache; a fault there must not stop the games."""
    try:
        shipping.evict()
    except (OSError, SetupError):
        pass


@dataclass
class _Slot:
    handle: Any  # the actor, ready
    node: str  # the address of its node


class RayActors:
    """Plays games in one Ray actor per slot (a ``GamePlayer``)."""

    def __init__(
        self,
        cluster: RayCluster,
        setup: GameSetup,
        logs: ray_logs.LogWriter | None = None,
        pin_cpus: bool = True,
    ) -> None:
        ray = cluster.ray
        self.cluster = cluster
        self.setup = setup
        self.logs = logs
        self.pin_cpus = pin_cpus
        # Each log is sent up to the bots' file-size limit, the size a local log is held to.
        self._log_cap = None if logs is None else setup.settings.limits.file_mib << 20
        self._ray = ray
        # A game and a stop may be in one actor at once; a dead actor is replaced by us, not Ray
        # (its game must be voided first); SPREAD: the slots over the nodes, not packed on one.
        self._actor_class = ray.remote(SlotActor).options(
            num_cpus=cluster.actor_cpus,
            max_concurrency=2,
            max_restarts=0,
            max_task_retries=0,
            scheduling_strategy="SPREAD",
        )
        # Each local bot's directory, packed and put in the object store once for all actors.
        self._archives = {
            position: ray.put(shipping.pack(spec.directory))
            for position, spec in enumerate(setup.specs)
            if not spec.is_remote and spec.directory is not None
        }
        self._slots: dict[int, _Slot] = {}
        self._check_room()
        errors = ray.exceptions  # the ways a game's actor or its result can be lost
        self._lost: tuple[type[Exception], ...] = (
            errors.RayActorError,
            errors.ObjectLostError,
            errors.NodeDiedError,
            errors.WorkerCrashedError,
        )

    def _check_room(self) -> None:
        """Fail now rather than wait forever: every slot's actor must fit in the cluster."""
        cpus = self._ray.cluster_resources().get("CPU", 0.0)
        slots = self.setup.settings.concurrency
        if slots * self.cluster.actor_cpus > cpus:
            raise SetupError(
                f"the Ray cluster has {cpus:g} CPUs, too few for {slots} game slots "
                f"(--concurrency) of --ray-cpus {self.cluster.actor_cpus:g} each: add nodes or "
                "give a smaller --ray-cpus"
            )

    async def _get(self, ref: Any, timeout: float | None = None) -> Any:
        return await trio.to_thread.run_sync(
            partial(self._ray.get, ref, timeout=timeout), abandon_on_cancel=True
        )

    async def _actor(self, slot: int) -> _Slot:
        """The slot's actor, created (and its node's set-up checked) on first use. An actor
        lost before it is ready (Ray placed it on a node that has just died, and has not noticed
        yet) is replaced after a pause: no game was in it."""
        if (current := self._slots.get(slot)) is not None:
            return current
        for attempt in range(_CREATE_ATTEMPTS):
            handle = self._actor_class.remote(
                self.setup, self._archives, self._log_cap, self.pin_cpus
            )
            try:
                node, problem = await self._get(handle.ready.remote(), _PLACEMENT_SECONDS)
            except self._ray.exceptions.GetTimeoutError:
                self._kill(handle)
                raise SetupError(
                    f"no Ray node took game slot {slot}'s actor within {_PLACEMENT_SECONDS:.0f} "
                    f"s: the cluster has too few free CPUs (each slot reserves --ray-cpus "
                    f"{self.cluster.actor_cpus:g}; did it lose a node?); add nodes, then resume "
                    "with --ray (and a smaller --ray-cpus, if need be)"
                ) from None
            except self._lost as exc:
                self._kill(handle)
                if getattr(exc, "actor_init_failed", False):  # a node that cannot run the arena
                    raise SetupError(
                        f"game slot {slot}'s Ray actor failed to start: {_last_line(exc)}"
                    ) from None
                if attempt + 1 == _CREATE_ATTEMPTS:
                    raise
                log.info(
                    "game slot %d: its new Ray actor was lost before it was ready (%s): "
                    "trying again",
                    slot,
                    type(exc).__name__,
                )
                await trio.sleep(_CREATE_PAUSE_SECONDS)
                continue
            self._slots[slot] = current = _Slot(handle, node)
            if problem is not None:
                raise problem
            log.info("game slot %d: Ray actor on node %s", slot, node)
            if self.logs is not None:
                self.logs.new_actor(slot)
            return current
        raise AssertionError("unreachable")

    async def play(
        self, slot: int, seats: Sequence[int], seed: int, watcher: Watcher | None = None
    ) -> MatchRecord:
        """Play one game in the slot's actor; a voided record if the actor died meanwhile.
        Re-raises what ``play_match`` raised there (a SetupError). An actor reports no progress
        (``watcher`` learns nothing): the live view shows the game's start until it ends."""
        try:
            actor = await self._actor(slot)
        except self._lost as exc:
            why = f"no Ray actor could start for the game ({type(exc).__name__})"
            log.warning("game slot %d: %s", slot, why)
            return voided_record(self.setup, seats, seed, why)
        try:
            outcome, news = await self._get(
                actor.handle.play.remote(_Order(slot, tuple(seats), seed))
            )
        except self._lost as exc:
            self._forget(slot)
            why = f"Ray actor died on {actor.node} ({type(exc).__name__})"
            log.warning(
                "game slot %d: %s: its game is voided; a new actor takes the slot", slot, why
            )
            return voided_record(self.setup, seats, seed, why)
        if self.logs is not None and news:
            await trio.to_thread.run_sync(self.logs.write, slot, news)
        if isinstance(outcome, Exception):
            raise outcome
        assert outcome is not None, "the actor was stopped while the game was awaited"
        if not outcome.voided:
            self.cluster.games_by_node[actor.node] += 1
        return self._logs_here(slot, outcome)

    def _logs_here(self, slot: int, record: MatchRecord) -> MatchRecord:
        """``record`` with its seats' log slices in DIR: they name the logs on the actor's node,
        whose bytes ``LogWriter`` has written at the same offsets here (just now: the game's
        pieces came with it). Without ``--bot-logs``, none."""

        def here(piece: LogSlice | None) -> LogSlice | None:
            if piece is None or self.logs is None:
                return None
            name = self.logs.name(slot, Path(piece.path).name)
            return replace(piece, path=str(self.logs.directory / name))

        return replace(record, seats=[replace(seat, log=here(seat.log)) for seat in record.seats])

    def _forget(self, slot: int) -> None:
        """Drop the slot's dead actor: its next game gets a new one (on a live node)."""
        if (dead := self._slots.pop(slot, None)) is not None:
            self._kill(dead.handle)

    def _kill(self, handle: Any) -> None:
        try:
            self._ray.kill(handle, no_restart=True)
        except Exception:  # noqa: BLE001 - it is gone already
            pass

    def stop(self) -> None:
        """Ask every actor to stop its games and bots (a few seconds at most), then kill it;
        write the rest of their bots' logs."""
        slots, self._slots = self._slots, {}
        stops = {}
        for number, slot in slots.items():
            try:
                stops[number] = slot.handle.stop.remote()
            except Exception:  # noqa: BLE001 - a dead actor has nothing to stop
                pass
        if stops:
            self._ray.wait(list(stops.values()), num_returns=len(stops), timeout=_STOP_SECONDS)
        for number, stopped in stops.items():
            self._write_last_logs(number, stopped)
        for slot in slots.values():
            self._kill(slot.handle)

    def _write_last_logs(self, slot: int, stopped: Any) -> None:
        if self.logs is None:
            return
        try:
            news = self._ray.get(stopped, timeout=0)
        except Exception:  # noqa: BLE001 - not stopped in time, or dead: its logs are lost
            return
        self.logs.write(slot, news)


@asynccontextmanager
async def ray_actors(
    cluster: RayCluster, setup: GameSetup, pin_cpus: bool = True
) -> AsyncIterator[RayActors]:
    """The slots' actors (made as games need them; each on a core of its own if ``pin_cpus``),
    stopped with their bots on exit, also when cancelled. The bots' logs (``setup.bot_logs``, a
    directory here) come back from the nodes."""
    logs = None if setup.bot_logs is None else ray_logs.LogWriter(setup.bot_logs)
    setup = picklable(replace(setup, bot_logs=None))  # the actors keep logs on their own nodes
    actors = await trio.to_thread.run_sync(RayActors, cluster, setup, logs, pin_cpus)  # packs
    try:
        yield actors
    finally:
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(actors.stop)
