"""Matchmaking against a round robin: how many games until the ranking is right.

    python -m arena.bench ladder [--bots 50] [--players 2] [--runs 5] [--spread 200]

A simulated ladder of ``--bots`` bots with known true strengths (drawn normal around 1500 with
sd ``--spread``) and a round robin between the same bots, each game's finishing order drawn
from the Plackett-Luce model of the true strengths (no processes). The ladder picks its pods
with the matchmaking of ``arena ladder`` (``arena.tournament.matchmaking``), rating the games so
far every round; the round robin plays the arena's own schedule (``build_schedule``: deal by
deal, pod by pod, each deal once per seat rotation). After every round (the ladder) or
``--step`` games (the round robin) each is ranked by the batch fit; the count is the first at
which the ranking's Kendall tau with the truth reaches ``--tau``. The mean 95% interval width
(the leaderboard's fit, bootstrap included) is taken at that point. Means over ``--runs``
seeds; the last line gives both counts and their ratio (ladder / round robin).
"""

from __future__ import annotations

import itertools
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial

from arena.bench import bench_parser
from arena.tournament.matchmaking import Matchmaking, Standing, rotations, standings
from arena.tournament.schedule import build_schedule
from leaderboard.batch import fit_batch
from leaderboard.results import GameResult, SeatResult
from leaderboard.synthetic import plackett_luce_ranking


def kendall_tau(estimate: Mapping[str, float], truth: Mapping[str, float]) -> float:
    """Kendall's tau-a between two scorings of the same players."""
    players = sorted(truth)
    agree = 0
    for a, b in itertools.combinations(players, 2):
        sign = (estimate[a] - estimate[b]) * (truth[a] - truth[b])
        agree += (sign > 0) - (sign < 0)
    return agree / (len(players) * (len(players) - 1) / 2)


def point_ratings(games: Sequence[GameResult]) -> dict[str, float]:
    return {player: rating.rating for player, rating in fit_batch(games, bootstrap=0).items()}


def play(pod: Sequence[str], group: str, truth: Mapping[str, float], rng: random.Random):
    """The games of one pod on one deal, once per rotation of its seats."""
    for seats in rotations(tuple(pod)):
        order = plackett_luce_ranking(truth, seats, rng)
        yield GameResult(
            tuple(
                SeatResult(p, order.index(p) + 1, float(len(seats) - order.index(p))) for p in seats
            ),
            group_key=group,
        )


def played_ratings(ranked: Sequence[Standing]) -> dict[str, float]:
    """The ratings of the players with games among ``ranked``."""
    return {s.player: s.rating for s in ranked if s.games}


def ladder_games(
    truth: Mapping[str, float], matchmaking: Matchmaking, rng: random.Random
) -> Iterator[tuple[list[GameResult], Callable[[], dict[str, float]]]]:
    """The ladder's games, a round at a time, with how the games so far rate the players (the
    fit the next round's matchmaking uses: one fit per round)."""
    games: list[GameResult] = []
    ranked = standings(games, truth)
    for number in itertools.count():
        for pod in matchmaking.round(ranked, rng):
            games.extend(play(pod, f"{number}/{'+'.join(pod)}", truth, rng))
        ranked = standings(games, truth)
        yield games, partial(played_ratings, ranked)


def round_robin_games(
    truth: Mapping[str, float], players: int, rng: random.Random, step: int
) -> Iterator[tuple[list[GameResult], Callable[[], dict[str, float]]]]:
    """The round robin's games in the arena's schedule order, ``step`` more at a time."""
    names = sorted(truth)
    games: list[GameResult] = []
    for deals in itertools.count(1):
        for scheduled in build_schedule(len(names), players, 1, rng.getrandbits(32)):
            order = plackett_luce_ranking(truth, tuple(names[p] for p in scheduled.seats), rng)
            seats = [names[p] for p in scheduled.seats]
            games.append(
                GameResult(
                    tuple(
                        SeatResult(p, order.index(p) + 1, float(players - order.index(p)))
                        for p in seats
                    ),
                    group_key=f"{deals}/{scheduled.pod}",
                )
            )
            if len(games) % step == 0:
                yield games, lambda: point_ratings(games)


@dataclass
class Reached:
    games: int
    width: float  # mean 95% interval width at that point
    seconds: float


def games_to_tau(
    source: Iterator[tuple[list[GameResult], Callable[[], dict[str, float]]]],
    truth: Mapping[str, float],
    tau: float,
    limit: int,
) -> Reached:
    started = time.perf_counter()
    for games, ratings in source:
        rated = ratings()
        if len(rated) == len(truth) and kendall_tau(rated, truth) >= tau or len(games) >= limit:
            fit = fit_batch(games)
            width = statistics.fmean(rating.high - rating.low for rating in fit.values())
            return Reached(len(games), width, time.perf_counter() - started)
    raise AssertionError("the sources never end")


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("ladder", __doc__)
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--players", type=int, default=2, help="seats per game")
    parser.add_argument("--runs", type=int, default=5, help="seeds to average over")
    parser.add_argument("--spread", type=float, default=200.0, help="sd of the true strengths")
    parser.add_argument("--tau", type=float, default=0.9)
    parser.add_argument(
        "--step", type=int, default=100, help="round robin games between two rankings"
    )
    parser.add_argument(
        "--closeness",
        type=float,
        default=Matchmaking(2).closeness,
        help="the matchmaking's closeness (Elo) for the simulated ladder",
    )
    parser.add_argument("--limit", type=int, default=100_000, help="games at most per run")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    ladders, robins = [], []
    for seed in range(args.first_seed, args.first_seed + args.runs):
        rng = random.Random(seed)
        truth = {f"bot{i:02d}": rng.gauss(1500.0, args.spread) for i in range(args.bots)}
        ladder = games_to_tau(
            ladder_games(
                truth,
                Matchmaking(args.players, closeness=args.closeness),
                random.Random(seed),
            ),
            truth,
            args.tau,
            args.limit,
        )
        robin = games_to_tau(
            round_robin_games(truth, args.players, random.Random(seed), args.step),
            truth,
            args.tau,
            args.limit,
        )
        print(
            f"seed {seed}: ladder {ladder.games} games (width {ladder.width:.0f}, "
            f"{ladder.seconds:.1f} s), round robin {robin.games} games "
            f"(width {robin.width:.0f}, {robin.seconds:.1f} s)",
            flush=True,
        )
        ladders.append(ladder)
        robins.append(robin)
    ladder_games_mean = statistics.fmean(r.games for r in ladders)
    robin_games_mean = statistics.fmean(r.games for r in robins)
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.bots} bots, "
        f"{args.players} seats, true strengths sd {args.spread:g}, {args.runs} runs"
    )
    print(
        f"games to Kendall tau {args.tau:g}: ladder {ladder_games_mean:.0f} "
        f"(mean interval width {statistics.fmean(r.width for r in ladders):.0f}), "
        f"round robin {robin_games_mean:.0f} "
        f"(mean interval width {statistics.fmean(r.width for r in robins):.0f}), "
        f"ratio {ladder_games_mean / robin_games_mean:.2f}"
    )


if __name__ == "__main__":
    main()
