"""Reading the arena database without ever writing to it: what the web arena and ``arena
history`` show.

Every session opens its own SQLite connection with ``mode=ro``: a reader can never write, and in
WAL mode its reads never block a tournament that writes at the same time (and see every game
committed before the read began). On PostgreSQL the connections (pooled) are read-only sessions
(``default_transaction_read_only``), and MVCC reads never wait for a writer either. The
statements (``statements``) are written over the tables of ``models``, like every other query of
the arena; the results are plain dicts ready for JSON, dates as text (what the API has always
published). Ratings are computed
elsewhere (the leaderboard builder) from ``game_results``.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Executable,
    create_engine,
    inspect,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool
from sqlmodel import Session, col, select

from arena.errors import DatabasePathError, StorageError
from arena.reasons import public_reason
from arena.records import Outcome
from arena.storage import ladders, migrations, postgres, run_lock, running, statements, withdrawals
from arena.storage.database import database_error, read_only_uri, stored_json_error
from arena.storage.models import GameOutcome, GameRecord, GameStatus, SchemaVersion, Tournament
from arena.storage.target import DatabaseTarget, PostgresUrl
from arena.storage.tournaments import RUNNING
from arena.tournament.schedule import schedule_size
from leaderboard.results import SeatResult, pair_score

_BUSY_MILLISECONDS = 5000
_ARENA_TABLES = {"game", "seat", "bot", "bot_version"}
_FORFEITS_LISTED = 50  # the newest, on a bot's page
# Elo updates charted on a bot's page, the newest: a ladder adds thousands an hour, and the page
# (and /api/bots/NAME) grew by 170 bytes a game without end (outside review).
_HISTORY_LISTED = 5_000


@dataclass(frozen=True)
class GameFilter:
    game: str | None = None
    bot: str | None = None
    bots: tuple[str, ...] | None = None  # games of any of these bots instead (a search's)
    tournament: int | None = None
    outcome: GameOutcome | None = None
    limit: int = 50
    offset: int = 0


def _forfeit(outcome: str) -> str:
    """A seat's outcome as ``leaderboard`` takes it: "" for a seat that finished."""
    return "" if outcome == Outcome.FINISHED.value else outcome


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
    def __init__(self, target: DatabaseTarget, *, public: bool = False) -> None:
        """``public``: for pages anyone may read (the web): forfeit reasons without the bots'
        own words and the host's paths (``arena.reasons``); else in full (the operator's CLI)."""
        self.target = target
        self.shown_reason = public_reason if public else _as_stored
        if isinstance(target, PostgresUrl):
            self._engine = postgres.make_engine(target, read_only=True)
        else:
            # No pool: every reading opens its own connection, read-only.
            self._engine = create_engine("sqlite://", creator=self._open, poolclass=NullPool)
            if not target.is_file():
                raise DatabasePathError(
                    f"{target}: no arena database here "
                    "(run a tournament or `arena authors add` first, or pass --db PATH)"
                )
        with self._reading() as db:
            tables = set(inspect(db.connection).get_table_names())
        if not tables:
            raise DatabasePathError(f"{target}: an empty database, not an arena database yet")
        if not _ARENA_TABLES <= tables:
            raise StorageError(f"{target}: not an arena database (another program's)")
        with self.session() as session:  # as open_database checks it for the other commands
            migrations.known_version(target, session.exec(select(SchemaVersion.version)).first())

    @property
    def path(self) -> Path:
        """The SQLite file (only for an SQLite database)."""
        assert isinstance(self.target, Path), "a file database"
        return self.target

    def _open(self) -> sqlite3.Connection:
        try:
            connection = sqlite3.connect(
                read_only_uri(self.path), uri=True, check_same_thread=False
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
            raise database_error(self.target, exc) from None

    @contextmanager
    def _reading(self) -> Iterator[_Reader]:
        try:
            with self._engine.connect() as connection:
                yield _Reader(connection)
        except DBAPIError as exc:
            raise database_error(self.target, exc) from None
        except json.JSONDecodeError as exc:
            raise stored_json_error(self.target, exc) from None

    # --- overview -------------------------------------------------------------------------------
    def data_version(self) -> tuple[int, int]:
        """(newest game id, games stored): changes whenever a game is recorded, so derived data
        (ratings) can be cached until it does."""
        with self._reading() as db:
            row = db.one(statements.DATA_VERSION)
        assert row is not None  # an aggregate: always one row
        return int(row["newest"]), int(row["stored"])

    def board_version(self, game: str, players: int, tournament: int | None) -> tuple[int, int]:
        """(newest game id, games) of one board's rated games: ``data_version`` for one board."""
        with self._reading() as db:
            row = db.one(
                statements.board_version(tournament),
                game=game,
                players=players,
                **({} if tournament is None else {"tournament": tournament}),
            )
        assert row is not None  # an aggregate: always one row
        return int(row["newest"]), int(row["stored"])

    def games_played(self) -> list[dict[str, Any]]:
        """Game types and player counts with rated games: the leaderboards that exist."""
        with self._reading() as db:
            return db.rows(statements.GAMES_PLAYED)

    # --- bots -----------------------------------------------------------------------------------
    def versions(self, ids: list[int]) -> dict[int, dict[str, Any]]:
        """Bot versions by id with their bot's name, and whether each is its bot's newest."""
        with self._reading() as db:
            rows = db.rows(statements.VERSIONS, ids=ids)
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
            return [row["name"] for row in db.rows(statements.BOT_NAMES)]

    def bots(self) -> list[dict[str, Any]]:
        with self._reading() as db:
            return db.rows(statements.BOTS)

    def bot(self, name: str) -> dict[str, Any] | None:
        """A bot's versions, results per game type, forfeits and Elo history."""
        with self._reading() as db:
            bot = db.one(statements.BOT, name=name)
            if bot is None:
                return None
            versions = db.rows(statements.BOT_VERSIONS, bot_id=bot["id"])
            ids = [version["id"] for version in versions]
            seats = db.rows(statements.RATED_SEATS, ids=ids)
            history = db.rows(statements.RATING_HISTORY, ids=ids, limit=_HISTORY_LISTED)[::-1]
        for version in versions:
            version["hash"] = version.pop("content_hash")[:8]
            version["remote"] = bool(version["remote"])
        for seat in seats:
            seat["reason"] = self.shown_reason(seat["reason"])
        results, forfeits = _results_per_game(seats)
        with self.session() as session:
            withdrawn = withdrawals.of_bots(session, [bot["id"]]).get(bot["id"])
        return {
            "name": bot["name"],
            "owner": bot["owner"],  # the author who submitted it ("operator": the host's own)
            "created_at": bot["created_at"],
            "withdrawn": withdrawn,  # why the operator took it out of play, or None
            "versions": versions,
            "results": results,
            "forfeits": forfeits[-_FORFEITS_LISTED:][::-1],
            "rating_history": history,
            "version_ids": ids,
        }

    def ladder_pauses(self, version_ids: list[int]) -> dict[int, list[str]]:
        """Why each of the versions is paused in ladders (``arena.storage.ladders.pauses``)."""
        with self.session() as session:
            return ladders.pauses(session, version_ids, shown=self.shown_reason)

    def head_to_head(self, version_ids: list[int]) -> list[dict[str, Any]]:
        """Per opponent bot and game type: games together, and points (win 1, draw 1/2, and a
        forfeiting seat loses to every finisher) of the given versions against it."""
        with self._reading() as db:
            rows = db.rows(statements.PAIRS, ids=version_ids)
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
        count, listing = statements.game_listing(
            wanted.game is not None,
            wanted.tournament is not None,
            wanted.bot is not None or wanted.bots is not None,
            wanted.outcome,
        )
        parameters = {
            "game": wanted.game,
            "tournament": wanted.tournament,
            "bots": list(wanted.bots) if wanted.bots is not None else [wanted.bot],
        }
        with self._reading() as db:
            counted = db.one(count, **parameters)
            games = db.rows(listing, limit=wanted.limit, offset=wanted.offset, **parameters)
            _attach_seats(db, games, self.shown_reason)
        assert counted is not None  # an aggregate: always one row
        return {
            "total": counted["total"],
            "limit": wanted.limit,
            "offset": wanted.offset,
            "games": games,
        }

    def latest_games_of_bots(
        self, tournament: int, bots: Sequence[str], limit: int
    ) -> dict[str, list[dict[str, Any]]]:
        """Each of ``bots``' latest ``limit`` games in ``tournament``, newest first, listed as
        ``games`` lists them: three queries in all, whatever the number of bots."""
        if not bots:
            return {}
        with self._reading() as db:
            pairs = db.rows(
                statements.LATEST_GAMES_OF_BOTS,
                tournament=tournament,
                bots=list(bots),
                limit=limit,
            )
            ids = sorted({pair["game_id"] for pair in pairs})
            games = db.rows(statements.LISTED_GAMES_BY_ID, ids=ids) if ids else []
            _attach_seats(db, games, self.shown_reason)
        by_id = {game["id"]: game for game in games}
        latest: dict[str, list[dict[str, Any]]] = {bot: [] for bot in bots}
        for pair in pairs:
            latest[pair["bot"]].append(by_id[pair["game_id"]])
        return latest

    def game(self, game_id: int) -> dict[str, Any] | None:
        """One stored game: everything the replay needs (seed, options, actions) and its seats."""
        with self._reading() as db:
            stored = {column["name"] for column in inspect(db.connection).get_columns("game")}
            game = db.one(
                statements.game_query(frozenset(statements.SINCE_SCHEMA_2) <= stored), id=game_id
            )
            if game is None:
                return None
            _attach_seats(db, [game], self.shown_reason)
        for name in statements.SINCE_SCHEMA_2:
            game.setdefault(name, None)
        game["held"] = deal_in_play(
            game, game.pop("tournament_state"), game.pop("deal_played") or 0
        )
        return game

    # --- tournaments ----------------------------------------------------------------------------
    def tournaments(self) -> list[dict[str, Any]]:
        with self._reading() as db:
            rows = db.rows(statements.TOURNAMENTS)
            for row in rows:
                row["state"] = self.shown_state(row["id"], row["state"], db.connection)
            return rows

    def games_in_play(
        self, session: Session, tournament_id: int | None = None
    ) -> list[dict[str, Any]]:
        """The games in play (``arena.storage.running.running``), but none of a tournament or
        ladder that no process runs: after kill -9 its rows keep a fresh heartbeat for up to
        ``running.STALE_SECONDS``, and a spectator would wait on a game that never moves."""
        rows = running.running(session, tournament_id)
        gone = self.runs_gone(session, {row["tournament_id"] for row in rows})
        return [row for row in rows if row["tournament_id"] not in gone]

    def runs_gone(self, session: Session, tournament_ids: set[int | None]) -> set[int]:
        """Those of the tournaments that no process runs now (``shown_state``)."""
        ids = [i for i in tournament_ids if i is not None]
        if not ids:
            return set()
        query = select(Tournament.id, Tournament.state).where(col(Tournament.id).in_(ids))
        stored = {i: state for i, state in session.exec(query).all()}
        connection = session.connection()
        return {i for i in ids if self.shown_state(i, stored.get(i, ""), connection) != RUNNING}

    def shown_state(self, tournament_id: int, state: str, connection: Connection) -> str:
        """``state`` as stored, but "stopped" for a "running" one that no process runs (killed:
        ``arena.storage.run_lock.shown_state``)."""
        return run_lock.shown_state(self.target, tournament_id, state, connection)

    def tournament(self, tournament_id: int) -> dict[str, Any] | None:
        """Settings, entrants and progress: games finished (and with a forfeit), voided attempts,
        out of the schedule's size. Not the seed: every deal's seed follows from it."""
        with self._reading() as db:
            tournament = db.one(statements.TOURNAMENT, id=tournament_id)
            if tournament is None:
                return None
            tournament["state"] = self.shown_state(
                tournament_id, tournament["state"], db.connection
            )
            entrants = db.rows(statements.ENTRANTS, id=tournament_id)
            progress = db.one(statements.PROGRESS, id=tournament_id)
        assert progress is not None  # an aggregate: always one row
        settings = tournament["settings"]
        scheduled = (
            None  # a ladder plays on without a schedule
            if settings.get("ladder")
            else schedule_size(
                len(entrants), int(settings.get("players", 2)), int(settings.get("deals", 1))
            )
        )
        tournament.update(entrants=entrants, progress={"scheduled": scheduled, **progress})
        return tournament


def deal_in_play(game: dict[str, Any], tournament_state: str | None, played: int) -> Any:
    """Whether a game's replay is held back, and why: ``{"played": k, "rotations": n}`` while the
    other seat rotations of its deal (its tournament's games of the same seed: a tournament, an
    SPRT test or a ladder plays each deal once per rotation) may still be played or are in play,
    else None. Every rotation deals the same cards, so a finished game's replay, a seat's own
    included, would tell what the seats of the others hold and will draw. An unfinished deal is
    held while its tournament is not over (a stopped one may be resumed)."""
    rotations = game["num_players"]
    if game["tournament_id"] is None or tournament_state == "finished" or played >= rotations:
        return None
    return {"played": played, "rotations": rotations}


def stored_deal_in_play(session: Session, game_id: int) -> Any:
    """``deal_in_play`` of the stored game ``game_id`` (None if there is none)."""
    found = session.execute(
        select(
            col(GameRecord.tournament_id),
            col(GameRecord.num_players),
            col(Tournament.state),
            statements.DEAL_PLAYED,
        )
        .outerjoin(Tournament, col(Tournament.id) == col(GameRecord.tournament_id))
        .where(col(GameRecord.id) == game_id)
    ).first()
    if found is None:
        return None
    tournament_id, num_players, state, played = found
    game = {"tournament_id": tournament_id, "num_players": num_players}
    return deal_in_play(game, state, played or 0)


def _attach_seats(db: _Reader, games: list[dict[str, Any]], reason: Callable[[str], str]) -> None:
    if not games:
        return
    by_id = {game["id"]: game for game in games}
    for game in games:
        game["seats"] = []
    for seat in db.rows(statements.SEATS, ids=list(by_id)):
        seat["reason"] = reason(seat["reason"])
        by_id[seat.pop("game_id")]["seats"].append(seat)
    if reason is not _as_stored:
        for game in games:
            _shown_termination(game)


def _shown_termination(game: dict[str, Any]) -> None:
    """A finished game's ``termination`` names its forfeits with their reasons as stored ("seat 1
    CRASH: ..."): made again from its seats, whose reasons are as shown."""
    if game.get("status") == GameStatus.VOIDED or game.get("termination") in (
        None,
        GameOutcome.COMPLETED,
    ):
        return  # a voided game's fault is the arena's
    forfeits = [
        f"seat {seat['seat']} {seat['outcome']}: {seat['reason']}"
        for seat in game["seats"]
        if seat["outcome"] != Outcome.FINISHED.value
    ]
    if forfeits:
        game["termination"] = "; ".join(forfeits)


def _as_stored(reason: str) -> str:
    return reason


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
