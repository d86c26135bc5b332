"""Recording finished games (with their Elo updates, in one transaction) and reading results
back as the plain ``leaderboard`` values."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import sqlalchemy
from sqlmodel import Session, col, select

from arena.records import MatchRecord, Outcome
from arena.storage.bots import all_versions, version_labels
from arena.storage.database import Database
from arena.storage.models import (
    Bot,
    BotVersion,
    EloRating,
    GameOutcome,
    GameRecord,
    GameStatus,
    RatingHistory,
    Sealing,
    SeatLog,
    SeatRecordRow,
)
from arena.verification import SealedGame, SealedSeat, replay_states, seal
from leaderboard.elo import EloTable, replay_elo
from leaderboard.results import GameResult, SeatResult, player_name


def _termination(record: MatchRecord) -> str:
    if record.voided:
        return record.void_reason
    forfeits = [
        f"seat {s.seat} {s.outcome.value}: {s.reason}"
        for s in record.seats
        if s.outcome is not Outcome.FINISHED
    ]
    return "; ".join(forfeits) if forfeits else GameOutcome.COMPLETED


def _game_result(record: MatchRecord, version_ids: Sequence[int], group_key: str) -> GameResult:
    return GameResult(
        tuple(
            SeatResult(
                player_name(version_ids[s.seat]),
                s.rank,
                s.score,
                "" if s.outcome is Outcome.FINISHED else s.outcome.value,
            )
            for s in record.seats
        ),
        group_key=group_key,
    )


def _rate(session: Session, game_id: int, game: str, result: GameResult) -> None:
    """The game's Elo updates on its board, (game type, player count)."""
    ids = [int(seat.player) for seat in result.seats]
    players = len(result.seats)
    current = {
        row.bot_version_id: row
        for row in session.exec(
            select(EloRating).where(
                EloRating.game == game,
                EloRating.players == players,
                col(EloRating.bot_version_id).in_(ids),
            )
        )
    }
    table = EloTable({str(i): row.rating for i, row in current.items()})
    for player, (before, after) in table.apply(result).items():
        version_id = int(player)
        row = current.get(version_id) or EloRating(
            game=game, players=players, bot_version_id=version_id, rating=before, games=0
        )
        row.rating, row.games = after, row.games + 1
        session.add(row)
        session.add(
            RatingHistory(
                game_id=game_id,
                game=game,
                players=players,
                bot_version_id=version_id,
                before=before,
                after=after,
            )
        )


def sealed_game(
    game: GameRecord, seats: Sequence[SeatRecordRow], content_hashes: dict[int, str]
) -> SealedGame:
    """The stored game's fields that its seal (``arena.verification``) binds together."""
    return SealedGame(
        game=game.game,
        rules_version=game.rules_version,
        options=game.options,
        seed=game.seed,
        num_players=game.num_players,
        status=game.status,
        actions=game.actions,
        seats=[
            SealedSeat(
                seat.seat,
                seat.bot_version_id,
                content_hashes.get(seat.bot_version_id, ""),
                seat.score,
                seat.rank,
                seat.outcome,
            )
            for seat in seats
        ],
    )


def sealed_from_game(session: Session) -> int:
    """The first game id this database stored with a seal: every game from it on must have one.
    A database without the record (it was removed) holds every game to a seal."""
    row = session.get(Sealing, 1)
    return 1 if row is None else row.sealed_from_game


def content_hashes(session: Session, version_ids: Sequence[int]) -> dict[int, str]:
    return {
        version_id: content_hash
        for version_id, content_hash in session.exec(
            select(BotVersion.id, BotVersion.content_hash).where(
                col(BotVersion.id).in_(list(version_ids))
            )
        )
        if version_id is not None
    }


