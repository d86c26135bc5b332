from pathlib import Path

import pytest

from tests.support.node import NPM_MISSING, npm_ready

ROOT = Path(__file__).resolve().parents[2]
NODE_SDK = ROOT / "sdk" / "node"


@pytest.fixture
def node_sdk() -> Path:
    """The Node SDK's directory, installed; skips when Node.js or its packages are missing."""
    if not npm_ready():
        pytest.skip(NPM_MISSING)
    return NODE_SDK
