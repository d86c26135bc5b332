"""The statements ``read_only`` runs, built once when the module loads (a page runs several,
and building them on every request cost more than running them); their values are parameters.
Written over the tables of ``models``; dates come back as the text SQLite holds."""

from __future__ import annotations

import functools
from typing import Any

from sqlalchemy import ColumnElement, Executable, String, bindparam, case, cast, func, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import aliased
from sqlalchemy.sql.functions import FunctionElement
from sqlmodel import and_, col

from arena.storage.models import (
    Author,
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


def outcome_is(outcome: GameOutcome) -> ColumnElement[bool]:
    """The games that ended so: the one place that reads ``termination`` as a flag."""
    finished = col(GameRecord.status) == GameStatus.FINISHED
    completed = col(GameRecord.termination) == GameOutcome.COMPLETED
    if outcome == GameOutcome.COMPLETED:
        return and_(finished, completed)
    if outcome == GameOutcome.FORFEIT:
        return and_(finished, ~completed)
    return col(GameRecord.status) == GameStatus.VOIDED


class _DateText(FunctionElement[str]):
    """A date as the text SQLite holds (``2026-12-03 21:53:39.000123``) on either database."""

    type = String()
    inherit_cache = True


@compiles(_DateText)
def _date_text(element: _DateText, compiler: Any, **kw: Any) -> str:
    return compiler.process(cast(next(iter(element.clauses)), String), **kw)


@compiles(_DateText, "postgresql")
def _date_text_postgresql(element: _DateText, compiler: Any, **kw: Any) -> str:
    # A plain cast would give "+00" after a timestamptz and drop zero microseconds; the
    # session's time zone is UTC (postgres.py), so to_char writes SQLite's text exactly.
    column = compiler.process(next(iter(element.clauses)), **kw)
    return f"to_char({column}, 'YYYY-MM-DD HH24:MI:SS.US')"


def stored_text(column: Any, name: str) -> Any:
    """A date column as text (not a datetime): what the pages and API show, the same on both
    databases."""
    return _DateText(column).label(name)


def ids(name: str) -> Any:
    """A list of ids as one parameter (``IN``)."""
    return bindparam(name, expanding=True)


IS_FINISHED = col(GameRecord.status) == GameStatus.FINISHED  # rated games only
# What every listing of bot versions shows first (the hash is cut to 8 characters later).
VERSION_COLUMNS = (
    col(BotVersion.id),
    col(BotVersion.version),
    col(BotVersion.content_hash),
    stored_text(col(BotVersion.created_at), "created_at"),
)
TOURNAMENT_COLUMNS = (
    col(Tournament.id),
    col(Tournament.name),
    col(Tournament.game),
    col(Tournament.settings),
    col(Tournament.state),
    stored_text(col(Tournament.created_at), "created_at"),
    stored_text(col(Tournament.finished_at), "finished_at"),
)
LISTED_GAME_COLUMNS: tuple[Any, ...] = (
    col(GameRecord.id),
    col(GameRecord.game),
    col(GameRecord.num_players),
    col(GameRecord.status),
    col(GameRecord.termination),
    stored_text(col(GameRecord.finished_at), "finished_at"),
    col(GameRecord.duration),
    func.json_array_length(col(GameRecord.actions)).label("decisions"),
    col(GameRecord.tournament_id),
    col(Tournament.name).label("tournament"),
)
REPLAYED_GAME_COLUMNS: tuple[Any, ...] = (
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
    stored_text(col(GameRecord.finished_at), "finished_at"),
    col(GameRecord.tournament_id),
    col(Tournament.name).label("tournament"),
)
# Stored from schema 2 on: a database of schema 1 still shows (a tournament may migrate it while
# the server runs).
SINCE_SCHEMA_2 = {
    "decision_seconds": col(GameRecord.decision_seconds),
    "comments": col(GameRecord.comments),
}

DATA_VERSION = select(
    func.coalesce(func.max(col(GameRecord.id)), 0).label("newest"),
    func.count(col(GameRecord.id)).label("stored"),
)


def board_version(tournament: int | None) -> Executable:
    """(newest game id, games) of one board's rated games (``:game``, ``:players``), of one
    tournament if ``tournament`` is not None (``:tournament``): a board's fit is valid while
    they are unchanged, whatever other boards record."""
    statement = select(
        func.coalesce(func.max(col(GameRecord.id)), 0).label("newest"),
        func.count(col(GameRecord.id)).label("stored"),
    ).where(
        IS_FINISHED,
        col(GameRecord.game) == bindparam("game"),
        col(GameRecord.num_players) == bindparam("players"),
    )
    if tournament is not None:
        statement = statement.where(col(GameRecord.tournament_id) == bindparam("tournament"))
    return statement


GAMES_PLAYED = (
    select(col(GameRecord.game), col(GameRecord.num_players), func.count().label("games"))
    .where(IS_FINISHED)
    .group_by(col(GameRecord.game), col(GameRecord.num_players))
    .order_by(col(GameRecord.game), col(GameRecord.num_players))
)
NEWEST_VERSION = (
    select(func.max(col(BotVersion.id)))
    .where(col(BotVersion.bot_id) == col(Bot.id))
    .correlate(Bot)
    .scalar_subquery()
)
VERSIONS = (
    select(*VERSION_COLUMNS, col(Bot.name), (col(BotVersion.id) == NEWEST_VERSION).label("latest"))
    .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
    .where(col(BotVersion.id).in_(ids("ids")))
)
BOT_NAMES = select(col(Bot.name)).order_by(col(Bot.name))
BOTS = (
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
BOT = (
    select(
        col(Bot.id),
        col(Bot.name),
        stored_text(col(Bot.created_at), "created_at"),
        col(Author.name).label("owner"),
    )
    .outerjoin(Author, col(Author.id) == col(Bot.author_id))
    .where(col(Bot.name) == bindparam("name"))
)
BOT_VERSIONS = (
    select(
        *VERSION_COLUMNS,
        # Public: whether a version is called over the network, not its address nor where its
        # files lie on the host.
        col(BotVersion.address).is_not(None).label("remote"),
        col(BotVersion.games),
    )
    .where(col(BotVersion.bot_id) == bindparam("bot_id"))
    .order_by(col(BotVersion.id))
)
RATED_SEATS = (
    select(
        col(GameRecord.game),
        col(SeatRecordRow.rank),
        col(SeatRecordRow.outcome),
        col(SeatRecordRow.reason),
        col(SeatRecordRow.game_id),
        col(SeatRecordRow.seat),
    )
    .join(GameRecord, col(GameRecord.id) == col(SeatRecordRow.game_id))
    .where(col(SeatRecordRow.bot_version_id).in_(ids("ids")), IS_FINISHED)
    .order_by(col(SeatRecordRow.game_id))
)
RATING_HISTORY = (
    select(
        col(RatingHistory.game_id),
        col(RatingHistory.game),
        col(RatingHistory.bot_version_id),
        col(RatingHistory.before),
        col(RatingHistory.after),
        stored_text(col(GameRecord.finished_at), "finished_at"),
        col(GameRecord.num_players),
    )
    .join(GameRecord, col(GameRecord.id) == col(RatingHistory.game_id))
    .where(col(RatingHistory.bot_version_id).in_(ids("ids")))
    .order_by(col(RatingHistory.id).desc())  # the newest ``limit``; read_only puts them in order
    .limit(bindparam("limit"))
)
ME, THEM = aliased(SeatRecordRow), aliased(SeatRecordRow)
PAIRS: Executable = (
    select(
        col(GameRecord.game),
        col(ME.rank),
        col(ME.outcome),
        col(THEM.rank).label("their_rank"),
        col(THEM.outcome).label("their_outcome"),
        col(Bot.name).label("opponent"),
    )
    .select_from(ME)
    .join(THEM, and_(col(THEM.game_id) == ME.game_id, col(THEM.seat) != ME.seat))
    .join(GameRecord, col(GameRecord.id) == ME.game_id)
    .join(BotVersion, col(BotVersion.id) == THEM.bot_version_id)
    .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
    .where(
        col(ME.bot_version_id).in_(ids("ids")),
        IS_FINISHED,
        col(THEM.bot_version_id).not_in(ids("ids")),
    )
)
SEATS: Executable = (
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
    .where(col(SeatRecordRow.game_id).in_(ids("ids")))
    .order_by(col(SeatRecordRow.game_id), col(SeatRecordRow.seat))
)
GAMES_OF_BOT = (
    select(col(SeatRecordRow.game_id))
    .join(BotVersion, col(BotVersion.id) == col(SeatRecordRow.bot_version_id))
    .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
    .where(col(Bot.name).in_(bindparam("bots", expanding=True)))
)
# The latest ``limit`` games of each of ``bots`` in ``tournament``, newest first: (bot, game id,
# its place among the bot's games). A bot in several seats of a game counts the game once. One
# query for a ladder page's every entrant (a query each took seconds at 211 entrants).
_BOTS_GAMES = (
    select(
        col(Bot.name).label("bot"),
        col(SeatRecordRow.game_id).label("game_id"),
        func.row_number()
        .over(partition_by=col(Bot.name), order_by=col(SeatRecordRow.game_id).desc())
        .label("n"),
    )
    .join(BotVersion, col(BotVersion.id) == col(SeatRecordRow.bot_version_id))
    .join(Bot, col(Bot.id) == col(BotVersion.bot_id))
    .join(GameRecord, col(GameRecord.id) == col(SeatRecordRow.game_id))
    .where(
        col(GameRecord.tournament_id) == bindparam("tournament"),
        col(Bot.name).in_(bindparam("bots", expanding=True)),
    )
    .group_by(col(Bot.name), col(SeatRecordRow.game_id))
    .subquery()
)
LATEST_GAMES_OF_BOTS = (
    select(_BOTS_GAMES.c.bot, _BOTS_GAMES.c.game_id)
    .where(_BOTS_GAMES.c.n <= bindparam("limit"))
    .order_by(_BOTS_GAMES.c.bot, _BOTS_GAMES.c.n)
)
LISTED_GAMES_BY_ID = (
    select(*LISTED_GAME_COLUMNS)
    .outerjoin(Tournament, col(Tournament.id) == col(GameRecord.tournament_id))
    .where(col(GameRecord.id).in_(bindparam("ids", expanding=True)))
)
TOURNAMENTS = select(
    *TOURNAMENT_COLUMNS,
    select(func.count())
    .where(col(TournamentEntrant.tournament_id) == col(Tournament.id))
    .correlate(Tournament)
    .scalar_subquery()
    .label("entrants"),
    select(func.count())
    .where(col(GameRecord.tournament_id) == col(Tournament.id), IS_FINISHED)
    .correlate(Tournament)
    .scalar_subquery()
    .label("games"),
).order_by(col(Tournament.id).desc())
TOURNAMENT = select(*TOURNAMENT_COLUMNS).where(col(Tournament.id) == bindparam("id"))
ENTRANTS: Executable = (
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
PROGRESS = select(
    *(
        func.count().filter(condition).label(name)
        for name, condition in (
            ("finished", IS_FINISHED),
            ("with_forfeit", outcome_is(GameOutcome.FORFEIT)),
            ("voided", outcome_is(GameOutcome.VOIDED)),
        )
    )
).where(col(GameRecord.tournament_id) == bindparam("id"))


@functools.cache
def game_listing(
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
        where.append(col(GameRecord.id).in_(GAMES_OF_BOT))
    if outcome is not None:
        where.append(outcome_is(outcome))
    count = select(func.count().label("total")).select_from(GameRecord).where(*where)
    listing = (
        select(*LISTED_GAME_COLUMNS)
        .outerjoin(Tournament, col(Tournament.id) == col(GameRecord.tournament_id))
        .where(*where)
        .order_by(col(GameRecord.id).desc())
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
    )
    return count, listing


_ROTATION = aliased(GameRecord)
_SEATED = aliased(SeatRecordRow)
_SEATED_VERSION = aliased(BotVersion)
# Whether a game seats a remote bot: its pod plays each rotation on a deal of its own
# (``arena.tournament.schedule``), so no other game of the tournament has its cards.
SEATS_A_REMOTE_BOT = (
    select(col(_SEATED.game_id))
    .join(_SEATED_VERSION, col(_SEATED_VERSION.id) == col(_SEATED.bot_version_id))
    .where(
        col(_SEATED.game_id) == col(GameRecord.id),
        col(_SEATED_VERSION.address).is_not(None),
    )
    .exists()
)
# How many seat rotations of a game's deal (its tournament's games of its seed) are played: until
# all are, its replay would tell the cards of the others (``read_only.deal_in_play``). A game on
# a deal of its own is all of its deal.
DEAL_PLAYED = case(
    (SEATS_A_REMOTE_BOT, col(GameRecord.num_players)),
    else_=select(func.count())
    .where(
        col(_ROTATION.tournament_id) == col(GameRecord.tournament_id),
        col(_ROTATION.seed) == col(GameRecord.seed),
        col(_ROTATION.status) == GameStatus.FINISHED,
    )
    .scalar_subquery(),
).label("deal_played")


@functools.cache
def game_query(with_times: bool) -> Executable:
    """One game, with the per-decision times and comments (a database of schema 2 on) or
    without them (schema 1), its tournament's state and how much of its deal is played."""
    return (
        select(
            *REPLAYED_GAME_COLUMNS,
            *(SINCE_SCHEMA_2.values() if with_times else ()),
            col(Tournament.state).label("tournament_state"),
            DEAL_PLAYED,
        )
        .outerjoin(Tournament, col(Tournament.id) == col(GameRecord.tournament_id))
        .where(col(GameRecord.id) == bindparam("id"))
    )
