"""``arena tournament --json`` and ``arena history --json``: stdout is one JSON document a
script can read (the start line, progress bar and end line go to stderr), and it says how the
run ended as the exit code does."""

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from arena.cli import app
from tests.support.bots import SAMPLE_BOTS

runner = CliRunner()
BOTS = f"{SAMPLE_BOTS / 'random-python'},{SAMPLE_BOTS / 'heuristic-python'}"


def test_a_tournament_prints_its_result_and_boards_as_json(tmp_path: Path):
    db = str(tmp_path / "arena.db")
    played = runner.invoke(
        app,
        ["tournament", "-g", "oregon", "--bots", BOTS, "--deals", "2", "--sandbox", "none",
         "--name", "t", "--json", "--db", db],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    result = json.loads(played.stdout)  # nothing else on stdout
    assert {k: result[k] for k in ("name", "game", "state", "games", "scheduled")} == {
        "name": "t",
        "game": "oregon",
        "state": "finished",
        "games": 4,
        "scheduled": 4,
    }
    [board] = result["boards"]
    assert sorted(row["bot"] for row in board["rows"]) == ["heuristic-python", "random-python"]
    assert (
        board
        == json.loads(
            runner.invoke(app, ["leaderboard", "--tournament", "t", "--json", "--db", db]).stdout
        )[0]
    )
    assert "tournament 't': oregon, 2 entrants" in played.stderr

    listed = runner.invoke(app, ["history", "--json", "-n", "3", "--db", db])
    assert listed.exit_code == 0, listed.output
    games = json.loads(listed.stdout)
    assert games["total"] == 4 and len(games["games"]) == 3
    with sqlite3.connect(db) as raw:
        newest = [i for (i,) in raw.execute("SELECT id FROM game ORDER BY id DESC LIMIT 3")]
    assert [game["id"] for game in games["games"]] == newest
    older = json.loads(
        runner.invoke(app, ["history", "--json", "--offset", "3", "--db", db]).stdout
    )
    assert [game["id"] for game in older["games"]] == [min(newest) - 1] and older["offset"] == 3
    assert {seat["bot"] for game in games["games"] for seat in game["seats"]} == {
        "heuristic-python",
        "random-python",
    }


def test_a_resumed_tournament_with_nothing_left_says_so_as_json(tmp_path: Path):
    db = str(tmp_path / "arena.db")
    first = ["tournament", "-g", "oregon", "--bots", BOTS, "--deals", "1", "--sandbox", "none"]
    assert runner.invoke(app, [*first, "--name", "t", "--db", db]).exit_code == 0
    again = runner.invoke(app, ["tournament", "--resume", "t", "--json", "--db", db])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["state"] == "finished"
    assert "resuming tournament 't'" in again.stderr
