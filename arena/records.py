"""What a played game leaves behind: each seat's outcome and the match record, shared by the
referee that makes them, the storage that keeps them, the wire that reports them and the replay
that checks them. Plain data: importing this module imports nothing of the referee."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


class Outcome(str, enum.Enum):
    """How one seat's game ended; every outcome but FINISHED is a forfeit."""

    FINISHED = "FINISHED"
    ILLEGAL = "ILLEGAL"
    TIMEOUT = "TIMEOUT"
    CRASH = "CRASH"


@dataclass(frozen=True)
class TimeControl:
    move_seconds: float = 2.0
    bank_seconds: float = 0.0
    # How long a bot may take from its start to answering the handshake.
    ready_seconds: float = 10.0


@dataclass(frozen=True)
class LogSlice:
    """What a seat's bot wrote during one game: bytes [start, end) of its kept log (``--bot-logs``).
    A bot kept up across games writes one file for all of them, so a game's part is a slice."""

    path: str
    start: int
    end: int


@dataclass
class SeatRecord:
    seat: int
    player: str
    score: float
    rank: int
    outcome: Outcome
    reason: str
    time_used: float
    decisions: int
    log: LogSlice | None = None  # None: the log was not kept (or the bot is remote)
    # It played to the end but did not acknowledge EndGame in time (not stored: a kept-up
    # process is replaced for it, and `arena validate` warns of it).
    end_unanswered: bool = False


@dataclass
class MatchRecord:
    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int
    num_players: int
    actions: list[int]
    seats: list[SeatRecord]
    voided: bool
    void_reason: str
    duration: float
    # Per decision, in the order of ``actions``: the seconds the seat took to answer (None where
    # the arena decided for a forfeited seat), and the bot's comment ("" without one).
    decision_seconds: list[float | None] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def arena_ranks(engine_ranks: Sequence[int], forfeited: Sequence[bool]) -> list[int]:
    """The ranks the arena records: finishers ordered by the engine's ranks among finishers
    (ties kept), then every forfeiting seat sharing the last rank."""
    finishers = [seat for seat, out in enumerate(forfeited) if not out]
    return [
        len(finishers) + 1
        if forfeited[seat]
        else 1 + sum(engine_ranks[other] < engine_ranks[seat] for other in finishers)
        for seat in range(len(forfeited))
    ]
