"""Which game a tournament plays next: a ``Pairing`` (after cutechess's ``Tournament``, whose
``initializePairing`` and ``nextPair`` these follow).

The runner asks ``next_game`` whenever a game slot is free and tells ``game_recorded`` of every
game this run records, so a pairing may decide from the results so far: a round robin plays its
schedule in order, an SPRT (``arena.tournament.sprt.SequentialTest``) stops once its test has
decided, and a ladder would match players by their ratings.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Protocol

from arena.records import MatchRecord
from arena.tournament.schedule import ScheduledGame

# How much a game slot would rather not play a game now: 0 not at all; more, the more (a bool
# is 0 or 1). A pairing free to choose takes, of the next ``LOOKAHEAD`` games, the first of the
# least avoided (``first_least_avoided``).
Avoid = Callable[[ScheduledGame], int]
# How far past the next game of its schedule a round robin lets a slot take one it need not avoid.
LOOKAHEAD = 32


def never(game: ScheduledGame) -> int:
    return 0


def first_least_avoided(games: Iterable[ScheduledGame], avoid: Avoid) -> int:
    """The index, among ``games``, of the first game with the least ``avoid``; 0 if none."""
    best, best_rank = 0, None
    for index, game in enumerate(games):
        rank = avoid(game)
        if best_rank is None or rank < best_rank:
            best, best_rank = index, rank
            if rank == 0:
                break
    return best


class Pairing(Protocol):
    def start(self, schedule: Sequence[ScheduledGame], done: Collection[str]) -> int:
        """Begin a run of the tournament whose games are ``schedule`` and of which the games
        keyed ``done`` are recorded already; returns how many games this run may play at most."""
        ...

    def next_game(self, avoid: Avoid = never) -> ScheduledGame | None:
        """The game to play next, or None to start no more (the games running still finish).
        A pairing free to choose prefers a game ``avoid`` ranks lower: one of a deal another
        slot is playing now (it could not be shown live: ``arena.storage.running``), then one
        whose deal the asking slot's kept-up bots played (they would be replaced:
        ``arena.referee.pool``)."""
        ...

    def game_recorded(self, scheduled: ScheduledGame, record: MatchRecord) -> None:
        """``scheduled`` finished (not voided) and this run recorded it."""
        ...


class RoundRobin:
    """The schedule's games not recorded yet, in the schedule's order, except that a slot takes
    the first of the next ``LOOKAHEAD`` games it need not avoid: with one game slot, a pod plays
    the first rotation of a run of deals, then the second, and its bots are replaced once per run
    instead of once per deal."""

    def __init__(self) -> None:
        self._queue: Iterator[ScheduledGame] = iter(())
        self._ahead: list[ScheduledGame] = []  # the next games of the queue, in order

    def start(self, schedule: Sequence[ScheduledGame], done: Collection[str]) -> int:
        pending = [game for game in schedule if game.key not in done]
        self._queue, self._ahead = iter(pending), []
        return len(pending)

    def next_game(self, avoid: Avoid = never) -> ScheduledGame | None:
        self._ahead.extend(itertools.islice(self._queue, LOOKAHEAD - len(self._ahead)))
        if not self._ahead:
            return None
        return self._ahead.pop(first_least_avoided(self._ahead, avoid))

    def game_recorded(self, scheduled: ScheduledGame, record: MatchRecord) -> None:
        pass
