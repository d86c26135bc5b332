"""``python -m arena.bench logs`` runs and prints its three figures."""

from __future__ import annotations

import subprocess
import sys

from tests.support.bots import ROOT


def test_logs_bench_prints_the_straight_kept_and_dropped_figures():
    done = subprocess.run(
        [sys.executable, "-m", "arena.bench", "logs", "--mib", "4", "--runs", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    straight, kept, dropped = done.stdout.splitlines()
    assert straight.startswith("writer straight into a file: 4 MiB in ")
    assert kept.startswith("through the sink, kept (under the cap): 4 MiB in ")
    assert dropped.startswith("through the sink, dropped (past a 1 MiB cap): 4 MiB in ")
    assert all("referee CPU" in line for line in (kept, dropped))
