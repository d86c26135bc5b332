"""Names, reasons and a bot's output are printed as they are, never read as rich markup: a
tournament named "x[/y]" ended its run in a traceback, and a bot whose error line held "[/section]"
lost `arena validate`'s whole report (outside review F, M3); "[rb]" vanished from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.commands.validate import print_report
from arena.validation import Report, Status
from arena.validation.report import Check
from tests.tournament.helpers import SAMPLE_BOTS, run_cli

BRACKETS = "Error: config [/section] missing [bold]x [rb] [red]"


def test_validate_prints_a_bots_bracketed_output_as_it_is(capsys):
    report = Report("bot", 1, checks=[Check("process", Status.FAIL, f"last output: {BRACKETS}")])
    print_report(report)
    out = capsys.readouterr().out
    assert BRACKETS in " ".join(out.split()).replace("│ ", "").replace(" │", "")
    assert "FAIL" in out and "1 check(s) failed" in out
    # not a terminal: the failure again on a line of its own, unwrapped (outside review G)
    assert f"FAIL process: last output: {BRACKETS}\n" in out


@pytest.mark.slow
def test_a_tournament_named_with_brackets_runs_and_is_shown(tmp_path: Path):
    bots = f"{SAMPLE_BOTS / 'random-python'},{SAMPLE_BOTS / 'heuristic-python'}"
    result = run_cli(
        "tournament", "--db", str(tmp_path / "arena.db"), "--game", "oregon", "--deals", "1",
        "--bots", bots, "--name", "x[/y] [bold]", "--sandbox", "none",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "tournament 'x[/y] [bold]' finished" in result.stdout + result.stderr


def test_help_shows_the_one_sided_intervals_brackets():
    """Review I: rich read '[x, ∞)" or "(-∞, x]' in leaderboard's help as a markup tag and
    dropped it, in `arena leaderboard --help` and `arena --help`."""
    for words in (["leaderboard", "--help"], ["--help"]):
        shown = " ".join(run_cli(*words).stdout.replace("│", " ").split())
        assert '("[x, ∞)" or "(-∞, x]" when the games bound it' in shown, shown
