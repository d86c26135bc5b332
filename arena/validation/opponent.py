"""The opponent ``arena validate`` plays a bot against: the Python starter bot of ``arena new-bot``
(a uniformly random legal choice, seeded by the arena). It is written to a directory at run time,
so it works without a checkout's sample_bots (it needs only the Python SDK, which the arena
depends on)."""

from __future__ import annotations

from pathlib import Path

from arena.manifest import BotSpec, load_manifest
from arena.new_bot import new_bot

OPPONENT_NAME = "validate-random"


def write_random_bot(directory: Path) -> BotSpec:
    """The random bot, written into ``directory`` (new, or empty)."""
    new_bot(OPPONENT_NAME, "python", directory, fixtures=False)  # it is not unit-tested
    return load_manifest(directory)
