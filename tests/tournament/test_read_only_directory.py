"""Reading a database in a directory the reader may not write. In WAL mode SQLite must make the
``-shm`` index beside the file, and said "attempt to write a readonly database" to a read
(outside review). Root writes everywhere, so this runs as an ordinary user only
(scripts/test-unprivileged runs it as uid 65534)."""

from __future__ import annotations

import os

import pytest

from arena.errors import StorageError
from arena.storage.database import open_database
from arena.storage.read_only import ReadOnlyDatabase
from tests.tournament.records import register_bots

pytestmark = pytest.mark.skipif(os.geteuid() == 0, reason="root may write in any directory")


def test_a_reader_who_may_not_write_the_directory_is_told_why(tmp_path):
    folder = tmp_path / "theirs"
    folder.mkdir()
    database = open_database(folder / "arena.db", create=True)
    register_bots(database, ["kept"])
    database.close()  # the last connection checkpoints: no -wal or -shm is left
    folder.chmod(0o555)
    try:
        with pytest.raises(StorageError) as refused:
            ReadOnlyDatabase(folder / "arena.db").bots()
    finally:
        folder.chmod(0o755)
    message = str(refused.value)
    assert "attempt to write" not in message
    assert "in WAL mode SQLite must make arena.db-shm beside it" in message, message
    assert f"you may not write in {folder}" in message
