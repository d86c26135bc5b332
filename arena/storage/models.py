"""The tables. Raw results (bots, versions, tournaments, games, seats) are the truth; the Elo
tables (``elo_rating``, ``rating_history``) are derived and can be recomputed from the games."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Index, Integer, UniqueConstraint, text
from sqlmodel import Field, SQLModel

# Seeds are 63-bit: SQLite's INTEGER holds them; PostgreSQL's is 32-bit, so BIGINT there (the
# SQLite schema stays as it was).
SEED = BigInteger().with_variant(Integer(), "sqlite")


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` aware, in UTC: read back naive (SQLite, a PostgreSQL ``timestamp``), it is UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


class GameStatus(StrEnum):
    """A stored game's ``status`` (the values are the stored strings)."""

    FINISHED = "finished"  # played to the end (forfeits included) and rated
    # Played to the end, stored for replay, not rated: ``arena match`` without --rated (a
    # debugging author's games must not move the boards). No board, Elo or results query reads it.
    UNRATED = "unrated"
    VOIDED = "voided"  # a fault on the arena's side: kept for the record, not rated, re-run


class GameOutcome(StrEnum):
    """How a stored game ended, as the history and the web filter it. A finished game's
    ``termination`` is ``COMPLETED`` when every seat finished; otherwise it names the forfeits
    ("seat 1 TIMEOUT: ..."), and a voided game's names the fault."""

    COMPLETED = "completed"  # finished, no seat forfeited
    FORFEIT = "forfeit"  # finished, at least one seat forfeited
    VOIDED = "voided"


class SchemaVersion(SQLModel, table=True):
    __tablename__ = "schema_version"
    id: int = Field(default=1, primary_key=True)
    version: int


class Sealing(SQLModel, table=True):
    """Since which game this database seals every game it stores (schema 4): a game from here on
    without a seal had it removed, and ``arena replay --verify`` fails it. Games before it were
    stored by an arena without seals (schema < 3) and replay as unverified."""

    __tablename__ = "sealing"
    id: int = Field(default=1, primary_key=True)
    sealed_from_game: int  # the first game id stored with a seal


OPERATOR = "operator"  # the built-in author of every bot registered on the host itself


class Author(SQLModel, table=True):
    """Who owns bots (schema 5): the operator (built in) and the authors the operator adds, who
    submit over the network with a token (``AuthorToken``)."""

    __tablename__ = "author"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    created_at: datetime = Field(default_factory=utc_now)


class AuthorToken(SQLModel, table=True):
    """An author's API token, as ``arena.tokens`` hashes it: never the token itself."""

    __tablename__ = "author_token"
    id: int | None = Field(default=None, primary_key=True)
    author_id: int = Field(foreign_key="author.id", index=True)
    public_id: str = Field(unique=True, index=True)  # the token's public part: finds this row
    salt: bytes
    digest: bytes  # the salted hash of the token's secret part
    cost: str  # how ``digest`` was made: "sha256", or scrypt's "N,r,p" (tokens made before)
    created_at: datetime = Field(default_factory=utc_now)
    revoked_at: datetime | None = None


class Bot(SQLModel, table=True):
    __tablename__ = "bot"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    created_at: datetime = Field(default_factory=utc_now)
    # Every bot is stored with its owner (``bots.register``); NULL is possible in SQL only
    # because SQLite cannot add a NOT NULL column with a REFERENCES clause to an existing table.
    author_id: int | None = Field(default=None, foreign_key="author.id", index=True)


class BotWithdrawal(SQLModel, table=True):
    """A bot the operator took out of play (schema 10, ``arena bots withdraw``): none of its
    versions is entered in a ladder or a new tournament until ``arena bots restore`` removes the
    row. Its games, ratings and versions stay; its author may still upload."""

    __tablename__ = "bot_withdrawal"
    bot_id: int = Field(primary_key=True, foreign_key="bot.id")
    reason: str  # the operator's words, shown on the bot's page
    withdrawn_at: datetime = Field(default_factory=utc_now)


class SubmissionState(StrEnum):
    """Where a submitted archive is on its way to the ladder (the values are stored)."""

    QUEUED = "queued"
    BUILDING = "building"
    VALIDATING = "validating"
    ACTIVE = "active"  # registered as a version of its bot
    FAILED = "failed"  # ``log`` says why


