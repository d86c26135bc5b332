"""Leaderboards for the web: one board per game type and player count, computed with the
``leaderboard`` package from the stored results, and cached until a new game is recorded.

A board rates only games of one player count: a bot's strength at two players says little about
its strength at four. Elo is replayed per board from the same results (the stored Elo history is
shown on the bot page)."""

from __future__ import annotations

import math
import threading
from typing import Any

from arena.ratings import shown_on_board
from arena.storage.read_only import ReadOnlyDatabase
from leaderboard.elo import replay_elo
from leaderboard.tables import cross_table, leaderboard_rows

_CACHE_LIMIT = 64


class BoardCache:
    """Boards by (game, players, tournament), valid while ``data_version`` is unchanged."""

    def __init__(self, database: ReadOnlyDatabase) -> None:
        self.database = database
        self._lock = threading.Lock()
        self._building = threading.Lock()  # one fit at a time: a second visitor waits for it
        self._version: tuple[int, int] | None = None
        self._boards: dict[tuple[str, int, int | None], dict[str, Any]] = {}

    def warm_up(self) -> threading.Thread:
        """Compute every board in a background thread, so the first visitor does not wait for
        the fit (and for importing scipy)."""

        def build_all() -> None:
            for entry in self.database.games_played():
                self.board(entry["game"], entry["num_players"])

        thread = threading.Thread(target=build_all, name="arena-web-boards", daemon=True)
        thread.start()
        return thread

    def board(self, game: str, players: int, tournament: int | None = None) -> dict[str, Any]:
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
                    cached = build_board(self.database, game, players, tournament)
            with self._lock:
                if len(self._boards) >= _CACHE_LIMIT:
                    self._boards.clear()
                self._boards[key] = cached
        return cached


def build_board(
    database: ReadOnlyDatabase, game: str, players: int, tournament: int | None = None
) -> dict[str, Any]:
    """Rows (every bot version that played), best first, and the head-to-head table."""
    # Imported here: the batch fit imports scipy (seconds), which page loads without a
    # leaderboard do not need.
    from leaderboard.batch import fit_batch

    results = database.game_results(game, players=players, tournament=tournament)
    rows = leaderboard_rows(results, replay_elo(results), fit_batch(results))
    versions = database.versions([int(row.player) for row in rows])
    # The rows `arena leaderboard` shows by default, with their positions among themselves.
    default_positions = {
        row.player: row.position
        for row in shown_on_board(rows, {v: version["bot"] for v, version in versions.items()})
    }
    out_rows = []
    for row in rows:
        version = versions[int(row.player)]
        batch = row.batch
        out_rows.append(
            {
                "position": row.position,
                "default_position": default_positions.get(row.player),  # None: not by default
                "version_id": int(row.player),
                "bot": version["bot"],
                "version": version["version"],
                "hash": version["hash"],
                "latest": version["latest"],
                "elo": round(row.elo, 1),
                "batch": None
                if batch is None
                else {
                    "rating": round(batch.rating, 1),
                    "low": round(batch.low, 1),
                    "high": round(batch.high, 1),
                    # "lower": a perfect record, bounded on one side only ("> low").
                    "bound": batch.bound,
                    "pool": batch.pool,
                    "pools": batch.pools,
                    "provisional": batch.provisional,
                },
                "games": row.games,
                "average_rank": _number(row.average_rank),
                "average_score": _number(row.average_score),
                "forfeits": row.forfeits,
            }
        )
    crosstable = [
        {
            "version_id": int(a),
            "opponent_version_id": int(b),
            "games": record.games,
            "points": record.score,
            "share": round(record.share, 4),
        }
        for (a, b), record in cross_table(results).items()
    ]
    return {
        "game": game,
        "players": players,
        "tournament": tournament,
        "games": len(results),
        "rows": out_rows,
        "crosstable": crosstable,
    }


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 3)  # NaN: no finished game
