"""Each game's part of a bot's kept log (``seat_log``), found for the bot's author only: every
query here is bounded by the author, so another author's seats are never even read."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import sqlalchemy
from sqlmodel import Session, col

from arena.storage.models import Bot, BotVersion, GameRecord, SeatLog, SeatRecordRow


@dataclass(frozen=True)
class OwnSeat:
    """A seat one of the author's bots had in a game, and whether its log was kept."""

    game_id: int
    game: str
    finished_at: datetime
    seat: int
    bot: str
    outcome: str
    reason: str  # as stored: in full (the author's own bot's)
    log_file: str | None  # the kept log its slice is in, if one was kept (it may be gone since)


def _own_seats() -> sqlalchemy.Select:
    return (
        sqlalchemy.select(
            col(SeatRecordRow.game_id),
            col(GameRecord.game),
            col(GameRecord.finished_at),
            col(SeatRecordRow.seat),
            col(Bot.name),
            col(SeatRecordRow.outcome),
            col(SeatRecordRow.reason),
            col(SeatLog.path),
            col(SeatLog.start),
            col(SeatLog.end),
        )
        .join(GameRecord, col(GameRecord.id) == SeatRecordRow.game_id)
        .join(BotVersion, col(BotVersion.id) == SeatRecordRow.bot_version_id)
        .join(Bot, col(Bot.id) == BotVersion.bot_id)
        .outerjoin(
            SeatLog,
            sqlalchemy.and_(
                col(SeatLog.game_id) == SeatRecordRow.game_id,
                col(SeatLog.seat) == SeatRecordRow.seat,
            ),
        )
    )


def own_seats(
    session: Session, author_id: int, games: int, before: int | None = None
) -> tuple[list[OwnSeat], int | None]:
    """The seats of the author's bots in the newest ``games`` of their games (older than game
    ``before``, if given), newest first; and the ``before`` of the next page, None if there is
    none. A page holds whole games: every seat the author's bots had in each."""
    newest = (
        sqlalchemy.select(col(SeatRecordRow.game_id))
        .join(BotVersion, col(BotVersion.id) == SeatRecordRow.bot_version_id)
        .join(Bot, col(Bot.id) == BotVersion.bot_id)
        .where(col(Bot.author_id) == author_id)
        .group_by(col(SeatRecordRow.game_id))
        .order_by(col(SeatRecordRow.game_id).desc())
        .limit(games + 1)  # one more: whether there is a next page
    )
    if before is not None:
        newest = newest.where(col(SeatRecordRow.game_id) < before)
    ids = list(session.connection().execute(newest).scalars())
    rows = session.connection().execute(
        _own_seats()
        .where(col(Bot.author_id) == author_id, col(SeatRecordRow.game_id).in_(ids[:games]))
        .order_by(col(SeatRecordRow.game_id).desc(), col(SeatRecordRow.seat))
    )
    seats = [
        OwnSeat(game_id, game, finished_at, seat, bot, outcome, reason, path)
        for game_id, game, finished_at, seat, bot, outcome, reason, path, _, _ in rows
    ]
    return seats, (ids[games - 1] if len(ids) > games else None)


def own_seat_log(
    session: Session, author_id: int, game_id: int, seat: int
) -> tuple[str, SeatLog] | None:
    """The bot's name and the log slice of seat ``seat`` of game ``game_id``, if the author
    owns the bot that sat there and its log was kept; else None (there is no such game, or the
    seat is another author's: the caller cannot tell which)."""
    row = (
        session.connection()
        .execute(
            _own_seats().where(
                col(Bot.author_id) == author_id,
                col(SeatRecordRow.game_id) == game_id,
                col(SeatRecordRow.seat) == seat,
                col(SeatLog.path).is_not(None),
            )
        )
        .first()
    )
    if row is None:
        return None
    return row[4], SeatLog(game_id=game_id, seat=seat, path=row[7], start=row[8], end=row[9])
