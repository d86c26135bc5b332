"""Read-only access to the arena database for the web app.

Every request opens its own SQLite connection with ``mode=ro``: the web app can never write, and
in WAL mode its reads never block a tournament that writes at the same time (and see every game
committed before the read began). Plain SQL over the stored tables, returned as plain dicts
ready for JSON; ratings are computed elsewhere (``arena.web.boards``) from ``game_results``, which
is ``arena.storage``'s own query run over the same read-only connection (``session``).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool
from sqlmodel import Session

from arena.errors import StorageError
from arena.storage.games import finished_game_results
from arena.tournament.schedule import schedule_size
from leaderboard.results import GameResult, SeatResult, pair_score

# A forfeit is any outcome but this one (the referee's Outcome.FINISHED).
FINISHED_OUTCOME = "FINISHED"
FINISHED_STATUS = "finished"
_BUSY_MILLISECONDS = 5000


class DatabaseUnavailable(StorageError):
    """The file is missing or not an arena database, or a read failed; one line."""


@dataclass(frozen=True)
class GameFilter:
    game: str | None = None
    bot: str | None = None
    tournament: int | None = None
    outcome: str | None = None  # "completed", "forfeit" or "voided"
    limit: int = 50
    offset: int = 0


class ReadOnlyDatabase:
    def __init__(self, path: Path) -> None:
        self.path = path
        # No pool: every session opens its own connection, like ``connect``.
        self._engine = create_engine("sqlite://", creator=self._open, poolclass=NullPool)
        if not path.is_file():
            raise DatabaseUnavailable(
                f"{path}: no arena database here (run a tournament first, or pass --db PATH)"
            )
        with self.connect() as connection:
            tables = {
                row[0]
                for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if not {"game", "seat", "bot", "bot_version"} <= tables:
                raise DatabaseUnavailable(f"{path}: not an arena database (or an empty one)")

    def _open(self) -> sqlite3.Connection:
        connection = sqlite3.connect(
            f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False
        )
        connection.execute(f"PRAGMA busy_timeout = {_BUSY_MILLISECONDS}")
        return connection

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        try:
            connection = self._open()
        except sqlite3.Error as exc:
            raise DatabaseUnavailable(f"{self.path}: cannot open: {exc}") from None
        try:
            connection.row_factory = sqlite3.Row
            yield connection
        except sqlite3.DatabaseError as exc:
            raise DatabaseUnavailable(f"{self.path}: database error: {exc}") from None
        finally:
            connection.close()

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A SQLModel session over a connection like ``connect``'s, for ``arena.storage``'s
        queries."""
        try:
            with Session(self._engine) as session:
                yield session
        except DBAPIError as exc:
            raise DatabaseUnavailable(f"{self.path}: database error: {exc.orig}") from None

    # --- overview -------------------------------------------------------------------------------
    def data_version(self) -> tuple[int, int]:
        """(newest game id, games stored): changes whenever a game is recorded, so derived data
        (ratings) can be cached until it does."""
        with self.connect() as db:
            row = db.execute("SELECT COALESCE(MAX(id), 0), COUNT(*) FROM game").fetchone()
        return int(row[0]), int(row[1])

    def games_played(self) -> list[dict[str, Any]]:
        """Game types and player counts with rated games: the leaderboards that exist."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT game, num_players, COUNT(*) AS games FROM game WHERE status = ? "
                "GROUP BY game, num_players ORDER BY game, num_players",
                (FINISHED_STATUS,),
            )
            return [dict(row) for row in rows]

    # --- results for the ratings ----------------------------------------------------------------
    def game_results(
        self, game: str, *, players: int | None = None, tournament: int | None = None
    ) -> list[GameResult]:
        """Rated games of one type as the ``leaderboard`` package's plain results, in the order
        they were rated (id order); a player is a bot version id, as a string."""
        with self.session() as session:
            return finished_game_results(session, game, players, tournament)

    # --- bots -----------------------------------------------------------------------------------
    def versions(self, ids: list[int]) -> dict[int, dict[str, Any]]:
        """Bot versions by id with their bot's name, and whether each is its bot's newest."""
        with self.connect() as db:
            rows = db.execute(
                "SELECT v.id, v.version, v.content_hash, v.created_at, b.name, "
                "v.id = (SELECT MAX(id) FROM bot_version WHERE bot_id = b.id) AS latest "
                "FROM bot_version v JOIN bot b ON b.id = v.bot_id "
                f"WHERE v.id IN ({','.join('?' * len(ids))})",
                ids,
            ).fetchall()
        return {
            row["id"]: {
                "id": row["id"],
                "bot": row["name"],
                "version": row["version"],
                "hash": row["content_hash"][:8],
                "created_at": row["created_at"],
                "latest": bool(row["latest"]),
            }
            for row in rows
        }

    def bot_names(self) -> list[str]:
        with self.connect() as db:
            return [row[0] for row in db.execute("SELECT name FROM bot ORDER BY name")]

    def bots(self) -> list[dict[str, Any]]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT b.name, COUNT(DISTINCT v.id) AS versions, COUNT(s.game_id) AS games "
                "FROM bot b JOIN bot_version v ON v.bot_id = b.id "
                "LEFT JOIN seat s ON s.bot_version_id = v.id GROUP BY b.id ORDER BY b.name"
            )
            return [dict(row) for row in rows]

    def bot(self, name: str) -> dict[str, Any] | None:
        """A bot's versions, results per game type, forfeits and Elo history."""
        with self.connect() as db:
            bot = db.execute(
                "SELECT id, name, created_at FROM bot WHERE name = ?", (name,)
            ).fetchone()
            if bot is None:
                return None
            versions = [
                dict(row) | {"games": json.loads(row["games"])}
                for row in db.execute(
                    "SELECT id, version, content_hash, created_at, directory, address, games "
                    "FROM bot_version WHERE bot_id = ? ORDER BY id",
                    (bot["id"],),
                )
            ]
            ids = [v["id"] for v in versions]
            marks = ",".join("?" * len(ids))
            seats = db.execute(
                "SELECT g.game, g.num_players, s.rank, s.score, s.outcome, s.reason, s.game_id, "
                "s.seat, s.bot_version_id, g.status FROM seat s JOIN game g ON g.id = s.game_id "
                f"WHERE s.bot_version_id IN ({marks}) ORDER BY s.game_id",
                ids,
            ).fetchall()
            history = db.execute(
                "SELECT h.game_id, h.game, h.bot_version_id, h.before, h.after, g.finished_at, "
                f"g.num_players FROM rating_history h JOIN game g ON g.id = h.game_id "
                f"WHERE h.bot_version_id IN ({marks}) ORDER BY h.id",
                ids,
            ).fetchall()
        for version in versions:
            version["hash"] = version.pop("content_hash")[:8]
        per_game: dict[str, Counter[str]] = defaultdict(Counter)
        rank_sums: Counter[str] = Counter()
        forfeits = []
        for row in seats:
            if row["status"] != FINISHED_STATUS:
                continue
            tally = per_game[row["game"]]
            tally["games"] += 1
            if row["outcome"] == FINISHED_OUTCOME:
                tally["wins"] += row["rank"] == 1
                rank_sums[row["game"]] += row["rank"]
            else:
                tally["forfeits"] += 1
                forfeits.append(
                    {
                        "game_id": row["game_id"],
                        "game": row["game"],
                        "seat": row["seat"],
                        "outcome": row["outcome"],
                        "reason": row["reason"],
                    }
                )
        results = [
            {
                "game": game,
                "games": tally["games"],
                "wins": tally["wins"],
                "forfeits": tally["forfeits"],
                "average_rank": (
                    rank_sums[game] / (tally["games"] - tally["forfeits"])
                    if tally["games"] > tally["forfeits"]
                    else None
                ),
            }
            for game, tally in sorted(per_game.items())
        ]
        return {
            "name": bot["name"],
            "created_at": bot["created_at"],
            "versions": versions,
            "results": results,
            "forfeits": forfeits[-50:][::-1],
            "rating_history": [dict(row) for row in history],
            "version_ids": ids,
        }

    def head_to_head(self, version_ids: list[int]) -> list[dict[str, Any]]:
        """Per opponent bot and game type: games together, and points (win 1, draw 1/2, and a
        forfeiting seat loses to every finisher) of the given versions against it."""
        marks = ",".join("?" * len(version_ids))
        with self.connect() as db:
            rows = db.execute(
                "SELECT g.game, me.rank, me.outcome, them.rank AS their_rank, "
                "them.outcome AS their_outcome, b.name AS opponent "
                "FROM seat me JOIN seat them ON them.game_id = me.game_id AND them.seat != me.seat "
                "JOIN game g ON g.id = me.game_id "
                "JOIN bot_version v ON v.id = them.bot_version_id JOIN bot b ON b.id = v.bot_id "
                f"WHERE me.bot_version_id IN ({marks}) AND g.status = ? "
                f"AND them.bot_version_id NOT IN ({marks})",
                [*version_ids, FINISHED_STATUS, *version_ids],
            ).fetchall()
        table: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
        for row in rows:
            mine = SeatResult(
                "me", row["rank"], 0.0, "" if row["outcome"] == FINISHED_OUTCOME else row["outcome"]
            )
            theirs = SeatResult(
                "them",
                row["their_rank"],
                0.0,
                "" if row["their_outcome"] == FINISHED_OUTCOME else row["their_outcome"],
            )
            entry = table[row["game"], row["opponent"]]
            entry[0] += 1
            entry[1] += pair_score(mine, theirs)
        return [
            {
                "game": game,
                "opponent": opponent,
                "games": games,
                "points": points,
                "share": points / games,
            }
            for (game, opponent), (games, points) in sorted(table.items())
        ]

    # --- games ----------------------------------------------------------------------------------
    def games(self, wanted: GameFilter) -> dict[str, Any]:
        """Stored games newest first, with their seats, filtered; and how many match in all.
        Never their seeds: these rows are published as they are."""
        where: list[str] = ["1 = 1"]
        params: list[Any] = []
        if wanted.game:
            where.append("g.game = ?")
            params.append(wanted.game)
        if wanted.tournament is not None:
            where.append("g.tournament_id = ?")
            params.append(wanted.tournament)
        if wanted.bot:
            where.append(
                "g.id IN (SELECT s.game_id FROM seat s JOIN bot_version v ON "
                "v.id = s.bot_version_id JOIN bot b ON b.id = v.bot_id WHERE b.name = ?)"
            )
            params.append(wanted.bot)
        if wanted.outcome == "voided":
            where.append("g.status = 'voided'")
        elif wanted.outcome == "completed":
            where.append("g.status = 'finished' AND g.termination = 'completed'")
        elif wanted.outcome == "forfeit":
            where.append("g.status = 'finished' AND g.termination != 'completed'")
        clause = " AND ".join(where)
        with self.connect() as db:
            total = db.execute(f"SELECT COUNT(*) FROM game g WHERE {clause}", params).fetchone()[0]
            rows = db.execute(
                "SELECT g.id, g.game, g.num_players, g.status, g.termination, "
                "g.finished_at, g.duration, json_array_length(g.actions) AS decisions, "
                "g.tournament_id, t.name AS tournament FROM game g "
                f"LEFT JOIN tournament t ON t.id = g.tournament_id WHERE {clause} "
                "ORDER BY g.id DESC LIMIT ? OFFSET ?",
                [*params, wanted.limit, wanted.offset],
            ).fetchall()
            games = [dict(row) for row in rows]
            self._attach_seats(db, games)
        return {"total": total, "limit": wanted.limit, "offset": wanted.offset, "games": games}

    def game(self, game_id: int) -> dict[str, Any] | None:
        """One stored game: everything the replay needs (seed, options, actions) and its seats."""
        with self.connect() as db:
            # A database of schema 1 (before per-decision times and comments) still shows; a
            # tournament may migrate it while the server runs.
            columns = {row[1] for row in db.execute("PRAGMA table_info(game)")}
            extra = (
                ", g.decision_seconds, g.comments"
                if {"decision_seconds", "comments"} <= columns
                else ""
            )
            row = db.execute(
                "SELECT g.id, g.game, g.rules_version, g.options, g.seed, g.num_players, "
                "g.status, g.actions, g.termination, g.duration, g.finished_at, "
                f"g.tournament_id, t.name AS tournament{extra} FROM game g "
                "LEFT JOIN tournament t ON t.id = g.tournament_id WHERE g.id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            game = dict(row)
            self._attach_seats(db, [game])
        for key in ("options", "actions", "decision_seconds", "comments"):
            value = game.get(key)
            game[key] = json.loads(value) if isinstance(value, str) else value
        return game

    @staticmethod
    def _attach_seats(db: sqlite3.Connection, games: list[dict[str, Any]]) -> None:
        if not games:
            return
        by_id = {game["id"]: game for game in games}
        for game in games:
            game["seats"] = []
        marks = ",".join("?" * len(by_id))
        for row in db.execute(
            "SELECT s.game_id, s.seat, b.name AS bot, v.version, v.id AS version_id, s.score, "
            "s.rank, s.outcome, s.reason, s.time_used, s.decisions FROM seat s "
            "JOIN bot_version v ON v.id = s.bot_version_id JOIN bot b ON b.id = v.bot_id "
            f"WHERE s.game_id IN ({marks}) ORDER BY s.game_id, s.seat",
            list(by_id),
        ):
            seat = dict(row)
            by_id[seat.pop("game_id")]["seats"].append(seat)

    # --- tournaments ----------------------------------------------------------------------------
    def tournaments(self) -> list[dict[str, Any]]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT t.id, t.name, t.game, t.settings, t.state, t.created_at, t.finished_at, "
                "(SELECT COUNT(*) FROM tournament_entrant e WHERE e.tournament_id = t.id) "
                "AS entrants, (SELECT COUNT(*) FROM game g WHERE g.tournament_id = t.id AND "
                "g.status = 'finished') AS games FROM tournament t ORDER BY t.id DESC"
            ).fetchall()
        return [_tournament(row) for row in rows]

    def tournament(self, tournament_id: int) -> dict[str, Any] | None:
        """Settings, entrants and progress: games finished (and with a forfeit), voided attempts,
        out of the schedule's size. Not the seed: every deal's seed follows from it."""
        with self.connect() as db:
            row = db.execute(
                "SELECT t.id, t.name, t.game, t.settings, t.state, t.created_at, "
                "t.finished_at FROM tournament t WHERE t.id = ?",
                (tournament_id,),
            ).fetchone()
            if row is None:
                return None
            entrants = [
                dict(r)
                for r in db.execute(
                    "SELECT e.position, e.bot_version_id AS version_id, b.name AS bot, v.version "
                    "FROM tournament_entrant e JOIN bot_version v ON v.id = e.bot_version_id "
                    "JOIN bot b ON b.id = v.bot_id WHERE e.tournament_id = ? ORDER BY e.position",
                    (tournament_id,),
                )
            ]
            counts = db.execute(
                "SELECT SUM(status = 'finished'), SUM(status = 'finished' AND "
                "termination != 'completed'), SUM(status = 'voided') FROM game "
                "WHERE tournament_id = ?",
                (tournament_id,),
            ).fetchone()
        tournament = _tournament(row)
        settings = tournament["settings"]
        scheduled = schedule_size(
            len(entrants), int(settings.get("players", 2)), int(settings.get("deals", 1))
        )
        tournament.update(
            entrants=entrants,
            progress={
                "scheduled": scheduled,
                "finished": counts[0] or 0,
                "with_forfeit": counts[1] or 0,
                "voided": counts[2] or 0,
            },
        )
        return tournament


def _tournament(row: sqlite3.Row) -> dict[str, Any]:
    tournament = dict(row)
    tournament["settings"] = json.loads(tournament["settings"])
    return tournament
