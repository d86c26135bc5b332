"""Benchmark of writing the games in play for spectators (``arena.tournament.live``).

    python -m arena.bench live --games 8 --decisions 300 --flushes 50

``--games`` Oregon games of ``--decisions`` random decisions each are "in play" in a fresh
SQLite file; each flush writes every game's actions so far (all changed) and the heartbeat, as
the runner does once a second. Reported: the time a flush holds the referee's trio loop
(``loop_ms``: copying the action lists; the write itself runs in a thread) and the write's time
in its thread (``write_ms``), medians; and, for comparison, one write transaction per decision
(``per_decision_write_ms``), what writing at every decision would cost the loop instead, against
the referee's pace of several hundred decisions a second. The last line is machine-readable.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import trio

from arena.bench import bench_parser
from arena.bench.storage import _register
from arena.storage import running
from arena.storage.database import open_database
from arena.tournament.live import LiveGames
from arena.tournament.schedule import ScheduledGame
from engine.registry import get_game


def _states(games: int, decisions: int) -> list:
    engine, rng = get_game("oregon"), random.Random(7)
    states = []
    for seed in range(games):
        state = engine.new_game(2, seed)
        for _ in range(decisions):
            if state.is_over:
                break
            state.apply_index(rng.randrange(len(state.legal_actions())))
        states.append(state)
    return states


async def _measure(db: Path, games: int, decisions: int, flushes: int) -> dict[str, float]:
    database = open_database(db, create=True)
    ids = _register(database, ["a", "b"])
    live = LiveGames(database, None, "oregon", {}, [("a", ids["a"]), ("b", ids["b"])])
    watched = []
    for number, state in enumerate(_states(games, decisions)):
        game = live.started(ScheduledGame(f"g{number}", "0+1", number, number, (0, 1)))
        game.match_started(state, ["a", "b"])
        watched.append(game)
    await live.flush()
    loop, write = [], []
    for _ in range(flushes):
        for game in watched:
            game.written = -1  # every game changed since the last flush
        began = time.perf_counter()
        batch = live.batch()  # in the referee's loop
        taken = time.perf_counter()
        batch.write(database)  # in a thread of its own when the runner flushes
        write.append(time.perf_counter() - taken)
        loop.append(taken - began)
        batch.written()
    rows = [game.row_id for game in watched if game.row_id is not None]
    one_write = []
    for _ in range(flushes):
        began = time.perf_counter()
        with database.write() as session:
            running.refresh(session, {rows[0]: list(range(decisions))}, [])
        one_write.append(time.perf_counter() - began)
    database.close()
    return {
        "loop_ms": statistics.median(loop) * 1000,
        "write_ms": statistics.median(write) * 1000,
        "per_decision_write_ms": statistics.median(one_write) * 1000,
    }


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("live", __doc__)
    parser.add_argument("--games", type=int, default=8, help="games in play at once")
    parser.add_argument("--decisions", type=int, default=300, help="decisions of each so far")
    parser.add_argument("--flushes", type=int, default=50)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        result = trio.run(
            _measure, Path(tmp) / "arena.db", args.games, args.decisions, args.flushes
        )
    load = os.getloadavg()[0]
    print(
        f"{args.games} games in play, {args.decisions} decisions each: a flush (once a second) "
        f"holds the referee's loop {result['loop_ms']:.3f} ms and writes in a thread for "
        f"{result['write_ms']:.2f} ms; a write per decision would take "
        f"{result['per_decision_write_ms']:.2f} ms each (load {load:.1f})"
    )
    print(json.dumps({"games": args.games, "decisions": args.decisions, "load": load} | result))
