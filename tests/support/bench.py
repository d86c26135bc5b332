"""Running a benchmark of README.md end to end, as its user does (tiny sizes; no timing)."""

from __future__ import annotations

import subprocess
import sys

from tests.support.bots import ROOT


def run_bench(*args: str, timeout: float) -> list[str]:
    """The output lines of ``python -m arena.bench ARGS``, which must succeed."""
    run = subprocess.run(
        [sys.executable, "-m", "arena.bench", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip().splitlines()
