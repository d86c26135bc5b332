"""Tournament benchmark: how close a whole tournament comes to the referee's match throughput.

    python -m arena.bench tournament [--game oregon] [--concurrency 2] [--deals 80]

In one run, with the fast sample bots (random-python against random-node):
* a round robin tournament at ``--concurrency`` C, recorded in a fresh SQLite file as
  ``arena tournament`` records it, with bots that stay up across games (the default) and again
  with ``--fresh-bots`` (a process per seat and game): wall time, games/s and decisions/s;
* ``arena.bench protocol``'s concurrent measurement with the same bots and C matches at once
  (decisions/s while all of them play, bots kept up and warmed beforehand);
* with ``--workers N`` (N > 1), a longer tournament (``--worker-deals``) with its games spread
  over N worker processes (``arena tournament --workers``), against the protocol bench's ceiling
  on the same bots: C blocking client processes, each calling a random-python and a random-node
  process in turn as a game does, no referee. (The same bots matter: a random-node call costs
  the machine several times a random-python one, so a ceiling of Python bots alone would be
  another race.) And between the two, a minimal referee: the same client processes also playing
  the games, running the engine and encoding each request as the referee does, nothing else; it
  shows what the games themselves cost in Python, apart from the tournament's machinery (trio,
  checks, storage, the seal).

The last line gives both rates and their ratio: what starting bots, storing games and scheduling
cost a tournament on top of the referee. Bots run unconfined in both, as in ``arena.bench
protocol`` (``--sandbox bwrap`` confines the tournament's bots).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from resource import RUSAGE_CHILDREN, RUSAGE_SELF, getrusage

import trio

from arena.bench import bench_parser
from arena.bench.bots import SAMPLE_BOTS, typical_requests
from arena.bench.clients import ceiling_throughput, minimal_referee_throughput
from arena.bench.matches import concurrent_throughput
from arena.manifest import load_manifest
from arena.sandbox import SandboxPolicy
from arena.storage.models import GameStatus
from arena.tournament.ray_backend import RayCluster
from arena.tournament.runner import run_tournament
from arena.tournament.settings import TournamentSettings
from arena.tournament.setup import create_tournament

BOTS = ("random-python", "random-node")


@dataclass
class TournamentRun:
    seconds: float
    games: int
    decisions: int
    own_cpu: float  # CPU seconds of this process (the referee, unless the games ran elsewhere)
    children_cpu: float  # of the processes it started and reaped: bots, worker processes

    def cpu_ms_per_decision(self) -> tuple[float, float]:
        return 1000 * self.own_cpu / self.decisions, 1000 * self.children_cpu / self.decisions

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def _played(db: Path) -> tuple[int, int]:
    """Finished games and their decisions made by bots."""
    with sqlite3.connect(db) as connection:
        games, decisions = connection.execute(
            "SELECT count(DISTINCT g.id), coalesce(sum(s.decisions), 0) FROM game g "
            "JOIN seat s ON s.game_id = g.id WHERE g.status = ?",
            (GameStatus.FINISHED.value,),
        ).fetchone()
    return games, decisions


async def run_one_tournament(
    db: Path,
    game: str,
    settings: TournamentSettings,
    seed: int,
    workers: int = 1,
    ray: RayCluster | None = None,
    pin_cpus: bool = True,
) -> TournamentRun:
    """Create and play one tournament of the sample bots in ``db`` (in ``workers`` processes,
    or on the ``ray`` cluster), timed from the start of its run (bots not started yet) to the
    last game recorded; creating it (which checks each bot's handshake once) is left out."""
    ready = await trio.to_thread.run_sync(  # it checks each bot's handshake in a trio run
        partial(
            create_tournament,
            db,
            game,
            [str(SAMPLE_BOTS / bot) for bot in BOTS],
            settings,
            seed,
            name="bench",
        )
    )
    began, own, children = time.perf_counter(), _cpu(RUSAGE_SELF), _cpu(RUSAGE_CHILDREN)
    try:
        summary = await run_tournament(
            ready.database, ready.id, workers=workers, pin_cpus=pin_cpus, ray=ray
        )
    finally:
        ready.database.close()
    seconds = time.perf_counter() - began
    own, children = _cpu(RUSAGE_SELF) - own, _cpu(RUSAGE_CHILDREN) - children
    assert summary.complete, f"{summary.done}/{summary.total} games recorded"
    games, decisions = _played(db)
    return TournamentRun(seconds, games, decisions, own, children)


def _cpu(who: int) -> float:
    usage = getrusage(who)
    return usage.ru_utime + usage.ru_stime


async def tournament(args: argparse.Namespace) -> None:
    runs: dict[bool, TournamentRun] = {}

    async def timed(
        fresh: bool, workers: int = 1, deals: int = args.deals, pin_cpus: bool = True
    ) -> TournamentRun:
        settings = TournamentSettings(
            players=2,
            deals=deals,
            concurrency=args.concurrency,
            move_time=5.0,
            sandbox=SandboxPolicy(tool=args.sandbox),
            fresh_bots=fresh,
        )
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as directory:
            return await run_one_tournament(
                Path(directory) / "arena.db",
                args.game,
                settings,
                seed=12345,
                workers=workers,
                pin_cpus=pin_cpus,
            )

    for fresh in (False, True):
        run = runs[fresh] = await timed(fresh)
        mode = "--fresh-bots (a process per seat and game)" if fresh else "bots that stay up"
        print(
            f"tournament, {mode}: {run.games} {args.game} games in {run.seconds:.1f} s: "
            f"{run.games_per_second:.1f} games/s, {run.decisions_per_second:.0f} decisions/s"
        )
    specs = [load_manifest(SAMPLE_BOTS / bot) for bot in BOTS]
    matches = await concurrent_throughput(specs, args.game, args.concurrency, args.rounds)
    protocol_rate = matches.decisions_per_second
    print(
        f"protocol: {args.concurrency} concurrent matches of the same bots (kept up): "
        f"{protocol_rate:.0f} decisions/s ({matches.counted} decisions while all were playing)"
    )
    kept = runs[False]
    referee_ms, bots_ms = kept.cpu_ms_per_decision()
    print(
        f"CPU per decision, bots that stay up: referee {referee_ms:.2f} ms (this process: "
        f"engine, encoding, gRPC client, storage), bots {bots_ms:.2f} ms"
    )
    if args.workers > 1:
        free = await timed(False, args.workers, args.worker_deals, pin_cpus=False)
        spread = await timed(False, args.workers, args.worker_deals)
        requests = typical_requests(args.game, 2, seed=12345)
        ceiling = await ceiling_throughput(
            specs, args.game, requests, args.concurrency, args.seconds
        )
        minimal = await minimal_referee_throughput(specs, args.game, args.concurrency, args.seconds)
        print(
            f"tournament in {args.workers} worker processes: {spread.games} games in "
            f"{spread.seconds:.1f} s: {spread.decisions_per_second:.0f} decisions/s; "
            f"ceiling ({args.concurrency} blocking client processes calling the same bots in "
            f"turn, no referee): {ceiling.calls_per_second:.0f} calls/s; "
            f"ratio {spread.decisions_per_second / ceiling.calls_per_second:.2f}"
        )
        print(
            f"  the same tournament with --no-pin-cpus (the workers and their bots wherever the "
            f"scheduler puts them): {free.decisions_per_second:.0f} decisions/s, ratio "
            f"{free.decisions_per_second / ceiling.calls_per_second:.2f}"
        )
        print(
            f"minimal referee ({args.concurrency} blocking client processes that also run the "
            f"engine and encode each request, nothing else): "
            f"{minimal.calls_per_second:.0f} decisions/s, "
            f"{minimal.calls_per_second / ceiling.calls_per_second:.2f} of the ceiling; "
            f"the tournament in workers reaches "
            f"{spread.decisions_per_second / minimal.calls_per_second:.2f} of it"
        )
        # Where the cores are all busy, rates follow CPU per decision: this line says why the
        # ratios are what they are (and what more cores could not change).
        main_ms, workers_ms = spread.cpu_ms_per_decision()
        spread_ms = main_ms + workers_ms
        print(
            f"CPU per decision: ceiling {ceiling.ms_per_call:.2f} ms (client "
            f"{ceiling.client_ms_per_call:.2f}, bots {ceiling.bots_ms_per_call:.2f}); minimal "
            f"referee {minimal.ms_per_call:.2f} ms (client {minimal.client_ms_per_call:.2f}, "
            f"bots {minimal.bots_ms_per_call:.2f}); tournament in workers {spread_ms:.2f} ms "
            f"(this process, scheduling, storing and sealing: {main_ms:.2f}; the workers and "
            f"their bots, start-up included: {workers_ms:.2f}); ceiling/tournament "
            f"{ceiling.ms_per_call / spread_ms:.2f}"
        )
    print(
        f"games/s: bots that stay up {kept.games_per_second:.1f}, --fresh-bots "
        f"{runs[True].games_per_second:.1f} "
        f"(x{kept.games_per_second / runs[True].games_per_second:.1f}); load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"tournament tournament_decisions_per_s={kept.decisions_per_second:.0f} "
        f"protocol_decisions_per_s={protocol_rate:.0f} "
        f"ratio={kept.decisions_per_second / protocol_rate:.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("tournament", __doc__)
    parser.add_argument("--game", default="oregon")
    parser.add_argument("--concurrency", type=int, default=2, help="games (and matches) at once")
    parser.add_argument(
        "--deals",
        type=int,
        default=80,
        help="deals of the tournament (each played in both seatings): long enough that starting "
        "its bots weighs little, as the protocol's matches count only after their bots are "
        "started and warmed (20 deals, 40 games: R about 0.7 where 80 give about 0.9)",
    )
    parser.add_argument(
        "--worker-deals",
        type=int,
        default=100,
        help="deals of the all-cores run: long enough that starting the workers and their bots "
        "(seconds of CPU) weighs little, as the ceiling's start-up is not counted either",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=8,
        help="rounds of concurrent matches for the protocol measurement (each counts only "
        "while all its matches play, about 160 decisions: fewer rounds are noisy)",
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="worker processes for the all-cores run (1: skip it)"
    )
    parser.add_argument(
        "--seconds", type=float, default=4.0, help="length of the ceiling measurement"
    )
    parser.add_argument(
        "--sandbox",
        choices=("none", "bwrap"),
        default="none",
        help="how the tournament's bots are confined",
    )
    args = parser.parse_args(argv)
    trio.run(tournament, args)


if __name__ == "__main__":
    main()
