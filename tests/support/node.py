"""The one skip guard for tests that run the Node.js sample bot."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[2]
NODE_MISSING = (
    "Node.js, or the node_modules of the random-node bot or of the Node SDK it uses, "
    "missing (run scripts/setup)"
)


def node_ready() -> bool:
    """Node.js is on PATH, and the random-node bot's and the Node SDK's packages are installed."""
    return (
        shutil.which("node") is not None
        and (_ROOT / "sample_bots" / "random-node" / "node_modules").is_dir()
        and (_ROOT / "sdk" / "node" / "node_modules").is_dir()
    )


requires_node = pytest.mark.skipif(not node_ready(), reason=NODE_MISSING)


NPM_MISSING = "Node.js/npm or the Node SDK's packages missing (run scripts/setup)"


def npm_ready() -> bool:
    """Node.js and npm are on PATH and the Node SDK's dependencies are installed (what writing
    and installing a new Node bot needs)."""
    return (
        shutil.which("node") is not None
        and shutil.which("npm") is not None
        and (_ROOT / "sdk" / "node" / "node_modules").is_dir()
    )


requires_npm = pytest.mark.skipif(not npm_ready(), reason=NPM_MISSING)
