"""What of the operator's environment a bot's program sees: all of it without a sandbox (the
operator's choice, ``--sandbox none``), none of it in one: a password in ``ARENA_DB``, say, stays
the arena's. Since December 5 the arena passes its environment on as it is (it used to take its
own gRPC setting out first), so this says what the sandbox keeps out."""

from pathlib import Path

import pytest

from arena.referee.botprocess import connect, run_bot
from arena.sandbox import SandboxPolicy
from tests.sandbox.conftest import needs_bwrap
from tests.support.bots import sample_bot

pytestmark = pytest.mark.slow  # real bot processes

SECRET = "OPERATOR-SECRET-5f3a"


@pytest.mark.parametrize("tool", ["none", pytest.param("bwrap", marks=needs_bwrap)])
async def test_only_an_unconfined_bot_sees_the_operators_environment(tmp_path, monkeypatch, tool):
    monkeypatch.setenv("ARENA_DB", f"postgresql://arena:{SECRET}@db.example/arena")
    policy = SandboxPolicy(tool=tool)
    async with run_bot(sample_bot("random-python"), 0, 1, tmp_path, sandbox=policy) as bot:
        assert bot.process is not None
        client, _ = await connect(bot, "oregon", timeout=30.0)  # the bot's own program runs
        client.close()
        pids = bot.launch.program_pids(bot.process.pid) if bot.launch else [bot.process.pid]
        assert pids
        variables = [Path(f"/proc/{pid}/environ").read_bytes().split(b"\0") for pid in pids]
    for seen in variables:
        assert any(variable.startswith(b"ARENA_BOT_TOKEN=") for variable in seen)  # the arena's
        assert any(SECRET.encode() in variable for variable in seen) == (tool == "none")
