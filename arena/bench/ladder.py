"""Matchmaking against a round robin: how many games until the ranking is right.

    python -m arena.bench ladder [--bots 50] [--players 2] [--runs 10] [--spread 200]

A simulated ladder of ``--bots`` bots with known true strengths (drawn normal around 1500 with
sd ``--spread``) and a round robin between the same bots, each game's finishing order drawn
from the Plackett-Luce model of the true strengths (no processes). The ladder picks its pods
with the matchmaking of ``arena ladder`` (``arena.tournament.matchmaking``), rating the games so
far every round as ``arena ladder`` does; the round robin plays the arena's own schedule
(``build_schedule``: deal by deal, each deal once per seat rotation, pod by pod; or, with
``--robin-order rounds``, the same games in rounds, everyone at most once per round). Both play
``--limit`` games.

The measure is the same for both: after every ``--step`` games (the first k games of each, in
the order played) the ranking by the same batch fit (point ratings, no bootstrap) is compared
with the truth by Kendall tau. Over ``--runs`` seeds (a new truth each) two counts are given:
*mean curve*, the first checkpoint at which the seeds' mean tau reaches ``--tau``, and
*settled*, the mean over seeds of the first checkpoint from which a run's tau stays at or above
``--tau`` up to ``--limit`` (a run that never settles counts as ``--limit``, shown with ">=").
The mean 95% interval width (Laplace, no bootstrap) is taken at the mean curve's checkpoint.
The last line gives both counts for both and their ratios (ladder / round robin).
"""

from __future__ import annotations

import itertools
import os
import random
import statistics
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from scipy.stats import kendalltau

from arena.bench import bench_parser
from arena.tournament.matchmaking import Matchmaking, ratings, rotations
from arena.tournament.schedule import ScheduledGame, build_schedule
from leaderboard.batch import fit_batch
from leaderboard.elo import INITIAL_RATING
from leaderboard.results import GameResult, SeatResult
from leaderboard.synthetic import plackett_luce_ranking
from leaderboard.tally import FinishTally


def ranking_tau(games: Sequence[GameResult], truth: Mapping[str, float]) -> float:
    """Kendall tau between the truth and the batch fit's point ratings of ``games`` (a player
    without games, or outside the largest pool, stands at the prior's mean)."""
    fit = fit_batch(games, bootstrap=0) if games else {}
    players = sorted(truth)
    estimate = [fit[p].rating if p in fit and fit[p].pool == 1 else INITIAL_RATING for p in players]
    return float(kendalltau(estimate, [truth[p] for p in players]).statistic)


def mean_width(games: Sequence[GameResult]) -> float:
    """Mean 95% interval width (Laplace, no bootstrap) of the players of ``games``."""
    return statistics.fmean(r.high - r.low for r in fit_batch(games, bootstrap=0).values())


def seatings(seats: Sequence[str], group: str, truth: Mapping[str, float], rng: random.Random):
    order = plackett_luce_ranking(truth, tuple(seats), rng)
    return GameResult(
        tuple(SeatResult(p, order.index(p) + 1, float(len(seats) - order.index(p))) for p in seats),
        group_key=group,
    )


def ladder_games(
    truth: Mapping[str, float], matchmaking: Matchmaking, rng: random.Random
) -> Iterator[GameResult]:
    """The ladder's games, each pod's deal once per rotation of its seats; the matchmaking of
    each round sees the games before it, fitted as ``arena ladder`` fits them."""
    tally = FinishTally()
    for number in itertools.count():
        ranked = ratings(tally, truth)
        for pod in matchmaking.round(ranked, rng):
            for seats in rotations(pod):
                game = seatings(seats, f"{number}/{'+'.join(pod)}", truth, rng)
                tally.add(game)
                yield game


