"""Where the bots are, and their specs: the sample bots and the misbehaving test bots."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena.manifest import BotSpec, load_manifest
from tests.support.node import NODE_MISSING, node_ready

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_BOTS = ROOT / "sample_bots"
TEST_BOTS = ROOT / "tests" / "bots"


def sample_bot(name: str) -> BotSpec:
    """A sample bot's spec; skips the test for random-node when Node.js is not set up."""
    if name == "random-node" and not node_ready():
        pytest.skip(NODE_MISSING)
    return load_manifest(SAMPLE_BOTS / name)


def misbehaving_bot(name: str) -> BotSpec:
    return load_manifest(TEST_BOTS / name)


def sandboxed_misbehaving_bot(mode: str, directory: Path) -> BotSpec:
    """``misbehaving_bot(mode)`` in a directory of its own with ``misbehave.py`` (a sandboxed bot
    sees its own directory only)."""
    home = directory / mode
    home.mkdir()
    shutil.copy(TEST_BOTS / "misbehave.py", home)
    toml = (TEST_BOTS / mode / "bot.toml").read_text().replace("../misbehave.py", "misbehave.py")
    (home / "bot.toml").write_text(toml)
    return load_manifest(home)
