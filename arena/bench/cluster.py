"""Ray benchmark: one tournament on a Ray cluster of one node, then of two.

    python -m arena.bench cluster [--game oregon] [--concurrency 4] [--deals 20] [--no-pin]

Starts its own Ray cluster on this machine (``arena.bench.local_ray``; needs the ray extra):
a head node, which plays a round robin of random-python against random-node as
``arena tournament --ray`` plays it (``--concurrency`` game slots, one Ray actor each, bots that
stay up, unconfined as in the other benchmarks); then a second node joins and the same tournament
(same seed, a fresh database) is played again. Each node is pinned to its half of this machine's
cores (``--no-pin``: not), so the two nodes behave as two machines of half this one's size and
the second node brings cores the first did not have; this process, which records the games, is
not pinned. With ``--no-pin`` each slot's actor claims a core of the machine (``--pin-cpus``,
the default of ``arena tournament``), and the two nodes play a third time without
(``--no-pin-cpus``). Every node has one Ray CPU per core and each slot reserves its share of
one node.

The last line: ``cluster one_node_games_per_s=... two_nodes_games_per_s=... speedup=S``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import trio

from arena.bench import bench_parser
from arena.bench.local_ray import LocalCluster
from arena.bench.tournament import TournamentRun, run_one_tournament
from arena.sandbox import SandboxPolicy
from arena.tournament import ray_backend
from arena.tournament.settings import TournamentSettings

_JOIN_SECONDS = 60.0


def _halves(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """The cores of the head and of the second node (None: not pinned)."""
    cores = sorted(os.sched_getaffinity(0))
    if not pin or len(cores) < 2:
        return None, None
    half = len(cores) // 2
    return set(cores[:half]), set(cores[half:])


def _wait_for_nodes(cluster: ray_backend.RayCluster, count: int) -> None:
    deadline = time.monotonic() + _JOIN_SECONDS
    while len(cluster.nodes()) < count:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the Ray cluster did not reach {count} nodes")
        time.sleep(0.2)


def _play(
    args: argparse.Namespace, cluster: ray_backend.RayCluster, pin_cpus: bool = True
) -> TournamentRun:
    settings = TournamentSettings(
        players=2,
        deals=args.deals,
        concurrency=args.concurrency,
        move_time=5.0,
        sandbox=SandboxPolicy(tool=args.sandbox),
    )
    cluster.games_by_node.clear()
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as directory:
        db = Path(directory) / "arena.db"
        return trio.run(run_one_tournament, db, args.game, settings, 12345, 1, cluster, pin_cpus)


def _report(label: str, run: TournamentRun, cluster: ray_backend.RayCluster) -> None:
    print(
        f"{label}: {run.games} games in {run.seconds:.1f} s: {run.games_per_second:.2f} "
        f"games/s, {run.decisions_per_second:.0f} decisions/s; {cluster.played()}"
    )


def measure(args: argparse.Namespace) -> None:
    head_cores, second_cores = _halves(args.pin)
    local = LocalCluster()
    try:
        local.start(cores=head_cores)
        node_cpus = len(head_cores) if head_cores else 1
        # Every slot fits on the head alone: the one-node run plays all of them there.
        cluster = ray_backend.connect(local.address, actor_cpus=node_cpus / args.concurrency)
        try:
            one = _play(args, cluster)
            _report("1 node", one, cluster)
            local.start_second_node(cores=second_cores)
            _wait_for_nodes(cluster, 2)
            two = _play(args, cluster)
            _report("2 nodes", two, cluster)
            if not args.pin:  # nodes free: each actor claims a core of the machine, or not
                _report("2 nodes, --no-pin-cpus", _play(args, cluster, False), cluster)
        finally:
            cluster.close()
    finally:
        local.stop()
    pinned = (
        f"head on cores {sorted(head_cores)}, second node on {sorted(second_cores or ())}"
        if head_cores
        else "nodes not pinned"
    )
    print(
        f"{args.concurrency} game slots, {pinned}; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    print(
        f"cluster one_node_games_per_s={one.games_per_second:.2f} "
        f"two_nodes_games_per_s={two.games_per_second:.2f} "
        f"speedup={two.games_per_second / one.games_per_second:.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("cluster", __doc__)
    parser.add_argument("--game", default="oregon")
    parser.add_argument("--concurrency", type=int, default=4, help="game slots (Ray actors)")
    parser.add_argument(
        "--deals", type=int, default=20, help="deals of the tournament (each in both seatings)"
    )
    parser.add_argument(
        "--no-pin",
        dest="pin",
        action="store_false",
        help="do not pin each node to its half of the machine's cores",
    )
    parser.add_argument(
        "--sandbox",
        choices=("none", "bwrap"),
        default="none",
        help="how the tournament's bots are confined",
    )
    measure(parser.parse_args(argv))


if __name__ == "__main__":
    main()
