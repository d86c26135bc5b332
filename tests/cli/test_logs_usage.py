"""``arena logs usage``: how much of the logs directory each bot holds, from the logs real
matches kept, against the quota of a bot's logs together (``BotLimits.logs_mib``)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from arena.cli import app
from arena.sandbox.limits import BotLimits
from arena.wording import size
from tests.support.bots import SAMPLE_BOTS, TEST_BOTS

runner = CliRunner()


def test_each_bots_logs_are_summed_largest_first(tmp_path):
    logs = tmp_path / "logs"
    match = ["match", str(TEST_BOTS / "chatty"), str(SAMPLE_BOTS / "random-python")]
    match += ["--game", "oregon", "--db", str(tmp_path / "arena.db"), "--sandbox", "none"]
    for seed in ("1", "2"):
        assert runner.invoke(app, [*match, "--bot-logs", str(logs), "--seed", seed]).exit_code == 0
    (logs / "notes.log").write_text("not a bot's log\n")
    chatty = sum(path.stat().st_size for path in logs.glob("*-chatty-*.log"))

    result = runner.invoke(app, ["logs", "usage", "--bot-logs", str(logs), "--json"])

    assert result.exit_code == 0, result.output
    usage = json.loads(result.stdout)
    assert usage["quota_bytes"] == BotLimits().logs_mib << 20
    assert usage["bots"][0] == {"bot": "chatty", "files": 2, "bytes": chatty} and chatty > 0
    assert [entry["bot"] for entry in usage["bots"]] == ["chatty", "random-python"]
    table = runner.invoke(app, ["logs", "usage", "--bot-logs", str(logs)])
    assert table.exit_code == 0 and "chatty" in table.stdout and "of its quota" in table.stdout
    # a few KiB of logs read as such, never "0.0 MiB" (outside review)
    assert "(quota 256 MiB)" in table.stdout and "0.0 MiB" not in table.stdout
    assert size(chatty) in table.stdout and size(chatty).endswith(("KiB", "bytes"))


def test_a_missing_directory_is_one_line_and_exit_code_2(tmp_path):
    result = runner.invoke(app, ["logs", "usage", "--bot-logs", str(tmp_path / "none")])

    assert result.exit_code == 2
    assert (
        result.output.strip()
        == f"error: {tmp_path / 'none'}: no logs directory there (see --bot-logs)"
    )
