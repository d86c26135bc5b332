"""Reading the arena database without ever writing to it: what the web arena and ``arena
history`` show.

Every session opens its own SQLite connection with ``mode=ro``: a reader can never write, and in
WAL mode its reads never block a tournament that writes at the same time (and see every game
committed before the read began). The queries are written over the tables of ``models``, like
every other query of the arena, and return plain dicts ready for JSON; ratings are computed
elsewhere (the leaderboard builder) from ``game_results``. Dates are returned as they are stored
(text), which is what the API has always published.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import ColumnElement, Executable, String, create_engine, func, select, type_coerce
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import aliased
from sqlalchemy.pool import NullPool
from sqlmodel import Session, and_, col

from arena.errors import DatabasePathError, StorageError
from arena.records import Outcome
from arena.storage.games import finished_game_results
from arena.storage.models import (
    Bot,
    BotVersion,
    GameOutcome,
    GameRecord,
    GameStatus,
    RatingHistory,
    SeatRecordRow,
    Tournament,
    TournamentEntrant,
)
from arena.tournament.schedule import schedule_size
from leaderboard.results import GameResult, SeatResult, pair_score

_BUSY_MILLISECONDS = 5000
_ARENA_TABLES = {"game", "seat", "bot", "bot_version"}
_FORFEITS_LISTED = 50  # the newest, on a bot's page


@dataclass(frozen=True)
class GameFilter:
    game: str | None = None
    bot: str | None = None
    tournament: int | None = None
    outcome: GameOutcome | None = None
    limit: int = 50
    offset: int = 0


def outcome_is(outcome: GameOutcome) -> ColumnElement[bool]:
    """The games that ended so: the one place that reads ``termination`` as a flag."""
    finished = col(GameRecord.status) == GameStatus.FINISHED
    completed = col(GameRecord.termination) == GameOutcome.COMPLETED
    if outcome == GameOutcome.COMPLETED:
        return and_(finished, completed)
    if outcome == GameOutcome.FORFEIT:
        return and_(finished, ~completed)
    return col(GameRecord.status) == GameStatus.VOIDED


def _stored_text(column: Any, name: str) -> Any:
    """A date column as the text SQLite holds (not a datetime): what the pages and API show."""
    return type_coerce(column, String).label(name)


def _version_columns() -> list[Any]:
    """What every listing of bot versions shows first (the hash is cut to 8 characters later)."""
    return [
        col(BotVersion.id),
        col(BotVersion.version),
        col(BotVersion.content_hash),
        _stored_text(col(BotVersion.created_at), "created_at"),
    ]


def _forfeit(outcome: str) -> str:
    """A seat's outcome as ``leaderboard`` takes it: "" for a seat that finished."""
    return "" if outcome == Outcome.FINISHED.value else outcome