def in_rounds(games: Sequence[ScheduledGame], rng: random.Random) -> list[ScheduledGame]:
    """A round robin's games in rounds, each entrant in at most one pod per round (pods in a
    random order, each placed in the first round where its members are free): the check that
    ``build_schedule``'s order (pod by pod, the first entrants' games first) does not handicap
    the round robin at checkpoints short of a whole cycle. Measured: it does not (docs/ladder.md).
    """
    deals: dict[str, list[ScheduledGame]] = {}
    for game in games:
        deals.setdefault(f"{game.deal}/{game.pod}", []).append(game)
    pods = list(deals.values())
    rng.shuffle(pods)
    rounds: list[list[ScheduledGame]] = []
    busy: list[set[int]] = []
    for deal in pods:
        members = set(deal[0].seats)
        number = next((i for i, seated in enumerate(busy) if not members & seated), len(busy))
        if number == len(busy):
            rounds.append([])
            busy.append(set())
        rounds[number] += deal
        busy[number] |= members
    return [game for played in rounds for game in played]


def round_robin_games(
    truth: Mapping[str, float], players: int, rng: random.Random, order: str = "schedule"
) -> Iterator[GameResult]:
    """The round robin's games, a new schedule per cycle, in the arena's schedule order or in
    rounds (``order="rounds"``, ``in_rounds``)."""
    names = sorted(truth)
    for cycle in itertools.count(1):
        schedule = build_schedule(len(names), players, 1, rng.getrandbits(32))
        for scheduled in in_rounds(schedule, rng) if order == "rounds" else schedule:
            seats = [names[p] for p in scheduled.seats]
            yield seatings(seats, f"{cycle}/{scheduled.pod}", truth, rng)


@dataclass
class Run:
    """One seed's games and the tau of their ranking at every checkpoint."""

    games: list[GameResult]
    taus: list[float]
    seconds: float

    def settled(self, checkpoints: Sequence[int], tau: float) -> int | None:
        """The first checkpoint from which tau stays at or above ``tau``; None: never."""
        below = [k for k, t in zip(checkpoints, self.taus) if t < tau]
        if not below:
            return checkpoints[0]
        after = checkpoints.index(below[-1]) + 1
        return checkpoints[after] if after < len(checkpoints) else None


def measure(
    source: Iterator[GameResult], truth: Mapping[str, float], checkpoints: Sequence[int]
) -> Run:
    started = time.perf_counter()
    games = list(itertools.islice(source, checkpoints[-1]))
    taus = [ranking_tau(games[:k], truth) for k in checkpoints]
    return Run(games, taus, time.perf_counter() - started)


@dataclass
class Summary:
    """What the runs of one side (ladder or round robin) come to."""

    crossing: int | None  # first checkpoint where the mean tau over the runs reaches the target
    settled: float  # mean over runs of ``Run.settled`` (never: the limit)
    unsettled: int  # runs that never settled
    width: float  # mean interval width at ``crossing`` (or at the limit)

    @classmethod
    def of(cls, runs: Sequence[Run], checkpoints: Sequence[int], tau: float) -> Summary:
        means = [statistics.fmean(taus) for taus in zip(*(run.taus for run in runs))]
        crossing = next((k for k, t in zip(checkpoints, means) if t >= tau), None)
        settled = [run.settled(checkpoints, tau) for run in runs]
        at = crossing or checkpoints[-1]
        return cls(
            crossing,
            statistics.fmean(checkpoints[-1] if s is None else s for s in settled),
            sum(s is None for s in settled),
            statistics.fmean(mean_width(run.games[:at]) for run in runs),
        )

    def text(self, limit: int) -> str:
        crossing = f"{self.crossing}" if self.crossing else f">={limit}"
        settled = f"{'>=' if self.unsettled else ''}{self.settled:.0f}"
        return f"mean curve {crossing}, settled {settled} games (width {self.width:.0f})"


