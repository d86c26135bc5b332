"""Reading the arena database without ever writing to it: what the web arena and ``arena
history`` show.

Every session opens its own SQLite connection with ``mode=ro``: a reader can never write, and in
WAL mode its reads never block a tournament that writes at the same time (and see every game
committed before the read began). The queries are written over the tables of ``models``, like
every other query of the arena (built once, when the module loads: a page runs several, and
building them on every request cost more than running them), and return plain dicts ready for
JSON; ratings are computed
elsewhere (the leaderboard builder) from ``game_results``. Dates are returned as they are stored
(text), which is what the API has always published.
"""

from __future__ import annotations

import functools
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Executable,
    String,
    bindparam,
    create_engine,
    func,
    select,
    type_coerce,
)
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


def _forfeit(outcome: str) -> str:
    """A seat's outcome as ``leaderboard`` takes it: "" for a seat that finished."""
    return "" if outcome == Outcome.FINISHED.value else outcome


def _ids(name: str) -> Any:
    """A list of ids as one parameter (``IN``)."""
    return bindparam(name, expanding=True)


_FINISHED = col(GameRecord.status) == GameStatus.FINISHED
# What every listing of bot versions shows first (the hash is cut to 8 characters later).
_VERSION_COLUMNS = (
    col(BotVersion.id),
    col(BotVersion.version),
    col(BotVersion.content_hash),
    _stored_text(col(BotVersion.created_at), "created_at"),
)
_TOURNAMENT_COLUMNS = (
    col(Tournament.id),
    col(Tournament.name),
    col(Tournament.game),
    col(Tournament.settings),
    col(Tournament.state),
    _stored_text(col(Tournament.created_at), "created_at"),
    _stored_text(col(Tournament.finished_at), "finished_at"),
)
_LISTED_GAME_COLUMNS: tuple[Any, ...] = (
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
_REPLAYED_GAME_COLUMNS: tuple[Any, ...] = (
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
)
# Stored from schema 2 on: a database of schema 1 still shows (a tournament may migrate it while
# the server runs).
_SINCE_SCHEMA_2 = {
    "decision_seconds": col(GameRecord.decision_seconds),
    "comments": col(GameRecord.comments),
}

_DATA_VERSION = select(
    func.coalesce(func.max(col(GameRecord.id)), 0).label("newest"),
    func.count(col(GameRecord.id)).label("stored"),
)
_GAMES_PLAYED = (
    select(col(GameRecord.game), col(GameRecord.num_players), func.count().label("games"))
    .where(_FINISHED)
    .group_by(col(GameRecord.game), col(GameRecord.num_players))
    .order_by(col(GameRecord.game), col(GameRecord.num_players))
)
_NEWEST_VERSION = (
    select(func.max(col(BotVersion.id)))
    .where(col(BotVersion.bot_id) == col(Bot.id))
    .correlate(Bot)
    .scalar_subquery()
)
_VERSIONS = (
    select(
        *_VERSION_COLUMNS, col(Bot.name), (col(BotVersion.id) == _NEWEST_VERSION).label("latest")
    )
    .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
    .where(col(BotVersion.id).in_(_ids("ids")))
)
_BOT_NAMES = select(col(Bot.name)).order_by(col(Bot.name))
_BOTS = (
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
_BOT = select(col(Bot.id), col(Bot.name), _stored_text(col(Bot.created_at), "created_at")).where(
    col(Bot.name) == bindparam("name")
)
_BOT_VERSIONS = (
    select(
        *_VERSION_COLUMNS,
        col(BotVersion.directory),
        col(BotVersion.address),
        col(BotVersion.games),
    )
    .where(col(BotVersion.bot_id) == bindparam("bot_id"))
    .order_by(col(BotVersion.id))
)
_RATED_SEATS = (
    select(
        col(GameRecord.game),
        col(SeatRecordRow.rank),
        col(SeatRecordRow.outcome),
        col(SeatRecordRow.reason),
        col(SeatRecordRow.game_id),
        col(SeatRecordRow.seat),
    )
    .join(GameRecord, col(GameRecord.id) == col(SeatRecordRow.game_id))
    .where(col(SeatRecordRow.bot_version_id).in_(_ids("ids")), _FINISHED)
    .order_by(col(SeatRecordRow.game_id))
)
_RATING_HISTORY = (
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
    .where(col(RatingHistory.bot_version_id).in_(_ids("ids")))
    .order_by(col(RatingHistory.id))
)
_ME, _THEM = aliased(SeatRecordRow), aliased(SeatRecordRow)
_PAIRS: Executable = (
    select(
        col(GameRecord.game),
        col(_ME.rank),
        col(_ME.outcome),
        col(_THEM.rank).label("their_rank"),
        col(_THEM.outcome).label("their_outcome"),
        col(Bot.name).label("opponent"),
    )
    .select_from(_ME)
    .join(_THEM, and_(col(_THEM.game_id) == _ME.game_id, col(_THEM.seat) != _ME.seat))
    .join(GameRecord, col(GameRecord.id) == _ME.game_id)
    .join(BotVersion, col(BotVersion.id) == _THEM.bot_version_id)
    .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
    .where(
        col(_ME.bot_version_id).in_(_ids("ids")),
        _FINISHED,
        col(_THEM.bot_version_id).not_in(_ids("ids")),
    )
)
_SEATS: Executable = (
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
    .where(col(SeatRecordRow.game_id).in_(_ids("ids")))
    .order_by(col(SeatRecordRow.game_id), col(SeatRecordRow.seat))
)
_GAMES_OF_BOT = (
    select(col(SeatRecordRow.game_id))
    .join(BotVersion, col(BotVersion.id) == col(SeatRecordRow.bot_version_id))
    .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
    .where(col(Bot.name) == bindparam("bot"))
)
_TOURNAMENTS = select(
    *_TOURNAMENT_COLUMNS,
    select(func.count())
    .where(col(TournamentEntrant.tournament_id) == col(Tournament.id))
    .correlate(Tournament)
    .scalar_subquery()
    .label("entrants"),
    select(func.count())
    .where(col(GameRecord.tournament_id) == col(Tournament.id), _FINISHED)
    .correlate(Tournament)
    .scalar_subquery()
    .label("games"),
).order_by(col(Tournament.id).desc())
_TOURNAMENT = select(*_TOURNAMENT_COLUMNS).where(col(Tournament.id) == bindparam("id"))
_ENTRANTS: Executable = (
    select(
        col(TournamentEntrant.position),
        col(TournamentEntrant.bot_version_id).label("version_id"),
        col(Bot.name).label("bot"),
        col(BotVersion.version),
    )
    .join(BotVersion, col(BotVersion.id) == col(TournamentEntrant.bot_version_id))
    .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
    .where(col(TournamentEntrant.tournament_id) == bindparam("id"))
    .order_by(col(TournamentEntrant.position))
)
_PROGRESS = select(
    *(
        func.count().filter(condition).label(name)
        for name, condition in (
            ("finished", _FINISHED),
            ("with_forfeit", outcome_is(GameOutcome.FORFEIT)),
            ("voided", outcome_is(GameOutcome.VOIDED)),
        )
    )
).where(col(GameRecord.tournament_id) == bindparam("id"))


class _Reader:
    """One read-only connection: a public query runs all its statements on one."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def rows(self, statement: Executable, **parameters: Any) -> list[dict[str, Any]]:
        return [dict(row._mapping) for row in self.connection.execute(statement, parameters)]

    def one(self, statement: Executable, **parameters: Any) -> dict[str, Any] | None:
        found = self.rows(statement, **parameters)
        return found[0] if found else None


class ReadOnlyDatabase:
    def __init__(self, path: Path) -> None:
        self.path = path
        # No pool: every reading opens its own connection, read-only.
        self._engine = create_engine("sqlite://", creator=self._open, poolclass=NullPool)
        if not path.is_file():
            raise DatabasePathError(
                f"{path}: no arena database here (run a tournament first, or pass --db PATH)"
            )
        with self._reading() as db:
            tables = set(
                db.connection.exec_driver_sql(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                ).scalars()
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
        """A session over a read-only connection of its own, for ``arena.storage``'s ORM
        queries; a failing read is a StorageError."""
        try:
            with Session(self._engine) as session:
                yield session
        except DBAPIError as exc:
            raise StorageError(f"{self.path}: database error: {exc.orig}") from None

    @contextmanager
    def _reading(self) -> Iterator[_Reader]:
        try:
            with self._engine.connect() as connection:
                yield _Reader(connection)
        except DBAPIError as exc:
            raise StorageError(f"{self.path}: database error: {exc.orig}") from None

    # --- overview -------------------------------------------------------------------------------
    def data_version(self) -> tuple[int, int]:
        """(newest game id, games stored): changes whenever a game is recorded, so derived data
        (ratings) can be cached until it does."""
        with self._reading() as db:
            row = db.one(_DATA_VERSION)
        assert row is not None  # an aggregate: always one row
        return int(row["newest"]), int(row["stored"])

    def games_played(self) -> list[dict[str, Any]]:
        """Game types and player counts with rated games: the leaderboards that exist."""
        with self._reading() as db:
            return db.rows(_GAMES_PLAYED)

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
        with self._reading() as db:
            rows = db.rows(_VERSIONS, ids=ids)
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
        with self._reading() as db:
            return [row["name"] for row in db.rows(_BOT_NAMES)]

    def bots(self) -> list[dict[str, Any]]:
        with self._reading() as db:
            return db.rows(_BOTS)

    def bot(self, name: str) -> dict[str, Any] | None:
        """A bot's versions, results per game type, forfeits and Elo history."""
        with self._reading() as db:
            bot = db.one(_BOT, name=name)
            if bot is None:
                return None
            versions = db.rows(_BOT_VERSIONS, bot_id=bot["id"])
            ids = [version["id"] for version in versions]
            seats = db.rows(_RATED_SEATS, ids=ids)
            history = db.rows(_RATING_HISTORY, ids=ids)
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
        with self._reading() as db:
            rows = db.rows(_PAIRS, ids=version_ids)
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
        count, listing = _game_listing(
            wanted.game is not None,
            wanted.tournament is not None,
            wanted.bot is not None,
            wanted.outcome,
        )
        parameters = {
            "game": wanted.game,
            "tournament": wanted.tournament,
            "bot": wanted.bot,
        }
        with self._reading() as db:
            counted = db.one(count, **parameters)
            games = db.rows(listing, limit=wanted.limit, offset=wanted.offset, **parameters)
            _attach_seats(db, games)
        assert counted is not None  # an aggregate: always one row
        return {
            "total": counted["total"],
            "limit": wanted.limit,
            "offset": wanted.offset,
            "games": games,
        }

    def game(self, game_id: int) -> dict[str, Any] | None:
        """One stored game: everything the replay needs (seed, options, actions) and its seats."""
        with self._reading() as db:
            stored = {row[1] for row in db.connection.exec_driver_sql("PRAGMA table_info(game)")}
            game = db.one(_game_query(frozenset(_SINCE_SCHEMA_2) <= stored), id=game_id)
            if game is None:
                return None
            _attach_seats(db, [game])
        for name in _SINCE_SCHEMA_2:
            game.setdefault(name, None)
        return game

    # --- tournaments ----------------------------------------------------------------------------
    def tournaments(self) -> list[dict[str, Any]]:
        with self._reading() as db:
            return db.rows(_TOURNAMENTS)

    def tournament(self, tournament_id: int) -> dict[str, Any] | None:
        """Settings, entrants and progress: games finished (and with a forfeit), voided attempts,
        out of the schedule's size. Not the seed: every deal's seed follows from it."""
        with self._reading() as db:
            tournament = db.one(_TOURNAMENT, id=tournament_id)
            if tournament is None:
                return None
            entrants = db.rows(_ENTRANTS, id=tournament_id)
            progress = db.one(_PROGRESS, id=tournament_id)
        assert progress is not None  # an aggregate: always one row
        settings = tournament["settings"]
        scheduled = schedule_size(
            len(entrants), int(settings.get("players", 2)), int(settings.get("deals", 1))
        )
        tournament.update(entrants=entrants, progress={"scheduled": scheduled, **progress})
        return tournament


@functools.cache
def _game_listing(
    by_game: bool, by_tournament: bool, by_bot: bool, outcome: GameOutcome | None
) -> tuple[Executable, Executable]:
    """The count and the page of the games a filter of this shape selects (its values are
    parameters), built once per shape."""
    where: list[ColumnElement[bool]] = []
    if by_game:
        where.append(col(GameRecord.game) == bindparam("game"))
    if by_tournament:
        where.append(col(GameRecord.tournament_id) == bindparam("tournament"))
    if by_bot:
        where.append(col(GameRecord.id).in_(_GAMES_OF_BOT))
    if outcome is not None:
        where.append(outcome_is(outcome))
    count = select(func.count().label("total")).select_from(GameRecord).where(*where)
    listing = (
        select(*_LISTED_GAME_COLUMNS)
        .outerjoin(Tournament, col(Tournament.id) == col(GameRecord.tournament_id))
        .where(*where)
        .order_by(col(GameRecord.id).desc())
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
    )
    return count, listing


@functools.cache
def _game_query(with_times: bool) -> Executable:
    """One game, with the per-decision times and comments (a database of schema 2 on) or
    without them (schema 1)."""
    return (
        select(*_REPLAYED_GAME_COLUMNS, *(_SINCE_SCHEMA_2.values() if with_times else ()))
        .outerjoin(Tournament, col(Tournament.id) == col(GameRecord.tournament_id))
        .where(col(GameRecord.id) == bindparam("id"))
    )


def _attach_seats(db: _Reader, games: list[dict[str, Any]]) -> None:
    if not games:
        return
    by_id = {game["id"]: game for game in games}
    for game in games:
        game["seats"] = []
    for seat in db.rows(_SEATS, ids=list(by_id)):
        by_id[seat.pop("game_id")]["seats"].append(seat)


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
