"""The matchmaking benchmark's measure (``arena.bench.ladder``): when a run's ranking settles, and
the round robin played in rounds (the check of its order)."""

import random
from collections import Counter

from arena.bench.ladder import Run, Summary, in_rounds
from arena.tournament.schedule import build_schedule

CHECKPOINTS = [100, 200, 300, 400]


def test_a_run_settles_at_the_first_checkpoint_from_which_tau_stays_above_the_target():
    assert Run([], [0.5, 0.95, 0.85, 0.92], 0.0).settled(CHECKPOINTS, 0.9) == 400
    assert Run([], [0.91, 0.95, 0.93, 0.92], 0.0).settled(CHECKPOINTS, 0.9) == 100
    assert Run([], [0.5, 0.95, 0.93, 0.85], 0.0).settled(CHECKPOINTS, 0.9) is None


def test_the_mean_curve_crosses_where_the_runs_average_reaches_the_target(monkeypatch):
    monkeypatch.setattr("arena.bench.ladder.mean_width", lambda games: 10.0)
    runs = [Run([], [0.5, 0.95, 0.85, 0.92], 0.0), Run([], [0.7, 0.8, 0.97, 0.5], 0.0)]
    summary = Summary.of(runs, CHECKPOINTS, 0.9)
    assert summary.crossing == 300  # means 0.6, 0.875, 0.91, 0.71
    assert summary.settled == 400  # 400, and never (counted as the limit, 400)
    assert summary.unsettled == 1


def test_the_round_robin_in_rounds_plays_the_same_games_everyone_once_a_round():
    schedule = build_schedule(8, 2, 1, 5)
    ordered = in_rounds(schedule, random.Random(3))
    assert sorted(game.key for game in ordered) == sorted(game.key for game in schedule)
    pods = [ordered[i].seats for i in range(0, len(ordered), 2)]  # a deal: its two rotations
    assert all(ordered[i].pod == ordered[i + 1].pod for i in range(0, len(ordered), 2))
    # the first 8 / 2 pods seat everyone once (then the next round)
    assert sorted(p for pod in pods[:4] for p in pod) == list(range(8))
    seen = Counter(p for pod in pods[: len(pods) // 2] for p in pod)
    assert max(seen.values()) - min(seen.values()) <= 2  # half-way, near-equal games