def record_game(
    database: Database,
    record: MatchRecord,
    version_ids: Sequence[int],
    *,
    group_key: str,
    tournament_id: int | None = None,
    schedule_key: str | None = None,
    rated: bool = True,
) -> int | None:
    """Store one game with its seats and, unless voided or not ``rated``, its Elo updates, in
    ONE transaction.

    Returns the game's id, or None when the scheduled game was already recorded as finished
    (by another process resuming the same tournament): then nothing is written."""
    if record.voided:
        status = GameStatus.VOIDED
    else:
        status = GameStatus.FINISHED if rated else GameStatus.UNRATED
    game = GameRecord(
        tournament_id=tournament_id,
        schedule_key=schedule_key,
        group_key=group_key,
        game=record.game,
        rules_version=record.rules_version,
        options=record.options,
        seed=record.seed,
        num_players=record.num_players,
        status=status,
        actions=list(record.actions),
        termination=_termination(record),
        duration=record.duration,
        decision_seconds=list(record.decision_seconds),
        comments=list(record.comments),
    )
    # Replayed before the write transaction: other writers wait for nothing but the inserts.
    # The replay reads no seat, so the seats can come later.
    states = replay_states(sealed_game(game, [], {}))
    with database.write() as session:
        # Write transactions are serialised (BEGIN IMMEDIATE), so nobody can record the game
        # between this look and the insert; the unique index "game_finished_once" stays the
        # guarantee underneath.
        if status == GameStatus.FINISHED and _finished_already(
            session, tournament_id, schedule_key
        ):
            return None
        session.add(game)
        session.flush()
        assert game.id is not None  # assigned by the flush
        seats = [
            SeatRecordRow(
                game_id=game.id,
                seat=seat.seat,
                bot_version_id=version_ids[seat.seat],
                score=seat.score,
                rank=seat.rank,
                outcome=seat.outcome.value,
                reason=seat.reason,
                time_used=seat.time_used,
                decisions=seat.decisions,
            )
            for seat in record.seats
        ]
        session.add_all(seats)
        session.add_all(
            SeatLog(
                game_id=game.id,
                seat=seat.seat,
                path=seat.log.path,
                start=seat.log.start,
                end=seat.log.end,
            )
            for seat in record.seats
            if seat.log is not None
        )
        game.verification = seal(
            sealed_game(game, seats, content_hashes(session, version_ids)), states
        )
        if status == GameStatus.FINISHED:
            _rate(session, game.id, record.game, _game_result(record, version_ids, group_key))
        return game.id


def _finished_already(
    session: Session, tournament_id: int | None, schedule_key: str | None
) -> bool:
    """Whether this scheduled game of the tournament is already recorded as finished."""
    if tournament_id is None or schedule_key is None:
        return False
    return (
        session.exec(
            select(GameRecord.id).where(
                GameRecord.tournament_id == tournament_id,
                GameRecord.schedule_key == schedule_key,
                GameRecord.status == GameStatus.FINISHED,
            )
        ).first()
        is not None
    )


def finished_game_results(
    session: Session, game: str, players: int | None = None, tournament_id: int | None = None
) -> list[GameResult]:
    """Every rated game of type ``game`` (of ``players`` seats, of one tournament, if given) in
    the order it was rated (ids are assigned inside the serialised write transactions, so id
    order is commit order)."""
    return list(each_finished_game_result(session, game, players, tournament_id))


def each_finished_game_result(
    session: Session, game: str, players: int | None = None, tournament_id: int | None = None
) -> Iterator[GameResult]:
    """``finished_game_results`` one by one, as they are read (a ladder's hundreds of
    thousands of games are tallied, not held: ``leaderboard.tally``)."""
    # Core rows, not ORM objects: ten thousand games are forty thousand seats.
    # sqlalchemy's select: sqlmodel's is typed for at most four columns.
    query = (
        sqlalchemy.select(
            col(SeatRecordRow.game_id),
            col(GameRecord.group_key),
            col(SeatRecordRow.bot_version_id),
            col(SeatRecordRow.rank),
            col(SeatRecordRow.score),
            col(SeatRecordRow.outcome),
        )
        .join(GameRecord, col(GameRecord.id) == SeatRecordRow.game_id)
        .where(col(GameRecord.game) == game, col(GameRecord.status) == GameStatus.FINISHED)
    )
    if players is not None:
        query = query.where(col(GameRecord.num_players) == players)
    if tournament_id is not None:
        query = query.where(col(GameRecord.tournament_id) == tournament_id)
    rows = session.connection().execute(query.order_by(col(GameRecord.id), col(SeatRecordRow.seat)))
    seats: list[SeatResult] = []
    current: tuple[int, str] | None = None
    for game_id, group_key, version_id, rank, score, outcome in rows:
        if current is not None and current[0] != game_id:
            yield GameResult(tuple(seats), group_key=current[1])
            seats = []
        current = (game_id, group_key)
        seats.append(
            SeatResult(
                player_name(version_id),
                rank,
                score,
                "" if outcome == Outcome.FINISHED.value else outcome,
            )
        )
    if current is not None:
        yield GameResult(tuple(seats), group_key=current[1])


