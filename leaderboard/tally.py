"""A board's games as a tally of how they finished: what a ladder keeps in memory for its
matchmaking.

The posterior fit without bootstrap (``leaderboard.batch.fit_posterior``) reads only who finished
where in each game, and how often each such finish occurred: not the seat order, the scores or
which deal a game belonged to. So games that finished alike are one entry with a count. A ladder
that kept every game's results grew by about 0.3 KiB per game, and read them all into arrays
before each round (0.9-1.2 s at 400,000 two-player games, for a round of two games: docs/ladder.md,
"Memory over a long run"). A tally grows only with the distinct finishes (for two players: who
beat whom, or drew, or forfeited), and keeps them as the fit reads them, in flat lists of
numbers: its fit costs in distinct finishes, not games.

The bootstrap of the leaderboard's fit (``leaderboard.batch.fit_batch``) resamples the games by
deal, so it needs the games themselves; a tally cannot serve it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np

from leaderboard.batch import Posterior, posterior_of
from leaderboard.finishes import Finishes, from_seats
from leaderboard.results import GameResult


class FinishTally:
    """How many games of a board finished each way."""

    def __init__(self, games: Iterable[GameResult] = ()) -> None:
        # a finish (each seat's player, rank and whether it forfeited, seats sorted: the fit
        # does not read their order, flat) -> its entry
        self._entry: dict[tuple[str | int | bool, ...], int] = {}
        self._count: list[int] = []  # per entry: its games
        self._size: list[int] = []  # per entry: its seats
        # per seat of each entry, in turn: its player (an index into _players), rank, forfeit
        self._player: list[int] = []
        self._rank: list[int] = []
        self._forfeit: list[bool] = []
        self._players: dict[str, int] = {}  # in order of appearance
        for game in games:
            self.add(game)

    def add(self, game: GameResult) -> None:
        seats = sorted((seat.player, seat.rank, bool(seat.forfeit)) for seat in game.seats)
        finish: tuple[str | int | bool, ...] = tuple(itertools.chain.from_iterable(seats))
        entry = self._entry.get(finish)
        if entry is not None:
            self._count[entry] += 1
            return
        self._entry[finish] = len(self._count)
        self._count.append(1)
        self._size.append(len(seats))
        for player, rank, forfeit in seats:
            self._player.append(self._players.setdefault(player, len(self._players)))
            self._rank.append(rank)
            self._forfeit.append(forfeit)

    @property
    def games(self) -> int:
        return sum(self._count)

    def __len__(self) -> int:
        """The distinct finishes (what the tally holds and the fit reads)."""
        return len(self._count)

    def fit(self) -> Posterior:
        """``fit_posterior`` of the games tallied: the same as of the games themselves."""
        return posterior_of(self.finishes())

    def finishes(self) -> Finishes:
        """The games tallied as the fits read them, an entry standing for its count of games
        (all in one group: a fit without bootstrap reads none)."""
        players = sorted(self._players)
        renumbered = np.empty(len(players), dtype=np.int64)
        renumbered[[self._players[player] for player in players]] = np.arange(len(players))
        entries = len(self._count)
        return from_seats(
            players,
            np.array(self._size, dtype=np.int64),
            renumbered[np.array(self._player, dtype=np.int64)],
            np.array(self._rank, dtype=np.int64),
            np.array(self._forfeit, dtype=np.bool_),
            np.zeros(entries, dtype=np.int64),
            [""],
            np.array(self._count, dtype=np.float64),
        )
