"""Which game a tournament plays next: a ``Pairing`` (after cutechess's ``Tournament``, whose
``initializePairing`` and ``nextPair`` these follow).

The runner asks ``next_game`` whenever a game slot is free and tells ``game_recorded`` of every
game this run records, so a pairing may decide from the results so far: a round robin plays its
schedule in order, an SPRT (``arena.tournament.sprt.SequentialTest``) stops once its test has
decided, and a ladder would match players by their ratings.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from typing import Protocol

from arena.records import MatchRecord
from arena.tournament.schedule import ScheduledGame


class Pairing(Protocol):
    def start(self, schedule: Sequence[ScheduledGame], done: Collection[str]) -> int:
        """Begin a run of the tournament whose games are ``schedule`` and of which the games
        keyed ``done`` are recorded already; returns how many games this run may play at most."""
        ...

    def next_game(self) -> ScheduledGame | None:
        """The game to play next, or None to start no more (the games running still finish)."""
        ...

    def game_recorded(self, scheduled: ScheduledGame, record: MatchRecord) -> None:
        """``scheduled`` finished (not voided) and this run recorded it."""
        ...


class RoundRobin:
    """The schedule's games not recorded yet, in the schedule's order."""

    def __init__(self) -> None:
        self._queue: Iterator[ScheduledGame] = iter(())

    def start(self, schedule: Sequence[ScheduledGame], done: Collection[str]) -> int:
        pending = [game for game in schedule if game.key not in done]
        self._queue = iter(pending)
        return len(pending)

    def next_game(self) -> ScheduledGame | None:
        return next(self._queue, None)

    def game_recorded(self, scheduled: ScheduledGame, record: MatchRecord) -> None:
        pass
