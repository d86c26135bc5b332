"""``arena match`` stores its game for replay but rates it only with --rated: a bot author's
debugging games stay off the leaderboards."""

import json
import sqlite3

from typer.testing import CliRunner

from arena.cli import app
from tests.support.bots import SAMPLE_BOTS

runner = CliRunner()
BOTS = [str(SAMPLE_BOTS / "random-python"), str(SAMPLE_BOTS / "heuristic-python")]


def _match(db, *extra: str):
    return runner.invoke(
        app,
        ["match", "--game", "oregon", "--seed", "7", "--json", *BOTS, "--db", str(db), *extra],
    )


def _leaderboard(db) -> list:
    shown = runner.invoke(app, ["leaderboard", "--json", "--db", str(db)])
    assert shown.exit_code == 0, shown.output
    return json.loads(shown.stdout)


def test_a_match_is_stored_unrated_unless_asked(tmp_path):
    db = tmp_path / "arena.db"
    unrated = _match(db)
    assert unrated.exit_code == 0, unrated.output
    assert json.loads(unrated.stdout)["rated"] is False
    assert _leaderboard(db) == []
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT COUNT(*) FROM elo_rating").fetchone() == (0,)
        assert raw.execute("SELECT COUNT(*) FROM rating_history").fetchone() == (0,)
    # still there for a replay, and its seal holds
    replayed = runner.invoke(app, ["replay", "1", "--verify", "--db", str(db)])
    assert replayed.exit_code == 0, replayed.output

    rated = _match(db, "--rated")
    assert rated.exit_code == 0, rated.output
    assert json.loads(rated.stdout)["rated"] is True
    (board,) = _leaderboard(db)
    assert [row["games"] for row in board["rows"]] == [1, 1], "the rated game alone"
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT DISTINCT game_id FROM rating_history").fetchall() == [(2,)]
        assert raw.execute("SELECT COUNT(*) FROM elo_rating").fetchone() == (2,)


def test_rated_needs_a_stored_game(tmp_path):
    refused = _match(tmp_path / "arena.db", "--rated", "--no-store")
    assert refused.exit_code == 2 and "--rated" in refused.stderr
