"""Benchmark of the leaderboard over games stored in SQLite.

    python -m arena.bench storage --games 10000 --players 10 --seats 4

Stores synthetic games (known strengths, Plackett-Luce rankings) in a fresh SQLite file, then
times the batch rating of one game type as ``arena leaderboard`` computes it: loading every rated
game (``load_s``) and the fit with its bootstrap (``fit_s``); ``total_s`` is their sum. Importing
the fit's libraries (choix, scipy) is a one-off cost per process, reported apart (``import_s``).
Also times recording games one transaction each with their Elo updates and their seal, as a
tournament does (``record_game_ms``): each carries the log of one real game (random legal moves),
which the seal replays. The last line is machine-readable; on a busy machine compare the wall
times with ``total_cpu_s`` and the load average. ``--db postgresql://...`` stores in that
(empty) PostgreSQL database instead (docs/hosting.md, "PostgreSQL").
"""

from __future__ import annotations

import importlib
import os
import random
import tempfile
import time
from pathlib import Path

from arena.bench import bench_parser
from arena.game_setup import load_game
from arena.manifest import BotSpec
from arena.records import MatchRecord, Outcome, SeatRecord
from arena.storage import bots
from arena.storage.database import Database, open_database
from arena.storage.games import finished_game_results, record_game
from arena.storage.models import GameOutcome, GameRecord, GameStatus, SeatRecordRow
from arena.storage.target import PostgresUrl, parse_target
from leaderboard.results import GameResult
from leaderboard.synthetic import round_robin


def _register(database: Database, names: list[str]) -> dict[str, int]:
    ids = {}
    with database.write() as session:
        for name in names:
            spec = BotSpec(name, "1", ("oregon",), Path("/bench"), ("python", "bot.py"))
            version = bots.register(session, spec, name)[0].version
            assert version.id is not None, "register stores the version"
            ids[name] = version.id
    return ids


def _bulk_store(database: Database, games: list[GameResult], ids: dict[str, int]) -> None:
    """All games in one transaction (setup only; a tournament commits each game alone)."""
    with database.write() as session:
        for number, game in enumerate(games):
            row = GameRecord(
                group_key=game.group_key,
                game="oregon",
                rules_version="bench",
                options={},
                seed=number,
                num_players=len(game.seats),
                status=GameStatus.FINISHED,
                actions=[],
                termination=GameOutcome.COMPLETED,
                duration=0.0,
            )
            session.add(row)
            session.flush()
            assert row.id is not None, "the flush gave the game its id"
            session.add_all(
                SeatRecordRow(
                    game_id=row.id,
                    seat=seat,
                    bot_version_id=ids[s.player],
                    score=s.score,
                    rank=s.rank,
                    outcome="FINISHED",
                    reason="",
                    time_used=0.0,
                    decisions=0,
                )
                for seat, s in enumerate(game.seats)
            )


def _random_game(players: int, seed: int) -> tuple[str, list[int]]:
    """The rules version and action log of one oregon game played by random legal moves."""
    engine = load_game("oregon")
    state = engine.new_game(players, seed, {})
    rng = random.Random(seed)
    actions = []
    while not state.is_over:
        actions.append(rng.randrange(len(state.legal_actions())))
        state.apply_index(actions[-1])
    return engine.rules_version, actions


def _record_one_by_one(database: Database, games: list[GameResult], ids: dict[str, int]) -> float:
    """Seconds per game; every game carries one real log (the seal replays it), its seats the
    synthetic result."""
    rules_version, actions = _random_game(len(games[0].seats), seed=1)
    start = time.perf_counter()
    for game in games:
        seats = [
            SeatRecord(i, s.player, s.score, s.rank, Outcome.FINISHED, "", 0.0, 0)
            for i, s in enumerate(game.seats)
        ]
        record = MatchRecord(
            "oregon", rules_version, {}, 1, len(seats), actions, seats, False, "", 0.0
        )
        record_game(database, record, [ids[s.player] for s in game.seats], group_key=game.group_key)
    return (time.perf_counter() - start) / len(games)


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("storage", __doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument(
        "--recorded",
        type=int,
        default=300,
        help="games recorded one transaction each, for the write timing",
    )
    parser.add_argument(
        "--db",
        type=parse_target,
        default=None,
        metavar="URL",
        help="an empty PostgreSQL database (postgresql://USER@HOST:PORT/DBNAME) to store in, "
        "instead of a fresh SQLite file",
    )
    args = parser.parse_args(argv)
    if args.db is not None and not isinstance(args.db, PostgresUrl):
        parser.error("--db takes a postgresql:// URL (the SQLite file is always a fresh one)")
    strengths = {
        f"bot{i:02d}": 1300.0 + 400.0 * i / max(1, args.players - 1) for i in range(args.players)
    }
    games = round_robin(strengths, args.seats, args.games, seed=1)
    with tempfile.TemporaryDirectory() as directory:
        database = open_database(args.db or Path(directory) / "bench.db", create=True)
        ids = _register(database, sorted(strengths))
        _bulk_store(database, games, ids)
        start = time.perf_counter()
        batch = importlib.import_module("leaderboard.batch")
        import_seconds = time.perf_counter() - start
        start, cpu_start = time.perf_counter(), time.process_time()
        with database.read() as session:
            stored = finished_game_results(session, "oregon")
        load_seconds = time.perf_counter() - start
        batch.fit_batch(stored)
        fit_seconds = time.perf_counter() - start - load_seconds
        cpu = time.process_time() - cpu_start
        assert len(stored) == args.games
        per_game = _record_one_by_one(database, games[: args.recorded], ids)
        database.close()
    print(
        f"stored_batch_fit db={'postgresql' if args.db else 'sqlite'} games={args.games} "
        f"players={args.players} seats={args.seats} "
        f"load_s={load_seconds:.3f} fit_s={fit_seconds:.3f} "
        f"total_s={load_seconds + fit_seconds:.3f} total_cpu_s={cpu:.3f} "
        f"import_s={import_seconds:.3f} record_game_ms={per_game * 1000:.2f} "
        f"load_average={os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
