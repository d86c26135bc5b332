"""Leaderboards for the web: the boards ``arena leaderboard`` builds (``arena.ratings``), in the
JSON shape of its ``--json``, each cached until a game of its own is recorded.

A board rates only games of one player count: a bot's strength at two players says little about
its strength at four."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, NamedTuple

from arena.errors import ArenaError
from arena.ratings import Board, board_json, build_board
from arena.storage.read_only import ReadOnlyDatabase

log = logging.getLogger(__name__)

_CACHE_LIMIT = 64
WAIT_FOR_FIT_SECONDS = 0.5  # a board fitted faster than this is fitted afresh before it shows
BoardKey = tuple[str, int, int | None]  # game, players, tournament (None: every game)


class _Fitted(NamedTuple):
    version: tuple[int, int]  # the board's games when fitted (``board_version``)
    board: Board
    seconds: float  # how long the fit took


class BoardCache:
    """Boards by (game, players, tournament), each valid while its own games are unchanged
    (``board_version``): a ladder recording on one board leaves the others' fits alone.

    A board whose games changed is fitted again before it is shown when its last fit was quick
    (under ``WAIT_FOR_FIT_SECONDS``). A slower one is shown as last fitted while it is fitted
    again in the background (one fit at a time): with a few hundred bots a fit takes seconds,
    and a ladder records a game every second or so, so waiting for a fresh one made every visit
    wait (outside review K: /leaderboard took 84-106 s while a ladder played). A board never
    fitted makes its visitor wait."""

    def __init__(self, database: ReadOnlyDatabase) -> None:
        self.database = database
        self._lock = threading.Lock()
        self._building = threading.Lock()  # one fit at a time: a second visitor waits for it
        self._boards: dict[BoardKey, _Fitted] = {}
        self._refitting: set[BoardKey] = set()

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
        """The board fitted to its current games, or as last fitted while that fit runs."""
        key = (game, players, tournament)
        version = self.database.board_version(game, players, tournament)
        with self._lock:
            cached = self._boards.get(key)
        if cached is not None and (
            cached.version == version or cached.seconds >= WAIT_FOR_FIT_SECONDS
        ):
            if cached.version != version:
                self._refit_soon(key)
            return cached.board
        with self._building:
            with self._lock:
                cached = self._boards.get(key)
            if cached is not None and cached.version == version:
                return cached.board  # fitted by another visitor meanwhile
            return self._fit(key)

    def _fit(self, key: BoardKey) -> Board:
        """Fit ``key``'s board now (the caller holds ``_building``) and keep it."""
        game, players, tournament = key
        version = self.database.board_version(game, players, tournament)
        began = time.monotonic()
        with self.database.session() as session:
            board = build_board(
                session, game, players, tournament_id=tournament, with_crosstable=True
            )
        with self._lock:
            if len(self._boards) >= _CACHE_LIMIT and key not in self._boards:
                self._boards.clear()
            self._boards[key] = _Fitted(version, board, time.monotonic() - began)
        return board

    def _refit_soon(self, key: BoardKey) -> None:
        """Fit ``key``'s board again in a background thread, unless one already does."""
        with self._lock:
            if key in self._refitting:
                return
            self._refitting.add(key)

        def refit() -> None:
            try:
                with self._building:
                    self._fit(key)
            except ArenaError as exc:  # the stale board stays; the next visit tries again
                log.warning("refitting the board %s failed: %s", key, exc)
            finally:
                with self._lock:
                    self._refitting.discard(key)

        threading.Thread(target=refit, name="arena-web-refit", daemon=True).start()