class Submission(SQLModel, table=True):
    """An archive an author uploaded (schema 5), stored until a worker (``arena submissions
    work``) unpacks, builds, validates and registers it; never handled in a web request."""

    __tablename__ = "submission"
    id: int | None = Field(default=None, primary_key=True)
    author_id: int = Field(foreign_key="author.id", index=True)
    bot_name: str  # as the upload named it; bot.toml's name must agree
    archive_hash: str  # sha256 of the archive's bytes (it is stored under this name)
    state: str = Field(default=SubmissionState.QUEUED.value, index=True)
    log: str = ""  # the build's and validation's output (its tail), or why it failed
    attempts: int = 0  # claims by a worker: one that died mid-way leaves it to be claimed again
    bot_version_id: int | None = Field(default=None, foreign_key="bot_version.id")
    created_at: datetime = Field(default_factory=utc_now)
    updated_at: datetime = Field(default_factory=utc_now)


class WebSession(SQLModel, table=True):
    """An author signed in on the web (schema 7). The cookie holds a random id; only its sha256
    is stored, so the table does not hand out sessions. A session lasts while the token it was
    opened with is in force: revoking the token signs its sessions out."""

    __tablename__ = "web_session"
    id_hash: str = Field(primary_key=True)  # sha256 (hex) of the cookie's value
    author_id: int = Field(foreign_key="author.id", index=True)
    token_id: int = Field(foreign_key="author_token.id", index=True)
    csrf: str  # the forms' hidden field must carry it (checked on every POST)
    created_at: datetime = Field(default_factory=utc_now)
    expires_at: datetime


class RateEvent(SQLModel, table=True):
    """One event a token's rate limit counted (schema 9): a request or an upload, kept until it
    leaves the limit's window, so that every web process of the arena counts the same events.
    Only stored tokens are counted (an unknown token costs no row), and a token's events of one
    limit are at most that limit's count: the table stays small (``arena.storage.rate_limits``)."""

    __tablename__ = "rate_event"
    __table_args__ = (Index("ix_rate_event_token", "token_id", "rate_limit", "expires_at"),)
    id: int | None = Field(default=None, primary_key=True)
    token_id: int = Field(foreign_key="author_token.id")
    rate_limit: str  # which limit counted it ("request", "upload")
    expires_at: float = Field(index=True)  # when it leaves the window: the database's clock, s


class BotVersion(SQLModel, table=True):
    """One submitted version of a bot: its manifest and the hash of its directory's content."""

    __tablename__ = "bot_version"
    __table_args__ = (UniqueConstraint("bot_id", "content_hash"),)
    id: int | None = Field(default=None, primary_key=True)
    bot_id: int = Field(foreign_key="bot.id", index=True)
    version: str  # from bot.toml (or the handshake of a remote bot)
    content_hash: str  # sha256 of the bot directory (or of the address of a remote bot)
    directory: str | None = None
    command: list[str] | None = Field(default=None, sa_column=Column(JSON))
    address: str | None = None
    games: list[str] = Field(sa_column=Column(JSON, nullable=False))
    env: dict[str, str] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utc_now)


class Tournament(SQLModel, table=True):
    __tablename__ = "tournament"
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    game: str
    # players, deals, concurrency, move_time, options: everything the schedule and games follow from
    settings: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    seed: int = Field(sa_column=Column(SEED, nullable=False))
    state: str = "running"  # running | stopped | finished
    created_at: datetime = Field(default_factory=utc_now)
    finished_at: datetime | None = None


class TournamentEntrant(SQLModel, table=True):
    __tablename__ = "tournament_entrant"
    tournament_id: int = Field(foreign_key="tournament.id", primary_key=True)
    position: int = Field(primary_key=True)  # the order the schedule is built from
    bot_version_id: int = Field(foreign_key="bot_version.id")


