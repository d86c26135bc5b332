"""The one skip guard for tests that run the Node.js sample bot."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

_RANDOM_NODE = Path(__file__).resolve().parents[2] / "sample_bots" / "random-node"
NODE_MISSING = "Node.js or the random-node bot's node_modules missing (run scripts/setup)"


def node_ready() -> bool:
    """Node.js is on PATH and the random-node bot's dependencies are installed."""
    return shutil.which("node") is not None and (_RANDOM_NODE / "node_modules").is_dir()


requires_node = pytest.mark.skipif(not node_ready(), reason=NODE_MISSING)
