"""Protocol benchmark: what the referee adds to a bare gRPC round trip, and how fast bots start.

    python -m arena.bench protocol [--game oregon] [--players 4] [--matches 20]

Measures, with the real sample bots over the referee's own transport (Unix sockets):
* start-to-ready: bot process start until it answers the handshake (random-python, random-node),
  unconfined and, where bubblewrap works, in the sandbox (``arena.sandbox``) as matches run them;
* aggregate decisions/s with ``--concurrent`` matches at once (default 8), counted while all of
  them are playing (each in a game slot with bots that stay up, as tournaments and ladders play
  by default, warmed by a game; then all begin together), with the CPU a decision costs the
  referee and the bots, next to two bounds measured on the same bots: the referee's transport
  alone (a thread per match sending ready-made requests through the referee's client, no
  engine, no encoding) and a ceiling no Python
  referee can pass (one blocking client *process* per match calling its bots in turn: no trio, no
  engine, no shared interpreter lock);
* the same matches in ``--workers`` worker processes (``arena tournament --workers``), each worker
  with its bots kept to its own share of the cores (``--pin-cpus``, the default) and again left
  to the scheduler (``--no-pin-cpus``), next to the ceiling with each client process and its bots
  kept to a share of the cores alike;
* (a) a bare grpcio unary Decide round trip from a blocking client, cycling through the decision
  requests of a whole random game, against the random-python bot (and, for comparison, against
  ``--players`` such bots in turn, as in a match, and through the referee's client);
* the engine's and the request encoding's CPU time per decision, in process, for every game, with
  the previous encoder (``arena.wire.reference``) measured on the same decisions;
* (b) the referee's time per decision in sequential matches of random-python bots (engine step,
  view and action encoding, the call from the match's decision thread, the bot's reply),
  measured in rounds that alternate with (a)'s (``--ratio-rounds``), and the ratio b / a, which
  the last line prints, with the concurrent matches' rates (in one process, in pinned workers)
  against the ceilings', and, from the same rounds, the bare round trip to ``--players`` bots in
  turn over (a): the ratio b / a of a referee that cost nothing (a match calls its bots in turn,
  and a bot called once in four answers more slowly than one called every time).
"""

from __future__ import annotations

import argparse
import os
import statistics

import trio

from arena.bench import bench_parser
from arena.bench.bots import SAMPLE_BOTS, start_to_ready, typical_requests
from arena.bench.clients import (
    bare_round_trip,
    ceiling_throughput,
    client_round_trip,
    transport_throughput,
)
from arena.bench.encoding import engine_and_encoding
from arena.bench.matches import backend_throughput, concurrent_throughput, referee_per_decision
from arena.manifest import load_manifest
from arena.sandbox import SandboxPolicy, bwrap_problem
from engine.registry import game_names, get_game


