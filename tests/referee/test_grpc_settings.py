"""The arena's gRPC settings (arena.grpc_settings): made by the ``arena`` command, an operator's
own kept, and never handed to the bots, not even to a Python bot importing the arena's
messages."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena import grpc_settings
from arena.referee.botprocess import connect, run_bot
from tests.support.bots import sample_bot

# The arena command's entry point run with --help, then what its process's environment holds.
_COMMAND = (
    "import os, sys\n"
    "sys.argv = ['arena', '--help']\n"
    "from arena.launcher import main\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "print(os.environ.get('GRPC_EXPERIMENTS'))"
)
_BOT = (
    "from arena.bot.v1 import bot_pb2\nimport grpc, os\nprint(os.environ.get('GRPC_EXPERIMENTS'))"
)


def _imported_with(environment: dict[str, str], program: str = _COMMAND) -> str:
    """What GRPC_EXPERIMENTS is at the end of ``program`` in a fresh interpreter."""
    shown = subprocess.run(
        [sys.executable, "-c", program], env=environment, capture_output=True, text=True, check=True
    )
    return shown.stdout.strip().splitlines()[-1]


def _plain() -> dict[str, str]:
    return {name: value for name, value in os.environ.items() if name != "GRPC_EXPERIMENTS"}


def test_the_arena_command_sets_its_grpc_experiments():
    assert _imported_with(_plain()) == "-event_engine_client"


def test_a_bot_importing_the_arenas_messages_keeps_grpcs_defaults():
    assert _imported_with(_plain(), _BOT) == "None"


def test_an_operators_own_grpc_experiments_are_kept():
    assert _imported_with({**os.environ, "GRPC_EXPERIMENTS": "-work_serializer"}) == (
        "-work_serializer"
    )


def test_bots_get_the_operators_environment_without_the_arenas_grpc_setting():
    environment = {"PATH": "/bin", "GRPC_EXPERIMENTS": "-event_engine_client"}
    assert grpc_settings.for_bots(environment) == {"PATH": "/bin"}
    operators = {"PATH": "/bin", "GRPC_EXPERIMENTS": "-work_serializer"}
    assert grpc_settings.for_bots(operators) == operators


@pytest.mark.slow  # a real bot process
async def test_an_unconfined_bot_does_not_inherit_the_arenas_grpc_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("GRPC_EXPERIMENTS", grpc_settings.ARENA_VALUE)
    monkeypatch.setenv("ARENA_TEST_MARKER", "inherited")
    async with run_bot(sample_bot("random-python"), 0, 1, tmp_path) as bot:
        assert bot.process is not None
        client, _ = await connect(bot, "oregon", timeout=30.0)  # the bot's own program runs
        client.close()
        variables = Path(f"/proc/{bot.process.pid}/environ").read_bytes().split(b"\0")
    assert b"ARENA_TEST_MARKER=inherited" in variables  # the rest of the environment is passed
    assert not any(variable.startswith(b"GRPC_EXPERIMENTS=") for variable in variables)
