"""What a bot writes reaches its log: a Python bot's plain ``print`` (block-buffered when stdout is
a pipe, and lost when the arena stops the process with SIGTERM) included."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from arena.cli import app
from tests.support.bots import SAMPLE_BOTS, TEST_BOTS

runner = CliRunner()


@pytest.mark.parametrize("sandbox", [["--sandbox", "none"], []], ids=["unconfined", "default"])
def test_what_a_python_bot_prints_unflushed_reaches_its_log(tmp_path, sandbox):
    logs = tmp_path / "logs"
    match = ["match", str(TEST_BOTS / "printer"), str(SAMPLE_BOTS / "random-python")]
    match += ["--game", "oregon", "--no-store", *sandbox, "--seed", "3"]
    result = runner.invoke(app, [*match, "--bot-logs", str(logs)])
    assert result.exit_code == 0, result.output
    [log] = logs.glob("*-printer-*.log")
    assert "printer decides 0\n" in log.read_text()
