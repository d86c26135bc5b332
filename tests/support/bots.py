"""Where the bots are, and their specs: the sample bots and the misbehaving test bots."""

from __future__ import annotations

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
