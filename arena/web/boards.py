"""Leaderboards for the web: the boards ``arena leaderboard`` builds (``arena.ratings``), in the
JSON shape of its ``--json``, cached until a new game is recorded.

A board rates only games of one player count: a bot's strength at two players says little about
its strength at four."""

from __future__ import annotations

import logging
import threading
from typing import Any

from arena.errors import ArenaError
from arena.ratings import Board, board_json, build_board
from arena.storage.read_only import ReadOnlyDatabase

log = logging.getLogger(__name__)

_CACHE_LIMIT = 64


class BoardCache:
    """Boards by (game, players, tournament), valid while ``data_version`` is unchanged."""

    def __init__(self, database: ReadOnlyDatabase) -> None:
        self.database = database
        self._lock = threading.Lock()
        self._building = threading.Lock()  # one fit at a time: a second visitor waits for it
        self._version: tuple[int, int] | None = None
        self._boards: dict[tuple[str, int, int | None], Board] = {}

    def warm_up(self) -> threading.Thread:
        """Compute every board in a background thread, so the first visitor does not wait for
        the fit (and for importing numpy and scipy)."""

        def build_all() -> None:
            try:
                for entry in self.database.games_played():
                    self.fitted(entry["game"], entry["num_players"])
            except ArenaError as exc:  # a damaged or unreachable database: the pages say so
                log.warning("the boards were not computed in advance: %s", exc)

        thread = threading.Thread(target=build_all, name="arena-web-boards", daemon=True)
        thread.start()
        return thread

    def board(
        self, game: str, players: int, tournament: int | None = None, all_versions: bool = True
    ) -> dict[str, Any]:
        """The board as JSON: every version that played, or as ``arena leaderboard`` shows it by
        default (each bot's newest version that played on it)."""
        return board_json(self.fitted(game, players, tournament).shown(all_versions))

    def fitted(self, game: str, players: int, tournament: int | None = None) -> Board:
        version = self.database.data_version()
        key = (game, players, tournament)
        with self._lock:
            if version != self._version:
                self._version, self._boards = version, {}
            cached = self._boards.get(key)
        if cached is None:
            with self._building:
                with self._lock:
                    cached = self._boards.get(key) if version == self._version else None
                if cached is None:
                    with self.database.session() as session:
                        cached = build_board(
                            session, game, players, tournament_id=tournament, with_crosstable=True
                        )
            with self._lock:
                if len(self._boards) >= _CACHE_LIMIT:
                    self._boards.clear()
                self._boards[key] = cached
        return cached
