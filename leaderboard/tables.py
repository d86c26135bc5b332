"""Leaderboard rows and the head-to-head cross table of one game type."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from leaderboard.elo import INITIAL_RATING
from leaderboard.results import GameResult, SeatResult, pair_score

if TYPE_CHECKING:  # the batch module imports numpy, slow to load
    from leaderboard.batch import BatchRating


@dataclasses.dataclass(frozen=True, slots=True)
class LeaderboardRow:
    position: int  # within the player's pool (see ``pool_heading``)
    player: str
    elo: float
    batch: BatchRating | None
    games: int  # every game played, forfeited ones included; a game counts once, whatever seats
    # Over the games the player finished (a forfeited game's score is the arena's default moves,
    # not the bot's); NaN when it forfeited every game (a float, so callers' formats still work).
    # A player in several seats of one game: the mean of the seats it finished, one game.
    average_rank: float
    average_score: float
    forfeits: dict[str, int]  # reason kind -> games with a seat that forfeited for it

    @property
    def forfeited(self) -> int:
        return sum(self.forfeits.values())


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
    """One row per player, pool by pool (the main pool first), best first within a pool: ordered
    by the batch rating, which does not depend on the order of the games, then by Elo; players
    with equal ratings share a position. Positions restart in each pool: two pools do not compare.

    Average position and score count only the games the player finished."""
    played: Counter[str] = Counter()
    ranks: dict[str, list[float]] = defaultdict(list)
    scores: dict[str, list[float]] = defaultdict(list)
    forfeits: dict[str, Counter[str]] = defaultdict(Counter)
    for game in games:
        for player, seats in _seats_by_player(game).items():
            played[player] += 1
            forfeits[player].update({seat.forfeit for seat in seats if seat.forfeit})
            finished = [seat for seat in seats if not seat.forfeit]
            if finished:  # a player in several seats: the mean of its finished seats
                ranks[player].append(sum(seat.rank for seat in finished) / len(finished))
                scores[player].append(sum(seat.score for seat in finished) / len(finished))

    def pool(player: str) -> int:
        fitted = batch.get(player)
        return fitted.pool if fitted else 1

    def key(player: str) -> tuple[float, float]:
        fitted = batch.get(player)
        return (fitted.rating if fitted else INITIAL_RATING, elo.get(player, INITIAL_RATING))

    ordered = sorted(
        played, key=lambda player: (pool(player), tuple(-v for v in key(player)), player)
    )
    rows: list[LeaderboardRow] = []
    for player in ordered:
        previous = rows[-1] if rows and pool(rows[-1].player) == pool(player) else None
        if previous is None:
            position = 1
        elif _tied(batch.get(previous.player), batch.get(player)) or (
            key(previous.player) == key(player)
        ):
            position = previous.position
        else:
            position = sum(pool(row.player) == pool(player) for row in rows) + 1
        rows.append(
            LeaderboardRow(
                position=position,
                player=player,
                elo=elo.get(player, INITIAL_RATING),
                batch=batch.get(player),
                games=played[player],
                average_rank=_mean(ranks[player]),
                average_score=_mean(scores[player]),
                forfeits=dict(sorted(forfeits[player].items())),
            )
        )
    return rows


def _seats_by_player(game: GameResult) -> dict[str, list[SeatResult]]:
    seats: dict[str, list[SeatResult]] = defaultdict(list)
    for seat in game.seats:
        seats[seat.player].append(seat)
    return seats


def _tied(first: BatchRating | None, second: BatchRating | None) -> bool:
    """Whether two fitted ratings are equal: to 0.01 Elo, as two players of the same record get
    MAPs that differ in their last bits (they were given positions 15 and 16; outside review)."""
    return (
        first is not None
        and second is not None
        and round(first.rating, 2) == round(second.rating, 2)
    )


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def known_ends(rating: BatchRating) -> tuple[float | None, float | None]:
    """The interval's (low, high); None for the end a one-sided record leaves open (the games
    bound that side nowhere: the number there is the prior's)."""
    return (
        None if rating.bound == "upper" else rating.low,
        None if rating.bound == "lower" else rating.high,
    )


