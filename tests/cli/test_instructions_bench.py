"""``python -m arena.bench instructions``: its child plays the same games whichever encoder it
uses, a run under callgrind yields a count, and a bad game name is a one-line error."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.bench.instructions import counted, play

ROOT = Path(__file__).resolve().parents[2]


def test_every_encoder_plays_the_same_decisions_and_warm_up_games_do_not_count():
    decisions = {
        encoder: play("ogallala", encoder, 1, 1) for encoder in ("none", "today", "previous")
    }
    assert len(set(decisions.values())) == 1
    assert decisions["none"] > 0
    assert play("ogallala", "none", 1, 0) == 0


@pytest.mark.slow  # an interpreter under callgrind
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")
def test_a_run_under_callgrind_gives_its_instructions_and_decisions():
    instructions, decisions = counted("merkator", "none", 0, 1)
    assert decisions == play("merkator", "none", 0, 1)
    assert instructions > 1_000_000  # an interpreter's start alone is more


def test_an_unknown_game_is_a_one_line_error():
    run = subprocess.run(
        [sys.executable, "-m", "arena.bench", "instructions", "chess"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2
    assert "unknown game 'chess'" in run.stderr.strip().splitlines()[-1]
