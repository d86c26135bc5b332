"""The opponent ``arena validate`` plays a bot against: a uniformly random legal choice, seeded
by the arena. It is written to a directory at run time, so it works without a checkout's
sample_bots (it needs only the Python SDK, which the arena depends on)."""

from __future__ import annotations

from pathlib import Path

from arena.manifest import BotSpec, load_manifest
from engine.registry import game_names

OPPONENT_NAME = "validate-random"

_BOT = """import arena_sdk as sdk

rng = sdk.seeded_random()
sdk.run(lambda request: rng.randrange(len(request.legal_actions)))
"""


def write_random_bot(directory: Path) -> BotSpec:
    """The random bot, written into ``directory`` (created)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "bot.py").write_text(_BOT, encoding="utf-8")
    games = ", ".join(f'"{name}"' for name in game_names())
    (directory / "bot.toml").write_text(
        f'name = "{OPPONENT_NAME}"\nversion = "1"\ncommand = ["python", "bot.py"]\n'
        f"games = [{games}]\n",
        encoding="utf-8",
    )
    return load_manifest(directory)
