"""Where a stored ``arena sprt`` test stands: its SPRT fed with the stored games, as the running
test counts them. Reading only, so what shows a test (the web arena) needs nothing of what runs
one (the referee, bots, gRPC).

A test is a tournament of two entrants (NEW at position 0, BASE at 1, two players) whose settings
hold the SPRT parameters; each deal is played twice with the seats swapped, which makes a pair
(``leaderboard.sprt``, pentanomial model). Pairs are counted in deal order, only once every
earlier deal is complete, so the decision, and the pair it was reached at, do not depend on which
game finished first or on a resume in between.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlmodel import Session, col

from arena.records import Outcome
from arena.storage import tournaments
from arena.storage.models import GameRecord, GameStatus, SeatRecordRow, Tournament
from arena.tournament.schedule import ScheduledGame, build_schedule
from leaderboard.results import GameResult, SeatResult
from leaderboard.sprt import SPRT, game_score

NEW, BASE = 0, 1  # entrant positions


class PairedTest:
    """An SPRT fed game by game, in any order: a deal's pair is added once both its games and
    every earlier deal's are in, and nothing is added after the test has decided."""

    def __init__(self, test: SPRT) -> None:
        self.test = test
        self.next_deal = 0
        self.waiting: dict[int, dict[int, float]] = {}  # deal -> rotation -> NEW's score
        self.decided_at_pair: int | None = None

    @property
    def decided(self) -> bool:
        return self.decided_at_pair is not None

    def add(self, deal: int, rotation: int, new_score: float) -> None:
        self.waiting.setdefault(deal, {})[rotation] = new_score
        while not self.decided and len(self.waiting.get(self.next_deal, {})) == 2:
            pair = self.waiting.pop(self.next_deal)
            self.test.add_pair(pair[0], pair[1])
            self.next_deal += 1
            if self.test.status != "continue":
                self.decided_at_pair = self.test.pairs


def new_score(entrant_at_seat: Sequence[int], seats: Sequence[tuple[int, float, str]]) -> float:
    """NEW's score against BASE in one game: ``seats`` are (rank, score, forfeit reason or "")
    in seat order, ``entrant_at_seat`` the entrant position in each seat."""
    result = GameResult(
        tuple(
            SeatResult(str(entrant), rank, score, forfeit)
            for entrant, (rank, score, forfeit) in zip(entrant_at_seat, seats)
        )
    )
    return game_score(result, str(NEW), str(BASE))


def load_test(session: Session, tournament_id: int) -> tuple[PairedTest, list[ScheduledGame]]:
    """The test as far as the stored games take it, and the tournament's schedule. The stored
    settings hold "deals" and "sprt" (elo0, elo1, alpha, beta), checked when the test was made."""
    tournament = session.get(Tournament, tournament_id)
    assert tournament is not None
    parameters = tournament.settings.get("sprt")
    assert parameters is not None, "an SPRT test"
    paired = PairedTest(SPRT(**parameters))
    schedule = build_schedule(2, 2, int(tournament.settings["deals"]), tournament.seed)
    by_key = {game.key: game for game in schedule}
    entrant_ids = [entrant.version.id for entrant in tournaments.entrants(session, tournament_id)]
    rows = (
        session.connection()
        .execute(
            select(
                col(GameRecord.schedule_key),
                col(SeatRecordRow.bot_version_id),
                col(SeatRecordRow.rank),
                col(SeatRecordRow.score),
                col(SeatRecordRow.outcome),
            )
            .join(SeatRecordRow, col(SeatRecordRow.game_id) == GameRecord.id)
            .where(
                col(GameRecord.tournament_id) == tournament_id,
                col(GameRecord.status) == GameStatus.FINISHED,
            )
            .order_by(col(GameRecord.id), col(SeatRecordRow.seat))
        )
        .all()
    )
    seated: dict[str, list[int]] = {}  # schedule key -> entrant position in each seat
    games: dict[str, list[tuple[int, float, str]]] = {}
    for key, version_id, rank, score, outcome in rows:
        if key is None or key not in by_key:
            continue
        seated.setdefault(key, []).append(entrant_ids.index(version_id))
        games.setdefault(key, []).append(
            (rank, score, "" if outcome == Outcome.FINISHED.value else outcome)
        )
    for key in sorted(games, key=lambda key: (by_key[key].deal, key)):
        scheduled = by_key[key]
        paired.add(scheduled.deal, scheduled.seats.index(NEW), new_score(seated[key], games[key]))
    return paired, schedule
