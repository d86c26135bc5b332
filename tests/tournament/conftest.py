from pathlib import Path

import pytest

from tests.tournament.helpers import SAMPLE_BOTS, renamed_bot


@pytest.fixture(scope="session")
def three_bots(tmp_path_factory) -> list[Path]:
    """Three real bots: the Python and Node random bots and a renamed copy of the Python one
    (a test that plays the Node one is marked ``tests.support.node.requires_node``)."""
    copy = renamed_bot(
        SAMPLE_BOTS / "random-python",
        tmp_path_factory.mktemp("bots") / "random-python-2",
        "random-python-2",
    )
    return [SAMPLE_BOTS / "random-python", SAMPLE_BOTS / "random-node", copy]