class GameRecord(SQLModel, table=True):
    """One played game. ``status`` is a ``GameStatus``: finished (rated), unrated (played to the
    end, kept for replay: ``arena match`` without --rated) or voided (a fault on the arena's side:
    kept for the record, not rated, re-run with the same seed)."""

    __tablename__ = "game"
    __table_args__ = (
        # A scheduled game is finished at most once, even with two processes resuming at once.
        Index(
            "game_finished_once",
            "tournament_id",
            "schedule_key",
            unique=True,
            sqlite_where=text(f"status = '{GameStatus.FINISHED}'"),
            postgresql_where=text(f"status = '{GameStatus.FINISHED}'"),
        ),
    )
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id", index=True)
    schedule_key: str | None = None
    # Games with correlated outcomes, resampled together by the batch fit's bootstrap: in a
    # tournament "tournament id/pod/deal", the seat rotations of one deal (they share its luck).
    group_key: str
    game: str = Field(index=True)
    rules_version: str
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    seed: int = Field(sa_column=Column(SEED, nullable=False))
    num_players: int
    status: str  # a GameStatus (stored as its string)
    actions: list[int] = Field(sa_column=Column(JSON, nullable=False))
    # GameOutcome.COMPLETED, the forfeits ("seat 1 TIMEOUT: ...") or the void reason
    termination: str
    duration: float
    # Per decision, in the order of ``actions``: seconds the seat took (None where the arena
    # decided for a forfeited seat) and the bot's comment. None in games stored before schema 2.
    decision_seconds: list[float | None] | None = Field(default=None, sa_column=Column(JSON))
    comments: list[str] | None = Field(default=None, sa_column=Column(JSON))
    # What ``arena replay --verify`` checks (``arena.verification``): the engine state's digest
    # after every decision and one digest binding them to the seed, options, actions, seats, bot
    # versions and result. None in games stored before schema 3 (they replay, unverified; later
    # ones must have it, ``Sealing``).
    verification: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    finished_at: datetime = Field(default_factory=utc_now)


class SeatRecordRow(SQLModel, table=True):
    __tablename__ = "seat"
    game_id: int = Field(foreign_key="game.id", primary_key=True)
    seat: int = Field(primary_key=True)
    bot_version_id: int = Field(foreign_key="bot_version.id", index=True)
    score: float
    rank: int
    outcome: str  # FINISHED | ILLEGAL | TIMEOUT | CRASH
    reason: str
    time_used: float
    decisions: int


class SeatLog(SQLModel, table=True):
    """Where one seat's bot wrote during a game (schema 8): bytes [start, end) of a kept log file
    (``--bot-logs``; one file per bot process, several games each when the bot stays up). Its
    owner downloads it (``arena.web.bot_logs``); a seat whose log was not kept has no row."""

    __tablename__ = "seat_log"
    game_id: int = Field(foreign_key="game.id", primary_key=True)
    seat: int = Field(primary_key=True)
    path: str  # absolute, on the machine that played (and serves) the game
    start: int
    end: int


class EloRating(SQLModel, table=True):
    """Current Elo of a bot version on one board: a game type and player count (derived)."""

    __tablename__ = "elo_rating"
    game: str = Field(primary_key=True)
    players: int = Field(primary_key=True)
    bot_version_id: int = Field(foreign_key="bot_version.id", primary_key=True)
    rating: float
    games: int


class RatingHistory(SQLModel, table=True):
    """Every Elo update; ids follow the commit order, which is the order games were rated in."""

    __tablename__ = "rating_history"
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    game: str
    players: int  # the board: Elo is kept per (game type, player count)
    bot_version_id: int = Field(foreign_key="bot_version.id", index=True)
    before: float
    after: float


class RunningGame(SQLModel, table=True):
    """A game being played now, for spectators (schema 5): the process that plays it writes its
    actions so far every second or so (``arena.storage.running``), and marks it with its stored
    game's id once recorded. A row whose ``heartbeat`` stops (the process was killed) is stale:
    the web shows it no longer, and the next writer removes it."""

    __tablename__ = "running_game"
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id", index=True)
    schedule_key: str | None = None
    game: str
    rules_version: str
    options: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    # never published: the web replays the actions with it to draw public frames
    seed: int = Field(sa_column=Column(SEED, nullable=False))
    num_players: int
    seats: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))  # bot, version
    actions: list[int] = Field(sa_column=Column(JSON, nullable=False))
    started_at: datetime = Field(default_factory=utc_now)
    heartbeat: datetime = Field(default_factory=utc_now, index=True)
    game_id: int | None = None  # the stored game, once recorded (then the replay takes over)
