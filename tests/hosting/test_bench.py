"""``python -m arena.bench hosting`` runs and prints the token check's cost last."""

from __future__ import annotations

import pytest

from tests.support.bench import run_bench


@pytest.mark.slow
def test_hosting_bench_prints_the_token_checks_cost_last():
    lines = run_bench("hosting", "--runs", "1", timeout=300)
    assert lines[0].startswith("judge search-python's archive")
    assert lines[1].startswith("refuse a zip bomb")
    assert lines[2].startswith("rate limit on SQLite: a request counted")
    assert lines[-1].startswith("token check (sha256): ")
