import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_SDK = ROOT / "sdk" / "node"


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: builds a virtualenv or installs packages (a minute)")


@pytest.fixture
def node_sdk() -> Path:
    """The Node SDK's directory, installed; skips when Node.js or its packages are missing."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("Node.js or npm is not installed")
    if not (NODE_SDK / "node_modules").is_dir():
        pytest.skip("the Node SDK's packages are not installed (run scripts/setup)")
    return NODE_SDK