async def protocol(args: argparse.Namespace) -> None:
    us = 1e6
    # First, before any bot process runs: processes the bench started (a worker, bots) that are
    # still ending use the cores and their caches, and a Merkator request measured 60 us after
    # them against 25 us alone (December 6).
    for game in game_names():
        engine = get_game(game)
        players = min(max(args.players, engine.min_players), engine.max_players)
        cost = engine_and_encoding(
            game, players, games=args.encoding_games, warm_up=args.encoding_games
        )
        print(
            f"in process, CPU per decision of {players}-player {game}: engine "
            f"{cost.engine * us:.0f} us, request encoding {cost.encoding * us:.0f} us "
            f"(the previous encoder {cost.previous_encoding * us:.0f} us, "
            f"x{cost.previous_encoding / cost.encoding:.1f})"
        )
    python_bot = load_manifest(SAMPLE_BOTS / "random-python")
    node_bot = load_manifest(SAMPLE_BOTS / "random-node")
    sandboxes: list[tuple[SandboxPolicy | None, str]] = [(None, "")]
    if bwrap_problem() is None:
        sandboxes.append((SandboxPolicy(), " (sandboxed)"))
    for spec in (python_bot, node_bot):
        # Starts with and without the sandbox alternate, so that a busy machine slows both alike:
        # the sandbox's cost is the difference.
        samples: dict[str, tuple[list[float], list[float]]] = {
            label: ([], []) for _, label in sandboxes
        }
        for _ in range(args.starts):
            for sandbox, label in sandboxes:
                seconds, cpu = await start_to_ready(spec, args.game, 1, sandbox)
                samples[label][0].extend(seconds)
                samples[label][1].extend(cpu)
        for label, (seconds, cpu) in samples.items():
            print(
                f"start-to-ready {spec.name}{label}: median "
                f"{statistics.median(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms "
                f"over {len(seconds)} starts; the bot's CPU time to ready: median "
                f"{statistics.median(cpu) * 1000:.0f} ms"
            )
    requests = typical_requests(args.game, args.players, seed=12345)
    print(
        f"typical {args.game} decision request: "
        f"{statistics.mean(map(len, requests)):.0f} bytes on average, "
        f"{len(requests)} requests of one {args.players}-player game"
    )

    matches = await concurrent_throughput(
        [python_bot] * args.players, args.game, args.concurrent, args.rounds
    )
    rate = matches.decisions_per_second
    print(
        f"{args.concurrent} concurrent {args.game} matches ({args.players} random-python bots "
        f"each, kept up): {rate:.0f} decisions/s ({matches.counted} decisions while all were "
        f"playing); CPU per decision: referee {matches.referee_ms_per_decision * 1000:.0f} us, "
        f"bots {matches.bots_ms_per_decision * 1000:.0f} us"
    )
    transport = await transport_throughput(
        python_bot, args.game, requests, args.players, args.concurrent, args.seconds
    )
    print(
        f"  the referee's transport alone (a thread per match, its own bots, ready-made "
        f"requests): "
        f"{transport:.0f} calls/s"
    )
    ceiling = await ceiling_throughput(
        [python_bot] * args.players, args.game, requests, args.concurrent, args.seconds
    )
    print(
        f"  ceiling: {args.concurrent} blocking client processes, no referee: "
        f"{ceiling.calls_per_second:.0f} calls/s; CPU per call: clients "
        f"{ceiling.client_ms_per_call * 1000:.0f} us, bots {ceiling.bots_ms_per_call * 1000:.0f} us"
    )

    spread = {
        pin: await backend_throughput(
            [python_bot] * args.players,
            args.game,
            args.concurrent,
            args.slot_games,
            args.workers,
            pin,
        )
        for pin in (True, False)
    }
    pinned_ceiling = await ceiling_throughput(
        [python_bot] * args.players,
        args.game,
        requests,
        args.concurrent,
        args.seconds,
        pinned=args.workers,
    )
    print(
        f"the same {args.concurrent} matches in {args.workers} worker processes (arena "
        f"tournament --workers {args.workers}, {args.slot_games} games per slot): "
        f"{spread[True]:.0f} decisions/s, each worker and its bots on its own share of the "
        f"cores (--pin-cpus, the default); {spread[False]:.0f} with --no-pin-cpus"
    )
    print(
        f"  ceiling with each client process and its bots kept to a share of the cores as the "
        f"workers are: {pinned_ceiling.calls_per_second:.0f} calls/s; CPU per call: clients "
        f"{pinned_ceiling.client_ms_per_call * 1000:.0f} us, bots "
        f"{pinned_ceiling.bots_ms_per_call * 1000:.0f} us"
    )

    rotating, rotating_cpu = await bare_round_trip(
        python_bot, args.game, requests, args.calls, bots=args.players
    )
    through_client, client_cpu = await client_round_trip(
        python_bot, args.game, requests, args.calls, bots=args.players
    )
    print(
        f"round trip, {args.players} bot processes in turn as in a match: bare "
        f"{rotating * us:.0f} us ({rotating_cpu * us:.0f} us of CPU), through the referee's "
        f"client {through_client * us:.0f} us ({client_cpu * us:.0f} us of CPU)"
    )
    # (a) and (b) in alternating rounds, so that a change of the machine's load between them
    # (other work on its shared cores) weighs on both alike; and in the same rounds the bare
    # round trip to --players bots in turn, as a match calls them: what b / a cannot go below
    # with a referee that costs nothing
    bares, in_turns, referees, referee_cpus = [], [], [], []
    rounds = max(1, min(args.ratio_rounds, args.matches))
    for round_number in range(rounds):
        calls = max(1, args.calls // rounds)
        bare_round, _ = await bare_round_trip(python_bot, args.game, requests, calls, bots=1)
        in_turn_round, _ = await bare_round_trip(
            python_bot, args.game, requests, calls, bots=args.players
        )
        matches_per_round = args.matches // rounds
        referee_round, cpu_round = await referee_per_decision(
            python_bot, args.game, args.players, matches_per_round, round_number * matches_per_round
        )
        bares.append(bare_round)
        in_turns.append(in_turn_round)
        referees.append(referee_round)
        referee_cpus.append(cpu_round)
    bare, referee = statistics.mean(bares), statistics.mean(referees)
    in_turn = statistics.mean(in_turns)
    ratios = [b / a for a, b in zip(bares, referees, strict=True)]
    print(
        f"(a) bare round trip to 1 bot / (b) referee time per decision, in {rounds} "
        f"alternating rounds: {bare * us:.0f} / {referee * us:.0f} us (rounds' ratios "
        f"{min(ratios):.2f}-{max(ratios):.2f}); referee CPU time per decision (all its threads): "
        f"{statistics.mean(referee_cpus) * us:.0f} us; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores"
    )
    print(
        f"  in the same rounds, a bare round trip to {args.players} bots in turn: "
        f"{in_turn * us:.0f} us, {in_turn / bare:.2f} of (a): b / a with a referee that cost "
        f"nothing; the referee's own time per decision, b minus that: "
        f"{(referee - in_turn) * us:.0f} us ({(referee - in_turn) / bare:.2f} of (a))"
    )
    print(
        f"protocol bare_grpc_round_trip_us={bare * us:.0f} "
        f"referee_per_decision_us={referee * us:.0f} ratio={referee / bare:.2f} "
        f"matches_per_s={rate:.0f} ceiling_per_s={ceiling.calls_per_second:.0f} "
        f"matches_over_ceiling={rate / ceiling.calls_per_second:.2f} "
        f"workers_per_s={spread[True]:.0f} "
        f"workers_over_ceiling={spread[True] / ceiling.calls_per_second:.2f} "
        f"workers_over_pinned_ceiling={spread[True] / pinned_ceiling.calls_per_second:.2f} "
        f"bots_in_turn_over_bare={in_turn / bare:.2f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("protocol", __doc__)
    parser.add_argument("--game", default="oregon")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--matches", type=int, default=20, help="sequential matches for (b)")
    parser.add_argument("--calls", type=int, default=3000, help="round trips for (a)")
    parser.add_argument(
        "--ratio-rounds",
        type=int,
        default=4,
        help="rounds that alternate (a) and (b), each with its share of --calls and --matches",
    )
    parser.add_argument("--concurrent", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of concurrent matches")
    parser.add_argument(
        "--workers", type=int, default=2, help="worker processes for the matches in workers"
    )
    parser.add_argument(
        "--slot-games",
        type=int,
        default=10,
        help="games per slot for the matches in workers (timed to the last: the tail counts)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=4.0,
        help="length of the transport and ceiling throughput runs",
    )
    parser.add_argument("--starts", type=int, default=10, help="bot starts per sample bot")
    parser.add_argument(
        "--encoding-games",
        type=int,
        default=20,
        help="random games per game type for the in-process encoding measurement (after as "
        "many unmeasured ones, which fill the caches)",
    )
    args = parser.parse_args(argv)
    trio.run(protocol, args)
