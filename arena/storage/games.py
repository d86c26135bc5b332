"""Recording finished games (with their Elo updates, in one transaction) and reading results
back as the plain ``leaderboard`` values."""

from __future__ import annotations

from collections.abc import Sequence

from sqlmodel import Session, col, select

from arena.records import MatchRecord, Outcome
from arena.storage.database import Database
from arena.storage.models import EloRating, GameRecord, RatingHistory, SeatRecordRow
from leaderboard.elo import EloTable, replay_elo
from leaderboard.results import GameResult, SeatResult

FINISHED = "finished"
VOIDED = "voided"


def _termination(record: MatchRecord) -> str:
    if record.voided:
        return record.void_reason
    forfeits = [f"seat {s.seat} {s.outcome.value}: {s.reason}" for s in record.seats
                if s.outcome is not Outcome.FINISHED]
    return "; ".join(forfeits) if forfeits else "completed"


def _game_result(record: MatchRecord, version_ids: Sequence[int], group_key: str) -> GameResult:
    return GameResult(tuple(
        SeatResult(str(version_ids[s.seat]), s.rank, s.score,
                   "" if s.outcome is Outcome.FINISHED else s.outcome.value)
        for s in record.seats), group_key=group_key)


def _rate(session: Session, game_id: int, game: str, result: GameResult) -> None:
    ids = [int(seat.player) for seat in result.seats]
    current = {row.bot_version_id: row for row in session.exec(
        select(EloRating).where(EloRating.game == game, col(EloRating.bot_version_id).in_(ids)))}
    table = EloTable({str(i): row.rating for i, row in current.items()})
    for player, (before, after) in table.apply(result).items():
        version_id = int(player)
        row = current.get(version_id) or EloRating(game=game, bot_version_id=version_id,
                                                   rating=before, games=0)
        row.rating, row.games = after, row.games + 1
        session.add(row)
        session.add(RatingHistory(game_id=game_id, game=game, bot_version_id=version_id,
                                  before=before, after=after))


def record_game(database: Database, record: MatchRecord, version_ids: Sequence[int], *,
                group_key: str, tournament_id: int | None = None,
                schedule_key: str | None = None) -> int | None:
    """Store one game with its seats and, unless voided, its Elo updates, in ONE transaction.

    Returns the game's id, or None when the scheduled game was already recorded as finished
    (by another process resuming the same tournament): then nothing is written."""
    status = VOIDED if record.voided else FINISHED
    with database.write() as session:
        # Write transactions are serialised (BEGIN IMMEDIATE), so nobody can record the game
        # between this look and the insert; the unique index "game_finished_once" stays the
        # guarantee underneath.
        if status == FINISHED and _finished_already(session, tournament_id, schedule_key):
            return None
        game = GameRecord(
            tournament_id=tournament_id, schedule_key=schedule_key, group_key=group_key,
            game=record.game, rules_version=record.rules_version, options=record.options,
            seed=record.seed, num_players=record.num_players, status=status,
            actions=list(record.actions), termination=_termination(record),
            duration=record.duration, decision_seconds=list(record.decision_seconds),
            comments=list(record.comments))
        session.add(game)
        session.flush()
        assert game.id is not None  # assigned by the flush
        for seat in record.seats:
            session.add(SeatRecordRow(
                game_id=game.id, seat=seat.seat, bot_version_id=version_ids[seat.seat],
                score=seat.score, rank=seat.rank, outcome=seat.outcome.value,
                reason=seat.reason, time_used=seat.time_used, decisions=seat.decisions))
        if status == FINISHED:
            _rate(session, game.id, record.game, _game_result(record, version_ids, group_key))
        return game.id


def _finished_already(session: Session, tournament_id: int | None,
                      schedule_key: str | None) -> bool:
    """Whether this scheduled game of the tournament is already recorded as finished."""
    if tournament_id is None or schedule_key is None:
        return False
    return session.exec(select(GameRecord.id).where(
        GameRecord.tournament_id == tournament_id, GameRecord.schedule_key == schedule_key,
        GameRecord.status == FINISHED)).first() is not None


def finished_game_results(session: Session, game: str) -> list[GameResult]:
    """Every rated game of type ``game`` in the order it was rated (ids are assigned inside the
    serialised write transactions, so id order is commit order)."""
    # Core rows, not ORM objects: ten thousand games are forty thousand seats.
    rows = session.connection().execute(
        select(SeatRecordRow.game_id, GameRecord.group_key, SeatRecordRow.bot_version_id,
               SeatRecordRow.rank, SeatRecordRow.score, SeatRecordRow.outcome)
        .join(GameRecord, col(GameRecord.id) == SeatRecordRow.game_id)
        .where(GameRecord.game == game, GameRecord.status == FINISHED)
        .order_by(GameRecord.id, SeatRecordRow.seat))
    results: list[GameResult] = []
    seats: list[SeatResult] = []
    current: tuple[int, str] | None = None
    for game_id, group_key, version_id, rank, score, outcome in rows:
        if current is not None and current[0] != game_id:
            results.append(GameResult(tuple(seats), group_key=current[1]))
            seats = []
        current = (game_id, group_key)
        seats.append(SeatResult(str(version_id), rank, score,
                                "" if outcome == Outcome.FINISHED.value else outcome))
    if current is not None:
        results.append(GameResult(tuple(seats), group_key=current[1]))
    return results


def stored_elo(session: Session, game: str) -> dict[str, float]:
    return {str(row.bot_version_id): row.rating
            for row in session.exec(select(EloRating).where(EloRating.game == game))}


def recomputed_elo(session: Session, game: str) -> dict[str, float]:
    """Elo replayed from the stored games; equals ``stored_elo`` unless something was lost."""
    return replay_elo(finished_game_results(session, game))


def games_played(session: Session) -> list[str]:
    """Game types with at least one rated game."""
    return list(session.exec(select(GameRecord.game).where(GameRecord.status == FINISHED)
                             .distinct().order_by(GameRecord.game)))