def interval_text(low: float | None, high: float | None) -> str:
    """ "[1650, 1790]"; an open end (None) is infinite: "[1413, ∞)", "(-∞, 1587]"."""
    left = "(-∞" if low is None else f"[{low:.0f}"
    right = "∞)" if high is None else f"{high:.0f}]"
    return f"{left}, {right}"


def format_batch(rating: BatchRating) -> str:
    """ "1712 [1650, 1790]": the rating the rows are ordered by, then its 95% interval; a
    one-sided rating's open end is infinite: "1764 [1413, ∞)", "1236 (-∞, 1587]"; an interval set
    by the prior is marked "~", a provisional rating "?" (``LEGEND``)."""
    words = f"{rating.rating:.0f} {interval_text(*known_ends(rating))}"
    return words + (" ~" if rating.prior_set else "") + (" ?" if rating.provisional else "")


# What the marks of ``format_batch`` mean, in words for someone reading a board the first time
# (the terminal prints the lines of the marks it shows, the web all of them). A one-sided row
# still shows its rating: it orders the rows, and the games measure it against its own group
# (one unbeaten bot leaves every other bot's rating open below, yet they beat each other).
LEGEND = {
    ">": "[x, ∞): the games show the rating is above x, not how far above: no bot outside its "
    "group ever finished ahead of it (its group: the bots it won and lost against, often itself "
    "alone). Not always a perfect record: in a 4-player game, second place behind its own group "
    "counts as ahead of the rest. Its rating, which sets its place, is measured against its "
    "group; how far the group sits above the others is the prior's guess.",
    "<": "(-∞, x]: the mirror: below x, not how far: it never finished ahead of a bot outside its "
    "group. Its rating, which sets its place, is measured against its group; how far the group "
    "sits below the others is the prior's guess.",
    "~": "~: the interval is the prior's guess, not measured: the bot always finished behind some "
    "bots and ahead of the others, which says where it ranks but not by how much (or it only "
    "met its own other seats: nothing to rate).",
    "?": "?: provisional: fewer than 20 games against others in its pool; the rating can still "
    "move a lot.",
}


def legend(ratings: Sequence[BatchRating]) -> list[str]:
    """The ``LEGEND`` lines of the marks these ratings show."""
    marks = {
        ">": any(r.bound == "lower" for r in ratings),
        "<": any(r.bound == "upper" for r in ratings),
        "~": any(r.prior_set for r in ratings),
        "?": any(r.provisional for r in ratings),
    }
    return [LEGEND[mark] for mark, shown in marks.items() if shown]


def pool_heading(rating: BatchRating) -> str:
    """ "pool 2 of 3: not comparable with pools 1, 3" ("" when all players form one pool): to
    print above the rows of each pool."""
    if rating.pools < 2:
        return ""
    others = [str(number) for number in range(1, rating.pools + 1) if number != rating.pool]
    label = "pool" if len(others) == 1 else "pools"
    return f"pool {rating.pool} of {rating.pools}: not comparable with {label} {', '.join(others)}"


def cross_table(games: Sequence[GameResult]) -> dict[tuple[str, str], HeadToHead]:
    """{(row player, column player): their head-to-head record}, both directions."""
    counts: Counter[tuple[str, str]] = Counter()
    points: defaultdict[tuple[str, str], float] = defaultdict(float)  # a draw is worth 0.5
    for game in games:
        by_player = _seats_by_player(game)
        for a, mine in by_player.items():
            for b, theirs in by_player.items():
                if a != b:  # several seats: the mean over their pairs of seats, one game
                    counts[a, b] += 1
                    total = sum(pair_score(x, y) for x in mine for y in theirs)
                    points[a, b] += total / (len(mine) * len(theirs))
    return {pair: HeadToHead(counts[pair], points[pair]) for pair in sorted(counts)}
