"""The hosted arena most tests here start from: its database (an SQLite file, then a PostgreSQL
database: ``db_target``) with authors alice and bob, and the web app over it under uvicorn (a
module may define its own, with more in it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.storage.target import DatabaseTarget
from arena.web.app import create_app
from tests.hosting.test_upload_api import Arena, Served


@pytest.fixture
def arena(tmp_path: Path, db_target: DatabaseTarget) -> Arena:
    return Arena(tmp_path, db_target)


@pytest.fixture
def web(arena: Arena) -> Iterator[Served]:
    served = Served(create_app(arena.db, warm_up=False))
    yield served
    served.stop()
