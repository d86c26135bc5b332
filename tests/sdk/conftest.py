from pathlib import Path

import pytest

from tests.support.node import NPM_MISSING, npm_ready

ROOT = Path(__file__).resolve().parents[2]
NODE_SDK = ROOT / "sdk" / "node"


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: builds a virtualenv or installs packages (a minute)")


@pytest.fixture
def node_sdk() -> Path:
    """The Node SDK's directory, installed; skips when Node.js or its packages are missing."""
    if not npm_ready():
        pytest.skip(NPM_MISSING)
    return NODE_SDK
