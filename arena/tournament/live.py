"""The games a tournament is playing, written to the database for spectators
(``arena.storage.running``; the web's ``/live`` shows them).

The referee is never slowed for it: a game's observer only keeps a reference to the state the
referee plays in (or, from a worker process, the action list it last sent), and one task writes
every game's actions so far once a second, in one transaction, in a thread. A game appears
within a second of its start; the row of a recorded game names the stored game; games abandoned
(Ctrl-C, a storage fault) are deleted on the way out. A storage fault here is logged and
otherwise ignored: watching is not worth stopping a tournament for.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import trio

from arena.storage import running
from arena.storage.database import Database, StorageError
from arena.tournament.playing import Watcher
from arena.tournament.schedule import ScheduledGame
from engine.core import GameState
from engine.registry import get_game

FLUSH_SECONDS = 1.0
PURGE_SECONDS = 60.0  # between two removals of stale rows
log = logging.getLogger(__name__)


class LiveGame(Watcher):
    """One game being played: where its actions so far are found."""

    def __init__(self, new: running.NewRunningGame) -> None:
        self.new = new
        self.row_id: int | None = None
        self.written = -1  # how many actions the row holds
        self.ended = False
        self._state: GameState | None = None
        self._progress: list[int] = []

    def match_started(self, state: GameState, players: Sequence[str]) -> None:
        self._state = state  # played in place by the referee: read, never changed here

    def progress(self, actions: list[int]) -> None:
        """The actions so far, as a worker process reports them."""
        self._progress = actions

    def actions(self) -> list[int]:
        return list(self._state.history) if self._state is not None else self._progress


@dataclass
class _Batch:
    """One flush: rows to add, actions to store, hearts to beat, games recorded."""

    purge: bool
    new: list[LiveGame]
    progress: dict[LiveGame, list[int]]
    alive: list[int]
    recorded: list[tuple[LiveGame, list[int], int | None]]
    ids: list[int] = field(default_factory=list)

    def write(self, database: Database) -> None:
        with database.write() as session:
            if self.purge:
                running.remove_old(session)
            self.ids = [running.add(session, game.new) for game in self.new]
            running.refresh(
                session,
                {game.row_id: actions for game, actions in self.progress.items() if game.row_id},
                self.alive,
            )
            for game, actions, game_id in self.recorded:
                if game.row_id is not None:
                    running.recorded(session, game.row_id, actions, game_id)

    def written(self) -> None:
        """Back in the trio thread, once written."""
        for game, row_id in zip(self.new, self.ids, strict=True):
            game.row_id = row_id
        for game, actions in self.progress.items():
            game.written = len(actions)


class LiveGames:
    """The games of one process's tournament (or ladder, or match) as they are played.
    ``entrants``: each entrant position's bot name and version id (None: not registered yet, a
    match's bot; a ladder's lineup may change between rounds)."""

    def __init__(
        self,
        database: Database,
        tournament_id: int | None,
        game: str,
        options: dict[str, Any],
        entrants: list[tuple[str, int | None]],
        interval: float = FLUSH_SECONDS,
    ) -> None:
        self.database = database
        self.tournament_id = tournament_id
        self.game = get_game(game)
        self.options = options
        self.entrants = entrants
        self.interval = interval
        self._games: list[LiveGame] = []
        self._recorded: list[tuple[LiveGame, list[int], int | None]] = []
        self._faulted = False

    def started(self, scheduled: ScheduledGame) -> LiveGame:
        seats = [self.entrants[position] for position in scheduled.seats]
        game = LiveGame(
            running.NewRunningGame(
                tournament_id=self.tournament_id,
                schedule_key=scheduled.key,
                game=self.game.name,
                rules_version=self.game.rules_version,
                options=self.options,
                seed=scheduled.seed,
                seats=[{"bot": name, "version": version} for name, version in seats],
            )
        )
        self._games.append(game)
        return game

    def ended(self, game: LiveGame, game_id: int | None) -> None:
        """The game is over: recorded as ``game_id``, or abandoned (None)."""
        game.ended = True
        self._recorded.append((game, game.actions(), game_id))

    async def keep(self, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Write the games' progress until cancelled; then delete the rows of games that never
        ended (the tournament stopped)."""
        task_status.started()
        purged = -math.inf
        try:
            while True:
                purge = trio.current_time() - purged >= PURGE_SECONDS
                await self.flush(purge)
                if purge:
                    purged = trio.current_time()
                await trio.sleep(self.interval)
        finally:
            with trio.CancelScope(shield=True):
                await self.flush()  # the games recorded last
                await self._abandon()

    async def flush(self, purge: bool = False) -> None:
        """Write what changed since the last flush (``purge``: and remove old rows)."""
        batch = self.batch(purge)
        try:
            await trio.to_thread.run_sync(batch.write, self.database)
        except StorageError as exc:
            if not self._faulted:
                log.warning("the games in play cannot be shown live: %s", exc)
            self._faulted = True
            return
        batch.written()

    def batch(self, purge: bool = False) -> _Batch:
        """What changed since the last flush, taken in the trio thread (where the referee
        changes the states) and written in another."""
        progress = {}
        for game in self._games:
            if game.row_id is not None and not game.ended:
                actions = game.actions()
                if len(actions) != game.written:
                    progress[game] = actions
        recorded, self._recorded = self._recorded, []
        new = [game for game in self._games if game.row_id is None and not game.ended]
        self._games = [game for game in self._games if not game.ended]
        alive = [game.row_id for game in self._games if game.row_id is not None]
        return _Batch(purge, new, progress, alive, recorded)

    async def _abandon(self) -> None:
        rows = [game.row_id for game in self._games if game.row_id is not None]
        if not rows:
            return

        def write() -> None:
            with self.database.write() as session:
                running.remove(session, rows)

        try:
            await trio.to_thread.run_sync(write)
        except StorageError:
            pass  # the rows go stale and are removed by the next writer