class ReadOnlyDatabase:
    def __init__(self, path: Path) -> None:
        self.path = path
        # No pool: every session opens its own connection, read-only.
        self._engine = create_engine("sqlite://", creator=self._open, poolclass=NullPool)
        if not path.is_file():
            raise DatabasePathError(
                f"{path}: no arena database here (run a tournament first, or pass --db PATH)"
            )
        with self.session() as session:
            tables = set(
                session.connection()
                .exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table'")
                .scalars()
            )
        if not tables:
            raise DatabasePathError(f"{path}: an empty database, not an arena database yet")
        if not _ARENA_TABLES <= tables:
            raise StorageError(f"{path}: not an arena database (another program's)")

    def _open(self) -> sqlite3.Connection:
        try:
            connection = sqlite3.connect(
                f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False
            )
            connection.execute(f"PRAGMA busy_timeout = {_BUSY_MILLISECONDS}")
        except sqlite3.Error as exc:
            raise StorageError(f"{self.path}: cannot open: {exc}") from None
        return connection

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session over a read-only connection of its own; a failing read is a StorageError."""
        try:
            with Session(self._engine) as session:
                yield session
        except DBAPIError as exc:
            raise StorageError(f"{self.path}: database error: {exc.orig}") from None

    def _rows(self, query: Executable) -> list[dict[str, Any]]:
        with self.session() as session:
            return [dict(row._mapping) for row in session.connection().execute(query)]

    # --- overview -------------------------------------------------------------------------------
    def data_version(self) -> tuple[int, int]:
        """(newest game id, games stored): changes whenever a game is recorded, so derived data
        (ratings) can be cached until it does."""
        (row,) = self._rows(
            select(
                func.coalesce(func.max(col(GameRecord.id)), 0).label("newest"),
                func.count(col(GameRecord.id)).label("stored"),
            )
        )
        return int(row["newest"]), int(row["stored"])

    def games_played(self) -> list[dict[str, Any]]:
        """Game types and player counts with rated games: the leaderboards that exist."""
        return self._rows(
            select(col(GameRecord.game), col(GameRecord.num_players), func.count().label("games"))
            .where(col(GameRecord.status) == GameStatus.FINISHED)
            .group_by(col(GameRecord.game), col(GameRecord.num_players))
            .order_by(col(GameRecord.game), col(GameRecord.num_players))
        )

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
        newest = (
            select(func.max(col(BotVersion.id)))
            .where(col(BotVersion.bot_id) == col(Bot.id))
            .correlate(Bot)
            .scalar_subquery()
        )
        rows = self._rows(
            select(
                *_version_columns(),
                col(Bot.name),
                (col(BotVersion.id) == newest).label("latest"),
            )
            .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
            .where(col(BotVersion.id).in_(ids))
        )
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
        with self.session() as session:
            return list(session.scalars(select(col(Bot.name)).order_by(col(Bot.name))))

    def bots(self) -> list[dict[str, Any]]:
        return self._rows(
            select(
                col(Bot.name),
                func.count(func.distinct(col(BotVersion.id))).label("versions"),
                func.count(col(SeatRecordRow.game_id)).label("games"),
            )
            .join(BotVersion, col(BotVersion.bot_id) == col(Bot.id))
            .outerjoin(SeatRecordRow, col(SeatRecordRow.bot_version_id) == col(BotVersion.id))
            .group_by(col(Bot.id))
            .order_by(col(Bot.name))
        )

    def bot(self, name: str) -> dict[str, Any] | None:
        """A bot's versions, results per game type, forfeits and Elo history."""
        found = self._rows(
            select(
                col(Bot.id), col(Bot.name), _stored_text(col(Bot.created_at), "created_at")
            ).where(col(Bot.name) == name)
        )
        if not found:
            return None
        bot = found[0]
        versions = self._rows(
            select(
                *_version_columns(),
                col(BotVersion.directory),
                col(BotVersion.address),
                col(BotVersion.games),
            )
            .where(col(BotVersion.bot_id) == bot["id"])
            .order_by(col(BotVersion.id))
        )
        ids = [version["id"] for version in versions]
        seats = self._rows(
            select(
                col(GameRecord.game),
                col(SeatRecordRow.rank),
                col(SeatRecordRow.outcome),
                col(SeatRecordRow.reason),
                col(SeatRecordRow.game_id),
                col(SeatRecordRow.seat),
            )
            .join(GameRecord, col(GameRecord.id) == col(SeatRecordRow.game_id))
            .where(
                col(SeatRecordRow.bot_version_id).in_(ids),
                col(GameRecord.status) == GameStatus.FINISHED,
            )
            .order_by(col(SeatRecordRow.game_id))
        )
        history = self._rows(
            select(
                col(RatingHistory.game_id),
                col(RatingHistory.game),
                col(RatingHistory.bot_version_id),
                col(RatingHistory.before),
                col(RatingHistory.after),
                _stored_text(col(GameRecord.finished_at), "finished_at"),
                col(GameRecord.num_players),
            )
            .join(GameRecord, col(GameRecord.id) == col(RatingHistory.game_id))
            .where(col(RatingHistory.bot_version_id).in_(ids))
            .order_by(col(RatingHistory.id))
        )
        for version in versions:
            version["hash"] = version.pop("content_hash")[:8]
        results, forfeits = _results_per_game(seats)
        return {
            "name": bot["name"],
            "created_at": bot["created_at"],
            "versions": versions,
            "results": results,
            "forfeits": forfeits[-_FORFEITS_LISTED:][::-1],
            "rating_history": history,
            "version_ids": ids,
        }

    def head_to_head(self, version_ids: list[int]) -> list[dict[str, Any]]:
        """Per opponent bot and game type: games together, and points (win 1, draw 1/2, and a
        forfeiting seat loses to every finisher) of the given versions against it."""
        me, them = aliased(SeatRecordRow), aliased(SeatRecordRow)
        rows = self._rows(
            select(
                col(GameRecord.game),
                col(me.rank),
                col(me.outcome),
                col(them.rank).label("their_rank"),
                col(them.outcome).label("their_outcome"),
                col(Bot.name).label("opponent"),
            )
            .select_from(me)
            .join(them, and_(col(them.game_id) == me.game_id, col(them.seat) != me.seat))
            .join(GameRecord, col(GameRecord.id) == me.game_id)
            .join(BotVersion, col(BotVersion.id) == them.bot_version_id)
            .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
            .where(
                col(me.bot_version_id).in_(version_ids),
                col(GameRecord.status) == GameStatus.FINISHED,
                col(them.bot_version_id).not_in(version_ids),
            )
        )
        table: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
        for row in rows:
            mine = SeatResult("me", row["rank"], 0.0, _forfeit(row["outcome"]))
            theirs = SeatResult("them", row["their_rank"], 0.0, _forfeit(row["their_outcome"]))
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
        where: list[ColumnElement[bool]] = []
        if wanted.game:
            where.append(col(GameRecord.game) == wanted.game)
        if wanted.tournament is not None:
            where.append(col(GameRecord.tournament_id) == wanted.tournament)
        if wanted.bot:
            played = (
                select(col(SeatRecordRow.game_id))
                .join(BotVersion, col(BotVersion.id) == col(SeatRecordRow.bot_version_id))
                .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
                .where(col(Bot.name) == wanted.bot)
            )
            where.append(col(GameRecord.id).in_(played))
        if wanted.outcome is not None:
            where.append(outcome_is(wanted.outcome))
        with self.session() as session:
            total = session.scalar(select(func.count()).select_from(GameRecord).where(*where))
        games = self._rows(
            select(
                col(GameRecord.id),
                col(GameRecord.game),
                col(GameRecord.num_players),
                col(GameRecord.status),
                col(GameRecord.termination),
                _stored_text(col(GameRecord.finished_at), "finished_at"),
                col(GameRecord.duration),
                func.json_array_length(col(GameRecord.actions)).label("decisions"),
                col(GameRecord.tournament_id),
                col(Tournament.name).label("tournament"),
            )
            .outerjoin(Tournament, col(Tournament.id) == col(GameRecord.tournament_id))
            .where(*where)
            .order_by(col(GameRecord.id).desc())
            .limit(wanted.limit)
            .offset(wanted.offset)
        )
        self._attach_seats(games)
        return {"total": total, "limit": wanted.limit, "offset": wanted.offset, "games": games}

    def game(self, game_id: int) -> dict[str, Any] | None:
        """One stored game: everything the replay needs (seed, options, actions) and its seats."""
        with self.session() as session:
            # A database of schema 1 (before per-decision times and comments) still shows; a
            # tournament may migrate it while the server runs.
            stored = {
                row[1] for row in session.connection().exec_driver_sql("PRAGMA table_info(game)")
            }
        since_schema_2 = {
            "decision_seconds": col(GameRecord.decision_seconds),
            "comments": col(GameRecord.comments),
        }
        found = self._rows(
            select(
                col(GameRecord.id),
                col(GameRecord.game),
                col(GameRecord.rules_version),
                col(GameRecord.options),
                col(GameRecord.seed),
                col(GameRecord.num_players),
                col(GameRecord.status),
                col(GameRecord.actions),
                col(GameRecord.termination),
                col(GameRecord.duration),
                _stored_text(col(GameRecord.finished_at), "finished_at"),
                col(GameRecord.tournament_id),
                col(Tournament.name).label("tournament"),
                *(column for name, column in since_schema_2.items() if name in stored),
            )
            .outerjoin(Tournament, col(Tournament.id) == col(GameRecord.tournament_id))
            .where(col(GameRecord.id) == game_id)
        )
        if not found:
            return None
        game = found[0]
        for name in since_schema_2:
            game.setdefault(name, None)
        self._attach_seats([game])
        return game

    def _attach_seats(self, games: list[dict[str, Any]]) -> None:
        if not games:
            return
        by_id = {game["id"]: game for game in games}
        for game in games:
            game["seats"] = []
        for seat in self._rows(
            select(
                col(SeatRecordRow.game_id),
                col(SeatRecordRow.seat),
                col(Bot.name).label("bot"),
                col(BotVersion.version),
                col(BotVersion.id).label("version_id"),
                col(SeatRecordRow.score),
                col(SeatRecordRow.rank),
                col(SeatRecordRow.outcome),
                col(SeatRecordRow.reason),
                col(SeatRecordRow.time_used),
                col(SeatRecordRow.decisions),
            )
            .join(BotVersion, col(BotVersion.id) == col(SeatRecordRow.bot_version_id))
            .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
            .where(col(SeatRecordRow.game_id).in_(list(by_id)))
            .order_by(col(SeatRecordRow.game_id), col(SeatRecordRow.seat))
        ):
            by_id[seat.pop("game_id")]["seats"].append(seat)

    # --- tournaments ----------------------------------------------------------------------------
    def _tournament_columns(self) -> list[Any]:
        return [
            col(Tournament.id),
            col(Tournament.name),
            col(Tournament.game),
            col(Tournament.settings),
            col(Tournament.state),
            _stored_text(col(Tournament.created_at), "created_at"),
            _stored_text(col(Tournament.finished_at), "finished_at"),
        ]

    def tournaments(self) -> list[dict[str, Any]]:
        entrants = (
            select(func.count())
            .where(col(TournamentEntrant.tournament_id) == col(Tournament.id))
            .correlate(Tournament)
            .scalar_subquery()
        )
        games = (
            select(func.count())
            .where(
                col(GameRecord.tournament_id) == col(Tournament.id),
                col(GameRecord.status) == GameStatus.FINISHED,
            )
            .correlate(Tournament)
            .scalar_subquery()
        )
        return self._rows(
            select(
                *self._tournament_columns(),
                entrants.label("entrants"),
                games.label("games"),
            ).order_by(col(Tournament.id).desc())
        )

    def tournament(self, tournament_id: int) -> dict[str, Any] | None:
        """Settings, entrants and progress: games finished (and with a forfeit), voided attempts,
        out of the schedule's size. Not the seed: every deal's seed follows from it."""
        found = self._rows(
            select(*self._tournament_columns()).where(col(Tournament.id) == tournament_id)
        )
        if not found:
            return None
        tournament = found[0]
        entrants = self._rows(
            select(
                col(TournamentEntrant.position),
                col(TournamentEntrant.bot_version_id).label("version_id"),
                col(Bot.name).label("bot"),
                col(BotVersion.version),
            )
            .join(BotVersion, col(BotVersion.id) == col(TournamentEntrant.bot_version_id))
            .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
            .where(col(TournamentEntrant.tournament_id) == tournament_id)
            .order_by(col(TournamentEntrant.position))
        )
        with self.session() as session:
            finished, with_forfeit, voided = (
                session.scalar(
                    select(func.count())
                    .select_from(GameRecord)
                    .where(col(GameRecord.tournament_id) == tournament_id, condition)
                )
                for condition in (
                    col(GameRecord.status) == GameStatus.FINISHED,
                    outcome_is(GameOutcome.FORFEIT),
                    outcome_is(GameOutcome.VOIDED),
                )
            )
        settings = tournament["settings"]
        scheduled = schedule_size(
            len(entrants), int(settings.get("players", 2)), int(settings.get("deals", 1))
        )
        tournament.update(
            entrants=entrants,
            progress={
                "scheduled": scheduled,
                "finished": finished,
                "with_forfeit": with_forfeit,
                "voided": voided,
            },
        )
        return tournament


def _results_per_game(
    seats: Sequence[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A bot's rated seats summed per game type (games, wins, forfeits, average rank of the
    games it finished), and its forfeits, oldest first."""
    per_game: dict[str, Counter[str]] = defaultdict(Counter)
    rank_sums: Counter[str] = Counter()
    forfeits = []
    for row in seats:
        tally = per_game[row["game"]]
        tally["games"] += 1
        if row["outcome"] == Outcome.FINISHED.value:
            tally["wins"] += row["rank"] == 1
            rank_sums[row["game"]] += row["rank"]
        else:
            tally["forfeits"] += 1
            forfeits.append(
                {key: row[key] for key in ("game_id", "game", "seat", "outcome", "reason")}
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
    return results, forfeits
