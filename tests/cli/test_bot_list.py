"""``--bots``: comma-separated entrants, and a bot directory whose own name holds a comma."""

from __future__ import annotations

from pathlib import Path

from arena.commands.options import bot_texts
from tests.tournament.helpers import SAMPLE_BOTS, renamed_bot, run_cli


def test_entrants_are_split_on_commas_and_blanks_dropped():
    assert bot_texts("a, b ,,c") == ["a", "b", "c"]
    assert bot_texts(None) == []


def test_a_directory_whose_name_holds_commas_is_one_entrant(tmp_path: Path):
    (tmp_path / "my,odd,bot").mkdir()
    (tmp_path / "plain").mkdir()
    given = f"{tmp_path}/my,odd,bot,random-python, {tmp_path}/plain"
    assert bot_texts(given) == [f"{tmp_path}/my,odd,bot", "random-python", f"{tmp_path}/plain"]


def test_a_tournament_takes_a_bot_directory_with_a_comma_in_its_name(tmp_path: Path):
    """It was split in two: "error: .../my: not a bot directory" (outside review D, L5)."""
    bot = renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "my,bot", "commabot")
    db = tmp_path / "arena.db"
    result = run_cli(
        "tournament", "--db", str(db), "--game", "oregon", "--deals", "1",
        "--bots", f"{bot},{SAMPLE_BOTS / 'random-python'}", "--sandbox", "none",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "2 entrants (commabot" in result.stdout + result.stderr
