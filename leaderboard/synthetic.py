"""Synthetic results from known strengths (for the benchmarks, the coverage script and the tests).

Round robins: every game's ranking is drawn from the Plackett-Luce model: seats are picked
best-first with probability proportional to 10 ** (rating / 400). Its pairwise marginals are
exactly Bradley-Terry on the Elo scale, so the batch fit must recover the ratings.

SPRT: pentanomial pair results of a known Elo difference, and whole simulated tests.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping

import numpy as np

from leaderboard.results import GameResult, SeatResult
from leaderboard.sprt import llr_bounds, log_likelihood_ratio

SPRT_BLOCK = 256  # pairs simulated at once for every run still going


def plackett_luce_ranking(
    strengths: Mapping[str, float], players: tuple[str, ...], rng: random.Random
) -> list[str]:
    remaining = list(players)
    order: list[str] = []
    while remaining:
        weights = [10.0 ** (strengths[player] / 400.0) for player in remaining]
        pick = rng.choices(remaining, weights)[0]
        order.append(pick)
        remaining.remove(pick)
    return order


def round_robin(
    strengths: Mapping[str, float], seats: int, games: int, seed: int = 0, deal_luck: float = 0.0
) -> list[GameResult]:
    """``games`` games cycling over every pod of ``seats`` players, like a tournament: each run of
    ``seats`` consecutive games (a deal and its rotations) is one pod and one bootstrap group.
    Scores are seats - rank.

    ``deal_luck`` (0 to 1): the deal favours some seats, as a real deal does. A Plackett-Luce
    order is the order of ``strength + Gumbel noise`` (natural units); each seat of each game
    keeps its deal's noise with this probability (else a fresh draw), and the rotations move the
    players through the seats. Every game alone is still an exact Plackett-Luce draw, so the
    strengths stay the truth; only games of one deal are correlated."""
    rng = random.Random(seed)
    pods = list(itertools.combinations(sorted(strengths), seats))
    results: list[GameResult] = []
    seat_luck: list[float] = []
    for number in range(games):
        deal, rotation = divmod(number, seats)
        pod = pods[deal % len(pods)]
        if deal_luck:
            if rotation == 0:
                seat_luck = [_gumbel(rng) for _ in range(seats)]
            seated = [pod[(seat + rotation) % seats] for seat in range(seats)]
            noise = [luck if rng.random() < deal_luck else _gumbel(rng) for luck in seat_luck]
            key = {p: strengths[p] * math.log(10.0) / 400.0 + g for p, g in zip(seated, noise)}
            order = sorted(pod, key=lambda p: -key[p])
        else:
            order = plackett_luce_ranking(strengths, pod, rng)
        results.append(
            GameResult(
                tuple(
                    SeatResult(p, order.index(p) + 1, float(seats - order.index(p))) for p in pod
                ),
                group_key=f"{'+'.join(pod)}/{deal}",
            )
        )
    return results


def _gumbel(rng: random.Random) -> float:
    return -math.log(-math.log(1.0 - rng.random()))


def pair_probabilities(
    elo: float, draw_ratio: float = 0.0, seat_decides: float = 0.0
) -> tuple[float, float, float, float, float]:
    """Pentanomial distribution of NEW's points (0, 1/2, 1, 3/2, 2) over a pair of games (one deal,
    seats swapped) when NEW is ``elo`` logistic Elo points stronger: its expected score per game is
    exactly ``1 / (1 + 10 ** (-elo / 400))``.

    A share ``seat_decides`` of the deals is so lopsided that the favoured seat wins both games
    (the pair ends 1-1); in the other deals the two games are independent, each drawn with
    probability ``draw_ratio``, with the win probability that keeps the overall expected score."""
    score = 1.0 / (1.0 + 10.0 ** (-elo / 400.0))
    other = (score - seat_decides / 2.0) / (1.0 - seat_decides)  # expected score off such deals
    win, draw = other - draw_ratio / 2.0, draw_ratio
    loss = 1.0 - win - draw
    if min(win, loss) < 0.0:
        raise ValueError(f"no such distribution: elo {elo}, draw ratio {draw_ratio}")
    game = (loss, draw, win)
    pair = [0.0] * 5
    for first, p in enumerate(game):
        for second, q in enumerate(game):
            pair[first + second] += (1.0 - seat_decides) * p * q
    pair[2] += seat_decides
    return (pair[0], pair[1], pair[2], pair[3], pair[4])


def simulate_sprt(
    probabilities: tuple[float, ...],
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    runs: int,
    max_pairs: int,
    seed: int = 0,
) -> tuple[list[str], list[int]]:
    """Run ``runs`` SPRTs on pairs drawn from ``probabilities``, each until a decision or
    ``max_pairs`` pairs: (decision "H0", "H1" or "continue", pairs played) per run.

    The LLR after every pair is computed (``leaderboard.sprt.log_likelihood_ratio``), vectorised
    over the runs still going, a block of pairs at a time."""
    rng = np.random.default_rng(seed)
    lower, upper = llr_bounds(alpha, beta)
    decisions = ["continue"] * runs
    lengths = [max_pairs] * runs
    going = np.arange(runs)
    counts = np.zeros((runs, 5), dtype=np.int64)
    for start in range(0, max_pairs, SPRT_BLOCK):
        block = min(SPRT_BLOCK, max_pairs - start)
        outcomes = rng.choice(5, size=(going.size, block), p=np.asarray(probabilities))
        path = counts[going, None, :] + np.cumsum(np.eye(5, dtype=np.int64)[outcomes], axis=1)
        llr = log_likelihood_ratio(path, elo0, elo1)
        decided = (llr >= upper) | (llr <= lower)
        for row, run in enumerate(going):
            stops = np.flatnonzero(decided[row])
            if stops.size:
                decisions[run] = "H1" if llr[row, stops[0]] >= upper else "H0"
                lengths[run] = start + int(stops[0]) + 1
        counts[going] = path[:, -1]
        going = going[~decided.any(axis=1)]
        if not going.size:
            break
    return decisions, lengths
