"""The games being played now (``running_game``), written by the process that plays them and
read by the web arena, which shows them live.

The writer (``arena.tournament.live``) keeps one row per game in play: its seats, seed, options
and actions so far, refreshed with a heartbeat every second or so; once the game is recorded the
row names the stored game. A row is live while its heartbeat is fresh (``STALE_SECONDS``): a
killed process leaves rows that simply stop being shown, and the next writer deletes them, as it
deletes rows whose game was recorded a while ago (a viewer on the live page has been sent to the
replay by then); a tournament's or ladder's run deletes its unrecorded rows as it starts and
as it ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import inspect
from sqlmodel import Session, col, delete, select, update

from arena.storage import tournaments
from arena.storage.models import (
    BotVersion,
    GameRecord,
    GameStatus,
    RunningGame,
    SeatRecordRow,
    Tournament,
    utc_now,
)

# A row whose heartbeat is older is a ghost: the process playing it is gone.
STALE_SECONDS = 30.0
# How long a recorded game's row stays, so a live viewer learns where its replay is.
KEPT_AFTER_RECORDED_SECONDS = 600.0


@dataclass(frozen=True)
class NewRunningGame:
    """What the writer knows of a game as it starts."""

    tournament_id: int | None
    schedule_key: str | None
    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]  # {"bot": name, "version": version id}, in seat order


def _ago(seconds: float, now: datetime | None = None) -> datetime:
    return (now or utc_now()) - timedelta(seconds=seconds)


# --- the writer ------------------------------------------------------------------------------
def add(session: Session, new: NewRunningGame) -> int:
    row = RunningGame(
        tournament_id=new.tournament_id,
        schedule_key=new.schedule_key,
        game=new.game,
        rules_version=new.rules_version,
        options=new.options,
        seed=new.seed,
        num_players=len(new.seats),
        seats=new.seats,
        actions=[],
    )
    session.add(row)
    session.flush()
    assert row.id is not None, "assigned by the insert"
    return row.id


def refresh(session: Session, progress: dict[int, list[int]], alive: Iterable[int]) -> None:
    """Store the actions of the games in ``progress`` (by row id) and beat the heart of every
    game in ``alive``."""
    now = utc_now()
    for row_id, actions in progress.items():
        session.execute(
            update(RunningGame)
            .where(col(RunningGame.id) == row_id)
            .values(actions=actions, heartbeat=now)
        )
    session.execute(
        update(RunningGame).where(col(RunningGame.id).in_(list(alive))).values(heartbeat=now)
    )


def recorded(session: Session, row_id: int, actions: list[int], game_id: int | None) -> None:
    """The game ended and was stored as ``game_id`` (None: it was not stored)."""
    if game_id is None:
        session.execute(delete(RunningGame).where(col(RunningGame.id) == row_id))
        return
    session.execute(
        update(RunningGame)
        .where(col(RunningGame.id) == row_id)
        .values(actions=actions, game_id=game_id, heartbeat=utc_now())
    )


def remove(session: Session, row_ids: Sequence[int]) -> None:
    """Games abandoned (the tournament stopped): no longer running, never recorded."""
    session.execute(delete(RunningGame).where(col(RunningGame.id).in_(list(row_ids))))


def remove_unrecorded(session: Session, tournament_id: int) -> None:
    """A tournament's games in play that were never recorded: called by its one run as it
    starts and as it ends (``arena.storage.run_lock``); the rows are those of a run that was
    killed, which would otherwise stay until another writer found them stale."""
    session.execute(
        delete(RunningGame).where(
            col(RunningGame.tournament_id) == tournament_id, col(RunningGame.game_id).is_(None)
        )
    )


def remove_old(session: Session) -> None:
    """Rows of killed processes (stale) and of games recorded a while ago."""
    session.execute(
        delete(RunningGame).where(
            (col(RunningGame.game_id).is_(None) & (RunningGame.heartbeat < _ago(STALE_SECONDS)))
            | (RunningGame.heartbeat < _ago(KEPT_AFTER_RECORDED_SECONDS))
        )
    )


# --- the readers (the web) -------------------------------------------------------------------
def _has_table(session: Session) -> bool:
    """False in a database of schema 4 or older, which the web reads without migrating."""
    return inspect(session.connection()).has_table(RunningGame.__tablename__)


def running(session: Session, tournament_id: int | None = None) -> list[dict[str, Any]]:
    """The games in play now (fresh heartbeat, not recorded yet), oldest first, without their
    seeds and actions: what a list of them shows."""
    if not _has_table(session):
        return []
    query = (
        select(RunningGame, Tournament.name)
        .join(Tournament, isouter=True)
        .where(col(RunningGame.game_id).is_(None), RunningGame.heartbeat >= _ago(STALE_SECONDS))
        .order_by(col(RunningGame.id))
    )
    if tournament_id is not None:
        query = query.where(RunningGame.tournament_id == tournament_id)
    return [
        _public(row, name) | {"held": _deal_held(session, row)}
        for row, name in session.exec(query).all()
    ]


def one(session: Session, row_id: int) -> dict[str, Any] | None:
    """A running game's row, seed and actions included (for the server alone), with its
    ``state``: "running", "recorded" (``game_id`` says where) or "stale"."""
    if not _has_table(session):
        return None
    found = session.exec(
        select(RunningGame, Tournament.name)
        .join(Tournament, isouter=True)
        .where(RunningGame.id == row_id)
    ).first()
    if found is None:
        return None
    row, name = found
    return _public(row, name) | {
        "held": _deal_held(session, row),
        "seed": row.seed,
        "actions": list(row.actions),
    }


def _deal_held(session: Session, row: RunningGame) -> dict[str, int] | None:
    """Whether a game in play is not shown, as a replay is held (``read_only.deal_in_play``):
    ``{"played": k, "rotations": n}`` while another seat rotation of its deal (its tournament's
    games of its seed) is still to be played or in play, else None. Every rotation is dealt the
    same cards, so watching one (every card played, every tile bought) tells the seats of
    another what the others hold and will draw (outside review)."""
    if row.tournament_id is None or row.game_id is not None:
        return None
    versions = [seat.get("version") for seat in row.seats]
    remote = select(BotVersion.id).where(
        col(BotVersion.id).in_(versions), col(BotVersion.address).is_not(None)
    )
    if session.exec(remote).first() is not None:  # a deal of its own (statements.DEAL_PLAYED)
        return None
    finished = session.exec(
        select(SeatRecordRow.game_id, SeatRecordRow.bot_version_id)
        .join(GameRecord, col(GameRecord.id) == col(SeatRecordRow.game_id))
        .where(
            col(GameRecord.tournament_id) == row.tournament_id,
            col(GameRecord.seed) == row.seed,
            col(GameRecord.status) == GameStatus.FINISHED,
        )
        .order_by(col(SeatRecordRow.game_id), col(SeatRecordRow.seat))
    ).all()
    seatings: dict[int, list[int]] = {}
    for game_id, version_id in finished:
        seatings.setdefault(game_id, []).append(version_id)
    # This game's own record may be stored before its row says so (the row is written in
    # batches): it is the rotation with this game's seating, not another.
    played = sum(1 for seating in seatings.values() if seating != versions)
    state = session.exec(select(Tournament.state).where(Tournament.id == row.tournament_id)).first()
    if state == tournaments.FINISHED or played + 1 >= row.num_players:  # this one and the others
        return None
    return {"played": played, "rotations": row.num_players}


def _public(row: RunningGame, tournament: str | None) -> dict[str, Any]:
    heartbeat = row.heartbeat.replace(tzinfo=None)
    stale = heartbeat < _ago(STALE_SECONDS).replace(tzinfo=None)
    return {
        "id": row.id,
        "game": row.game,
        "rules_version": row.rules_version,
        "options": row.options,
        "num_players": row.num_players,
        "seats": [{"seat": i, "bot": seat["bot"]} for i, seat in enumerate(row.seats)],
        "decisions": len(row.actions),
        "tournament_id": row.tournament_id,
        "tournament": tournament,
        "started_at": row.started_at.replace(tzinfo=None).isoformat(timespec="seconds"),
        "heartbeat": heartbeat.isoformat(timespec="seconds"),
        "game_id": row.game_id,
        "state": "recorded" if row.game_id is not None else "stale" if stale else "running",
    }
