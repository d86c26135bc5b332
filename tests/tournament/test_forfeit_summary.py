"""A tournament's summary says why a bot forfeited, not only how often ("CRASH 2"), and so does
``arena history``: the operator sees the reason where the count is."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.bots import SAMPLE_BOTS, TEST_BOTS
from tests.tournament.helpers import run_cli


def tournament(db: Path, bots: str):
    """A one-deal Oregon tournament "t" of ``bots``, unsandboxed, which must finish."""
    ran = run_cli(
        "tournament", "--game", "oregon", "--bots", bots, "--deals", "1", "--name", "t",
        "--sandbox", "none", "--db", str(db),
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    return ran


def test_the_summary_and_the_history_give_each_forfeiting_bots_reason(tmp_path: Path):
    db = tmp_path / "arena.db"
    bots = f"{TEST_BOTS / 'raise'},{SAMPLE_BOTS / 'random-python'}"
    ran = tournament(db, bots)
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


def test_a_bots_terminal_escapes_in_its_reason_reach_the_operator_as_text(tmp_path: Path):
    """The reason is the bot's own words: an escape that retitles or clears the operator's
    terminal is printed as text (``\\x1b``), in the summary and in the history."""
    hostile = tmp_path / "hostile-raise"
    shutil.copytree(TEST_BOTS / "raise", hostile)
    (hostile / "bot.toml").write_text(
        (hostile / "bot.toml")
        .read_text()
        .replace("../misbehave.py", str(TEST_BOTS / "misbehave.py"))
        + '\n[env]\nMISBEHAVE_MESSAGE = "\\u001b]0;pwned\\u0007\\u001b[2J gone"\n'
    )
    db = tmp_path / "arena.db"
    bots = f"{hostile},{SAMPLE_BOTS / 'random-python'}"
    ran = tournament(db, bots)
    history = run_cli("history", "--tournament", "t", "--db", str(db))
    for output in (ran.stdout, history.stdout):
        assert "\x1b" not in output and "\x07" not in output
        assert "\\x1b]0;pwned\\x07" in output


def test_a_second_upload_under_one_version_number_is_labelled_as_everywhere_else(tmp_path):
    """The summary said "rustbot 0.1.0" where the table and `arena bots` said 0.1.0-r2
    (outside review)."""
    db = tmp_path / "arena.db"
    raiser = tmp_path / "raise"
    shutil.copytree(TEST_BOTS / "raise", raiser)
    manifest = raiser / "bot.toml"
    manifest.write_text(
        manifest.read_text().replace("../misbehave.py", str(TEST_BOTS / "misbehave.py"))
    )
    for _ in range(2):  # the same bot.toml version, other code
        (raiser / "notes.txt").write_text(f"{_}\n")
        assert run_cli("submit", str(raiser), "--sandbox", "none", "--db", str(db)).exit_code == 0
    bots = f"raise@1.0.0-r2,{SAMPLE_BOTS / 'random-python'}"
    ran = tournament(db, bots)
    assert "  raise 1.0.0-r2: 2 games, first game " in ran.stdout, ran.stdout
