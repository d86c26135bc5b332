"""The matchmaking benchmark's measure (``arena.bench.ladder``): when a run's ranking settles."""

from arena.bench.ladder import Run, Summary

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
