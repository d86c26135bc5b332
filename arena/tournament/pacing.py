"""A ladder's ``--games-per-hour``, spread over the hour: a token bucket per bot version, read
from the finish times of its stored games (nothing else is stored, so a ladder restarted after
Ctrl-C or kill -9 keeps the pace it had).

A version's allowance grows by G per hour up to a small burst, one round's games (a deal on
every board), and each game costs one; a round starts when every playing version's allowance
covers it (``arena.tournament.ladder.Rounds``). Capping a count over the last hour instead let
the bots play their hour's games in a burst and then wait for the rest of the hour
(docs/ladder.md, the soak run).

The bucket's state follows from the games alone. Since the bucket was last full (just before
some game i, or now), nothing clipped it, so the allowance at ``now`` is the least, over the
games i, of ``burst + rate * age_i - (games no older than game i)``, and at most ``burst``
(any other game's term is at least as large, the bucket holding at most ``burst`` then).
Games older than the lookback are left out: exact unless the bucket was never full during the
lookback (a version kept in debt for an hour), and then a little generous.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

LOOKBACK_SECONDS = 3600.0  # how far back stored games are read
ROUNDING = 1e-9  # games: an allowance this short of a deal's cost covers it (float error)


def covers(allowance: float, games: float) -> bool:
    """Whether a version with this allowance may start ``games`` games."""
    return allowance + ROUNDING >= games


@dataclass(frozen=True)
class Pace:
    per_hour: float  # G > 0
    burst: float  # games: one round's (a deal on every board)

    @classmethod
    def of(cls, per_hour: float, boards: Iterable[int]) -> Pace:
        """The pace of a ladder: a burst of one round's games (a deal on every board)."""
        return cls(per_hour, float(sum(boards)))

    @property
    def rate(self) -> float:
        """Allowance per second."""
        return self.per_hour / 3600.0

    def allowance(self, ages: Sequence[float]) -> float:
        """Games a version may start now, given how many seconds ago its games finished."""
        oldest_first = sorted(ages, reverse=True)
        count = len(oldest_first)
        return self.burst + min(
            [0.0] + [self.rate * age - (count - i) for i, age in enumerate(oldest_first)]
        )

    def ready_in(self, ages: Sequence[float], games: float) -> float:
        """Seconds until the allowance covers ``games`` (0: now), if it plays nothing before."""
        oldest_first = sorted(ages, reverse=True)
        count = len(oldest_first)
        return max(
            [0.0]
            + [
                (count - i + games - self.burst) / self.rate - age
                for i, age in enumerate(oldest_first)
            ]
        )

    def next_round_in(
        self, ages: Mapping[int, Sequence[float]], versions: Collection[int], players: int
    ) -> float | None:
        """Seconds until every one of ``versions`` may play a round (``burst``: a deal on every
        board); None if they are fewer than ``players`` (no pod)."""
        if len(versions) < players:
            return None
        return max(self.ready_in(ages.get(version, ()), self.burst) for version in versions)
