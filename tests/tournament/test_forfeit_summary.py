"""A tournament's summary says why a bot forfeited, not only how often ("CRASH 2"), and so does
``arena history``: the operator sees the reason where the count is."""

from __future__ import annotations

from pathlib import Path

from tests.support.bots import SAMPLE_BOTS, TEST_BOTS
from tests.tournament.helpers import run_cli


def test_the_summary_and_the_history_give_each_forfeiting_bots_reason(tmp_path: Path):
    db = tmp_path / "arena.db"
    bots = f"{TEST_BOTS / 'raise'},{SAMPLE_BOTS / 'random-python'}"
    ran = run_cli(
        "tournament", "--game", "oregon", "--bots", bots, "--deals", "1", "--name", "t",
        "--sandbox", "none", "--db", str(db),
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    summary = ran.stdout[ran.stdout.index("forfeits (the first of each bot):") :].splitlines()
    assert summary[3] == "tournament 't' finished: 2 games", summary  # one bot forfeited
    assert summary[1].startswith("  raise 1.0.0: 2 games, first game ")
    assert "CRASH" in summary[1] and "misbehave: raising on purpose" in summary[1]
    assert "random-python" not in "\n".join(summary)
    assert summary[2] == "  (every one: arena history --tournament t)"

    history = run_cli("history", "--tournament", "t", "--db", str(db))
    assert history.exit_code == 0, history.output
    reasons = [line for line in history.stdout.splitlines() if line.startswith("game ")]
    assert len(reasons) == 2 and all("raise CRASH: " in line for line in reasons), reasons
    assert all("misbehave: raising on purpose" in line for line in reasons)