def main(argv: list[str] | None = None) -> None:
    parser = bench_parser("ladder", __doc__)
    parser.add_argument("--bots", type=int, default=50)
    parser.add_argument("--players", type=int, default=2, help="seats per game")
    parser.add_argument("--runs", type=int, default=10, help="seeds to average over")
    parser.add_argument("--spread", type=float, default=200.0, help="sd of the true strengths")
    parser.add_argument("--tau", type=float, default=0.9)
    parser.add_argument("--step", type=int, default=100, help="games between two checkpoints")
    parser.add_argument("--limit", type=int, default=6000, help="games per run")
    parser.add_argument(
        "--explore",
        type=float,
        default=Matchmaking(2).explore,
        help="the matchmaking's chance that an entrant is paired at random",
    )
    parser.add_argument(
        "--jitter",
        type=float,
        default=Matchmaking(2).jitter,
        help="the matchmaking's noise on each pod's gain (sd of its logarithm)",
    )
    parser.add_argument("--closeness", type=float, default=Matchmaking(2).closeness)
    parser.add_argument(
        "--exact-up-to",
        type=int,
        default=Matchmaking(2).exact_up_to,
        help="the matchmaking's exact gains up to this many entrants, local gains above",
    )
    parser.add_argument(
        "--near",
        type=int,
        default=Matchmaking(2).near,
        help="the matchmaking's local gains: the pairs within this many places",
    )
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument(
        "--robin-order",
        choices=["schedule", "rounds"],
        default="schedule",
        help="the round robin's games in the arena's schedule order (pod by pod; default) or in "
        "rounds (everyone plays once per round)",
    )
    args = parser.parse_args(argv)
    checkpoints = list(range(args.step, args.limit + 1, args.step))
    ladders, robins = [], []
    for seed in range(args.first_seed, args.first_seed + args.runs):
        rng = random.Random(seed)
        truth = {f"bot{i:02d}": rng.gauss(1500.0, args.spread) for i in range(args.bots)}
        matchmaking = Matchmaking(
            args.players,
            args.explore,
            args.jitter,
            args.closeness,
            exact_up_to=args.exact_up_to,
            near=args.near,
        )
        ladder = measure(ladder_games(truth, matchmaking, random.Random(seed)), truth, checkpoints)
        robin = measure(
            round_robin_games(truth, args.players, random.Random(seed), args.robin_order),
            truth,
            checkpoints,
        )
        ladders.append(ladder)
        robins.append(robin)
        print(
            f"seed {seed}: settled at tau {args.tau:g}: ladder "
            f"{ladder.settled(checkpoints, args.tau) or '-'} games ({ladder.seconds:.1f} s), "
            f"round robin {robin.settled(checkpoints, args.tau) or '-'} games "
            f"({robin.seconds:.1f} s)",
            flush=True,
        )
    ladder_sum = Summary.of(ladders, checkpoints, args.tau)
    robin_sum = Summary.of(robins, checkpoints, args.tau)
    print(f"checkpoint  mean tau: ladder  round robin (every {args.step} games)")
    for number, k in enumerate(checkpoints):
        if k <= 2 * max(ladder_sum.crossing or 0, robin_sum.crossing or 0) and k % 500 == 0:
            tau_l = statistics.fmean(run.taus[number] for run in ladders)
            tau_r = statistics.fmean(run.taus[number] for run in robins)
            print(f"{k:10d}  {tau_l:14.3f}  {tau_r:11.3f}")
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.bots} bots, "
        f"{args.players} seats, true strengths sd {args.spread:g}, {args.runs} runs "
        f"(seeds {args.first_seed}-{args.first_seed + args.runs - 1}), {args.limit} games each"
    )
    ratio = (
        f"{ladder_sum.crossing / robin_sum.crossing:.2f}"
        if ladder_sum.crossing and robin_sum.crossing
        else "-"
    )
    print(
        f"games to Kendall tau {args.tau:g}: ladder {ladder_sum.text(args.limit)}; "
        f"round robin {robin_sum.text(args.limit)}; ratio ladder / round robin: mean curve "
        f"{ratio}, settled {ladder_sum.settled / robin_sum.settled:.2f}"
    )


if __name__ == "__main__":
    main()
