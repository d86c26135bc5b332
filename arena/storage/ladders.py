"""What a ladder reads and writes beyond a tournament's tables (a ladder is stored as a tournament
whose settings carry its rules): who plays now, who is paused, how far the rounds went.

Entrants are the tournament's entrants, appended as new versions join; nothing else is stored.
A paused version is one whose last K games in the ladder were all forfeits: it follows from the
games themselves, so it survives restarts and ends with a new version (a new entrant).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import BigInteger, case, func, literal, or_, true, tuple_
from sqlmodel import Session, col, select

from arena.records import Outcome
from arena.storage import bots, tournaments, withdrawals
from arena.storage.models import (
    GameRecord,
    GameStatus,
    RatingHistory,
    SeatRecordRow,
    Tournament,
    TournamentEntrant,
)

_KEY = re.compile(r"round (\d+) pod ([\d+]+) rotation (\d+)")


def game_key(round_number: int, pod: str, rotation: int) -> str:
    return f"round {round_number} pod {pod} rotation {rotation}"


@dataclass
class Lineup:
    """A ladder's entrants at one moment."""

    entrants: list[bots.RegisteredVersion]  # by position, retired versions included
    active: list[int] = field(default_factory=list)  # positions that may play
    paused: dict[int, str] = field(default_factory=dict)  # position -> why it does not play
    retired: list[int] = field(default_factory=list)  # positions of superseded versions

    @property
    def version_ids(self) -> list[int]:
        return [entrant.version.id or 0 for entrant in self.entrants]

    @property
    def remote(self) -> set[int]:
        """The positions of remote bots (``NAME@HOST:PORT``)."""
        return {p for p, entrant in enumerate(self.entrants) if entrant.version.address}


def join_newest(session: Session, ladder_id: int, game: str) -> list[bots.RegisteredVersion]:
    """Enter each bot's newest version that plays ``game`` if it is not an entrant yet; return
    the newest versions (the ones that play)."""
    newest: dict[int, bots.RegisteredVersion] = {}
    for entry in bots.all_versions(session):  # ordered by bot, then version id
        if game in entry.version.games and entry.bot.id is not None and entry.version.id:
            newest[entry.bot.id] = entry
    entered = tournaments.entrants(session, ladder_id)
    known = {entrant.version.id for entrant in entered}
    position = len(entered)
    for entry in newest.values():
        if entry.version.id not in known:
            session.add(
                TournamentEntrant(
                    tournament_id=ladder_id, position=position, bot_version_id=entry.version.id or 0
                )
            )
            position += 1
    session.flush()
    return list(newest.values())


def forfeit_streaks(
    session: Session,
    ladder_id: int,
    version_ids: Sequence[int],
    k: int,
    shown: Callable[[str], str] = str,
) -> dict[int, str]:
    """The versions among ``version_ids`` whose last ``k`` games in the ladder were all
    forfeits, with the last forfeit's outcome and reason (as ``shown`` shows it: the public
    sees ``arena.reasons.public_reason``)."""
    paused = {}
    for version_id in version_ids:
        last = session.exec(
            select(SeatRecordRow.outcome, SeatRecordRow.reason)
            .join(GameRecord, col(GameRecord.id) == SeatRecordRow.game_id)
            .where(
                GameRecord.tournament_id == ladder_id,
                GameRecord.status == GameStatus.FINISHED,
                SeatRecordRow.bot_version_id == version_id,
            )
            .order_by(col(GameRecord.id).desc())
            .limit(k)
        ).all()
        if len(last) == k and all(outcome != Outcome.FINISHED.value for outcome, _ in last):
            outcome, reason = last[0]
            paused[version_id] = f"{k} forfeits in a row, last: {outcome}: {shown(reason)}"
    return paused


def stored_ladders(session: Session) -> list[Tournament]:
    """Every ladder, oldest first (tournaments whose settings carry ladder rules)."""
    found = session.exec(select(Tournament).order_by(col(Tournament.id))).all()
    return [tournament for tournament in found if tournament.settings.get("ladder")]


def pauses(
    session: Session,
    version_ids: Sequence[int] | None = None,
    ladder_id: int | None = None,
    shown: Callable[[str], str] = str,
) -> dict[int, list[str]]:
    """Why versions (all, or those of ``version_ids``) are paused now, ladder by ladder (every
    ladder, or ``ladder_id``): a
    version paused in a ladder whose entrants join by themselves is one that has not been
    superseded (a retired version does not play anyway), and a newer version resumes it."""
    found: dict[int, list[str]] = {}
    newest: dict[tuple[int, str], int] = {}
    for entry in bots.all_versions(session):  # ordered by bot, then version id
        for game in entry.version.games:
            newest[entry.bot.id or 0, game] = entry.version.id or 0
    for ladder in stored_ladders(session):
        if ladder_id is not None and ladder.id != ladder_id:
            continue
        rules = ladder.settings["ladder"]
        if int(rules["pause_after"]) <= 0 or ladder.id is None:
            continue
        fixed = bool(rules["fixed"])
        candidates = [
            entrant.version.id or 0
            for entrant in tournaments.entrants(session, ladder.id)
            if (version_ids is None or entrant.version.id in version_ids)
            and (fixed or newest.get((entrant.bot.id or 0, ladder.game)) == entrant.version.id)
        ]
        streaks = forfeit_streaks(session, ladder.id, candidates, int(rules["pause_after"]), shown)
        for version_id, why in streaks.items():
            resumes = "" if fixed else "; a new version resumes it"
            found.setdefault(version_id, []).append(
                f"paused in ladder {ladder.name}: {why}{resumes}"
            )
    return found


