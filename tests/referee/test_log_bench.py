"""``python -m arena.bench logs`` runs and prints its three figures."""

from __future__ import annotations

from tests.support.bench import run_bench


def test_logs_bench_prints_the_straight_kept_and_dropped_figures():
    straight, kept, dropped = run_bench("logs", "--mib", "4", "--runs", "1", timeout=120)
    assert straight.startswith("writer straight into a file: 4 MiB in ")
    assert kept.startswith("through the sink, kept (under the cap): 4 MiB in ")
    assert dropped.startswith("through the sink, dropped (past a 1 MiB cap): 4 MiB in ")
    assert all("referee CPU" in line for line in (kept, dropped))
