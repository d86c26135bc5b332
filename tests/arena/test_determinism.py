"""The same seed with the same seeded bots gives the same game, through play_match and through
the ``arena match`` command."""

import subprocess
import sys
from pathlib import Path

from arena.match import play_match
from tests.arena.conftest import ROOT, SAMPLE_BOTS, sample_bot

ARENA = Path(sys.executable).parent / "arena"


async def test_play_match_is_deterministic_for_a_fixed_seed():
    bots = [sample_bot("random-python"), sample_bot("random-node")]
    first = await play_match("oregon", bots, seed=77)
    second = await play_match("oregon", bots, seed=77)
    other = await play_match("oregon", bots, seed=78)
    assert first.actions == second.actions
    assert [s.score for s in first.seats] == [s.score for s in second.seats]
    assert other.actions != first.actions


def result_rows(stdout: str) -> list[str]:
    """The table's seat, bot, score, rank and outcome columns (time used varies)."""
    rows = []
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.split("│") if c.strip()]
        if cells and cells[0].isdigit():
            rows.append(" ".join(cells[:5]))
    return rows


def test_arena_match_command_is_deterministic_for_a_fixed_seed():
    sample_bot("random-node")  # skips without Node.js
    command = [str(ARENA), "match", "--game", "oregon", str(SAMPLE_BOTS / "random-python"),
               str(SAMPLE_BOTS / "random-node"), "--seed", "4242"]
    runs = [subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
            for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "seed 4242" in run.stdout
    assert len(result_rows(runs[0].stdout)) == 2
    assert result_rows(runs[0].stdout) == result_rows(runs[1].stdout)