@dataclass(frozen=True)
class Forfeits:
    """A bot version's forfeits in a tournament: how many, and the first (its game and reason:
    the operator's, in the bot's own words)."""

    bot: str
    version: str
    count: int
    first_game: int
    outcome: str
    reason: str


def forfeits_in(session: Session, tournament_id: int) -> list[Forfeits]:
    """Each bot version's forfeits in the tournament, by bot name, the first one's reason."""
    rows = session.exec(
        select(Bot.name, BotVersion.id, SeatRecordRow)
        .join(BotVersion, col(BotVersion.id) == SeatRecordRow.bot_version_id)
        .join(Bot, col(Bot.id) == BotVersion.bot_id)
        .join(GameRecord, col(GameRecord.id) == SeatRecordRow.game_id)
        .where(
            col(GameRecord.tournament_id) == tournament_id,
            col(GameRecord.status) == GameStatus.FINISHED,
            col(SeatRecordRow.outcome) != Outcome.FINISHED.value,
        )
        .order_by(col(SeatRecordRow.game_id), col(SeatRecordRow.seat))
    ).all()
    # as every other listing labels a version ("1.0-r2" for a second upload under "1.0")
    labels = version_labels(all_versions(session)) if rows else {}
    found: dict[tuple[str, str], Forfeits] = {}
    for name, version_id, seat in rows:
        version = labels[version_id or 0]
        key = (name, version)
        if key in found:
            found[key] = replace(found[key], count=found[key].count + 1)
        else:
            found[key] = Forfeits(name, version, 1, seat.game_id, seat.outcome, seat.reason)
    return [found[key] for key in sorted(found)]


def stored_elo(session: Session, game: str, players: int) -> dict[str, float]:
    """Current Elo on the board (``game``, ``players``), by bot version id as a string."""
    return {
        str(row.bot_version_id): row.rating
        for row in session.exec(
            select(EloRating).where(EloRating.game == game, EloRating.players == players)
        )
    }


def recomputed_elo(session: Session, game: str, players: int) -> dict[str, float]:
    """Elo replayed from the stored games; equals ``stored_elo`` unless something was lost."""
    return replay_elo(finished_game_results(session, game, players))


def games_played(session: Session) -> list[str]:
    """Game types with at least one rated game."""
    return list(
        session.exec(
            select(GameRecord.game)
            .where(GameRecord.status == GameStatus.FINISHED)
            .distinct()
            .order_by(GameRecord.game)
        )
    )


def boards_played(session: Session, game: str | None = None) -> list[tuple[str, int]]:
    """(game type, player count) of every board with at least one rated game."""
    query = select(GameRecord.game, GameRecord.num_players).where(
        GameRecord.status == GameStatus.FINISHED
    )
    if game is not None:
        query = query.where(GameRecord.game == game)
    return [
        (name, count)
        for name, count in session.exec(
            query.distinct().order_by(col(GameRecord.game), col(GameRecord.num_players))
        )
    ]


def rating_changes(
    session: Session, version_ids: Iterable[int], game: str | None, players: int | None
) -> list[tuple[RatingHistory, datetime]]:
    """Every stored Elo change of the bot versions ``version_ids`` (on one game's boards, of
    one player count, if given) with when its game finished, in the order they were rated."""
    query = (
        select(RatingHistory, GameRecord.finished_at)
        .join(GameRecord, col(GameRecord.id) == RatingHistory.game_id)
        .where(col(RatingHistory.bot_version_id).in_(list(version_ids)))
    )
    if game is not None:
        query = query.where(RatingHistory.game == game)
    if players is not None:
        query = query.where(RatingHistory.players == players)
    return list(session.exec(query.order_by(col(RatingHistory.id))))


def seats_of(session: Session, game_id: int) -> list[SeatRecordRow]:
    """The stored seats of one game, in seat order."""
    return list(
        session.exec(
            select(SeatRecordRow)
            .where(SeatRecordRow.game_id == game_id)
            .order_by(col(SeatRecordRow.seat))
        )
    )
