"""Leaderboard rows and the head-to-head cross table of one game type."""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from leaderboard.elo import INITIAL_RATING
from leaderboard.results import GameResult, pair_score

if TYPE_CHECKING:  # the batch module imports choix and scipy, slow to load
    from leaderboard.batch import BatchRating


@dataclasses.dataclass(frozen=True, slots=True)
class LeaderboardRow:
    position: int
    player: str
    elo: float
    batch: BatchRating | None
    games: int
    average_rank: float
    average_score: float
    forfeits: dict[str, int]  # reason kind -> count


@dataclasses.dataclass(frozen=True, slots=True)
class HeadToHead:
    games: int  # games in which both players sat
    score: float  # points of the row player against the column player (win 1, draw 0.5)

    @property
    def share(self) -> float:
        return self.score / self.games if self.games else 0.0


def leaderboard_rows(
    games: Sequence[GameResult],
    elo: Mapping[str, float],
    batch: Mapping[str, BatchRating],
) -> list[LeaderboardRow]:
    """One row per player, best first: ordered by the batch rating, which does not depend on
    the order of the games, then by Elo; players with equal ratings share a position."""
    ranks: dict[str, list[int]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    forfeits: dict[str, Counter[str]] = defaultdict(Counter)
    for game in games:
        for seat in game.seats:
            ranks[seat.player].append(seat.rank)
            scores[seat.player].append(seat.score)
            if seat.forfeit:
                forfeits[seat.player][seat.forfeit] += 1

    def key(player: str) -> tuple[float, float]:
        fitted = batch.get(player)
        return (fitted.rating if fitted else INITIAL_RATING, elo.get(player, INITIAL_RATING))

    ordered = sorted(ranks, key=lambda player: (tuple(-v for v in key(player)), player))
    rows: list[LeaderboardRow] = []
    for index, player in enumerate(ordered):
        tied = rows and key(rows[-1].player) == key(player)
        rows.append(
            LeaderboardRow(
                position=rows[-1].position if tied else index + 1,
                player=player,
                elo=elo.get(player, INITIAL_RATING),
                batch=batch.get(player),
                games=len(ranks[player]),
                average_rank=sum(ranks[player]) / len(ranks[player]),
                average_score=sum(scores[player]) / len(scores[player]),
                forfeits=dict(sorted(forfeits[player].items())),
            )
        )
    return rows


def cross_table(games: Sequence[GameResult]) -> dict[tuple[str, str], HeadToHead]:
    """{(row player, column player): their head-to-head record}, both directions."""
    counts: Counter[tuple[str, str]] = Counter()
    points: defaultdict[tuple[str, str], float] = defaultdict(float)  # a draw is worth 0.5
    for game in games:
        for a in game.seats:
            for b in game.seats:
                if a.player != b.player:
                    counts[a.player, b.player] += 1
                    points[a.player, b.player] += pair_score(a, b)
    return {pair: HeadToHead(counts[pair], points[pair]) for pair in sorted(counts)}
