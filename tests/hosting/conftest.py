"""The hosted arena most tests here start from: its database with authors alice and bob, and
the web app over it under uvicorn (a module may define its own, with more in it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.web.app import create_app
from tests.hosting.test_upload_api import Arena, Served


@pytest.fixture
def arena(tmp_path: Path) -> Arena:
    return Arena(tmp_path)


@pytest.fixture
def web(arena: Arena) -> Iterator[Served]:
    served = Served(create_app(arena.db, warm_up=False))
    yield served
    served.stop()