def lineup(session: Session, ladder_id: int, game: str, *, fixed: bool, pause_after: int) -> Lineup:
    """The ladder's entrants now: with ``fixed`` the stored ones, else each bot's newest version
    for the game (joined here if new; older versions retire). Paused ones do not play: those
    with ``pause_after`` forfeits in a row, and those of bots the operator withdrew."""
    playing = (
        None if fixed else {entry.version.id for entry in join_newest(session, ladder_id, game)}
    )
    entrants = tournaments.entrants(session, ladder_id)
    found = Lineup(entrants)
    ids = found.version_ids
    streaks = forfeit_streaks(session, ladder_id, ids, pause_after) if pause_after > 0 else {}
    withdrawn = withdrawals.of_versions(session, ids)
    for position, version_id in enumerate(ids):
        if playing is not None and version_id not in playing:
            found.retired.append(position)
        elif version_id in withdrawn:
            found.paused[position] = withdrawn[version_id]
        elif version_id in streaks:
            found.paused[position] = streaks[version_id]
        else:
            found.active.append(position)
    return found


def finish_times(session: Session, ladder_id: int, since: datetime) -> dict[int, list[datetime]]:
    """When each version's games in the ladder finished, those since ``since`` (aware, UTC)."""
    rows = session.exec(
        select(SeatRecordRow.bot_version_id, GameRecord.finished_at)
        .join(GameRecord, col(GameRecord.id) == SeatRecordRow.game_id)
        .where(
            GameRecord.tournament_id == ladder_id,
            GameRecord.status == GameStatus.FINISHED,
            col(GameRecord.finished_at) >= since,
        )
    ).all()
    found: dict[int, list[datetime]] = {}
    for version_id, finished_at in rows:
        if finished_at is not None:  # SQLite gives them back naive
            found.setdefault(version_id, []).append(finished_at.replace(tzinfo=UTC))
    return found


def finished_games(session: Session, ladder_id: int, since: datetime | None = None) -> int:
    """The ladder's finished games (since ``since``, if given)."""
    query = select(func.count()).where(
        GameRecord.tournament_id == ladder_id, GameRecord.status == GameStatus.FINISHED
    )
    if since is not None:
        query = query.where(col(GameRecord.finished_at) >= since)
    return session.exec(query).one()


@dataclass(frozen=True)
class Progress:
    """How far a ladder's rounds went: the next round's number, and the deals some of whose
    rotations are not recorded as finished (a run stopped or killed mid-deal, a game voided
    too often)."""

    next_round: int = 0
    # (round, pod) -> the rotations of that deal recorded as finished
    unfinished: dict[tuple[int, str], set[int]] = field(default_factory=dict)


def progress(session: Session, ladder_id: int) -> Progress:
    keys = session.exec(
        select(GameRecord.schedule_key, GameRecord.status).where(
            GameRecord.tournament_id == ladder_id, col(GameRecord.schedule_key).is_not(None)
        )
    ).all()
    deals: dict[tuple[int, str], set[int]] = {}
    for key, status in keys:
        if match := _KEY.fullmatch(key or ""):
            done = deals.setdefault((int(match[1]), match[2]), set())
            if status == GameStatus.FINISHED:
                done.add(int(match[3]))
    return Progress(
        max((number for number, _ in deals), default=-1) + 1,
        {deal: done for deal, done in deals.items() if len(done) < len(deal[1].split("+"))},
    )


def elo_history(
    session: Session,
    ladder_id: int,
    per_series: int,
    only: Collection[tuple[int, int]] | None = None,
) -> list[tuple[RatingHistory, datetime | None]]:
    """The ladder's Elo updates (of the series ``only`` names, each a version id and a board's
    players, if given), oldest first, each with its game's end, at most ``per_series``
    (at least 2) of each version on each board: the first, the last (its Elo now, exact), and
    between them every S-th, where S is the smallest power of two that keeps the count within
    ``per_series``. A point once shown stays until S doubles, so a chart drawn again after
    more games keeps its shape, and the rows read stay bounded however long the ladder runs
    (one pass over its updates in the database, none in Python)."""
    series = (col(RatingHistory.bot_version_id), col(RatingHistory.players))
    numbered = (
        select(
            col(RatingHistory.id).label("id"),
            func.row_number().over(partition_by=series, order_by=col(RatingHistory.id)).label("n"),
            func.count().over(partition_by=series).label("total"),
        )
        .join(GameRecord, col(GameRecord.id) == RatingHistory.game_id)
        .where(
            GameRecord.tournament_id == ladder_id,
            true() if only is None else tuple_(*series).in_(sorted(only)),
        )
        .subquery()
    )
    kept = max(per_series, 2) - 1  # besides the last
    # S: the smallest power of two with every S-th of the first total-1 within ``kept``, up to
    # the first that keeps a trillion updates within it (as 64-bit numbers on PostgreSQL)
    steps = [1]
    while kept * steps[-1] < 10**12:
        steps.append(2 * steps[-1])
    step = case(
        *(
            (numbered.c.total - 1 <= literal(kept * s, BigInteger), literal(s, BigInteger))
            for s in steps
        ),
        else_=literal(2 * steps[-1], BigInteger),
    )
    rows = session.exec(
        select(RatingHistory, GameRecord.finished_at)
        .join(numbered, numbered.c.id == RatingHistory.id)
        .join(GameRecord, col(GameRecord.id) == RatingHistory.game_id)
        .where(or_(numbered.c.n == numbered.c.total, (numbered.c.n - 1) % step == 0))
        .order_by(col(RatingHistory.id))
    ).all()
    return [(update, finished_at) for update, finished_at in rows]
