"""``arena match --json`` and its exit codes; time limits that are not finite numbers and
tournament seeds out of range are one-line errors."""

import json

import pytest
from typer.testing import CliRunner

from arena.cli import app
from tests.support.bots import SAMPLE_BOTS

runner = CliRunner()
PYTHON_BOT = str(SAMPLE_BOTS / "random-python")


def test_match_json_is_one_object_and_the_exit_code_tells_a_forfeit():
    played = runner.invoke(
        app, ["match", "--game", "oregon", "--seed", str(1 << 50), "--json", PYTHON_BOT, PYTHON_BOT]
    )
    # a bot that never answers its handshake forfeits with CRASH
    forfeited = runner.invoke(
        app,
        [
            "match",
            "--game",
            "oregon",
            "--seed",
            str(1 << 50),
            "--json",
            PYTHON_BOT,
            str(SAMPLE_BOTS.parent / "tests" / "bots" / "never-ready"),
            "--sandbox",
            "none",
        ],
    )

    assert played.exit_code == 0, played.output
    result = json.loads(played.stdout)
    assert result["seed"] == 1 << 50 and result["voided"] is False
    assert [seat["outcome"] for seat in result["seats"]] == ["FINISHED", "FINISHED"]
    assert result["decisions"] == sum(seat["decisions"] for seat in result["seats"])
    assert forfeited.exit_code == 3, forfeited.output
    assert json.loads(forfeited.stdout)["seats"][1]["outcome"] == "CRASH"


@pytest.mark.parametrize("flag", ["--move-time", "--bank-time"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_time_limits_must_be_finite(flag, value):
    result = runner.invoke(app, ["match", "--game", "oregon", flag, value, PYTHON_BOT, PYTHON_BOT])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "finite number" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--move-time", "nan"], "finite number > 0"),
        (["--move-time", "inf"], "finite number > 0"),
        (["--seed", str(1 << 63)], "--seed must be between 0 and 9223372036854775807"),
        (["--seed", "-1"], "--seed must be between 0 and 9223372036854775807"),
    ],
)
def test_tournament_time_and_seed_out_of_range_are_one_line_errors(tmp_path, args, message):
    db = tmp_path / "arena.db"
    result = runner.invoke(
        app,
        [
            "tournament",
            "--game",
            "oregon",
            "--bots",
            f"{PYTHON_BOT},{SAMPLE_BOTS / 'heuristic-python'}",
            *args,
            "--db",
            str(db),
        ],
    )
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert not db.exists()
