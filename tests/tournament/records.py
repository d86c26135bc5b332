"""Hand-made match records and registered bots for storage tests (no bot processes needed)."""

from __future__ import annotations

import random
from pathlib import Path

from arena.manifest import BotSpec
from arena.records import MatchRecord, Outcome, SeatRecord
from arena.storage import bots
from arena.storage.database import Database


def register_bots(database: Database, names: list[str]) -> list[int]:
    ids = []
    with database.write() as session:
        for name in names:
            spec = BotSpec(
                name=name,
                version="1",
                games=("oregon",),
                directory=Path("/nowhere"),
                command=("python", "bot.py"),
            )
            registered, _ = bots.register(session, spec, content_hash=f"hash-{name}")
            ids.append(registered.version.id)
    return ids


def match_record(
    ranks: list[int], outcomes: list[Outcome] | None = None, seed: int = 1, voided: bool = False
) -> MatchRecord:
    outcomes = outcomes or [Outcome.FINISHED] * len(ranks)
    seats = [
        SeatRecord(
            seat=i,
            player=f"p{i}",
            score=float(10 - rank),
            rank=rank,
            outcome=outcome,
            reason="" if outcome is Outcome.FINISHED else "why",
            time_used=0.1,
            decisions=5,
        )
        for i, (rank, outcome) in enumerate(zip(ranks, outcomes))
    ]
    return MatchRecord(
        game="oregon",
        rules_version="test-1",
        options={},
        seed=seed,
        num_players=len(ranks),
        actions=[0, 1, 0],
        seats=seats,
        voided=voided,
        void_reason="arena fault: test" if voided else "",
        duration=0.5,
    )


def random_ranks(rng: random.Random, players: int) -> list[int]:
    order = list(range(1, players + 1))
    rng.shuffle(order)
    return order
