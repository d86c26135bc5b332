"""A reader's check of the schema version (``ReadOnlyDatabase``: ``arena history``, the web):
the database must be of a schema this arena knows. Opening with ``open_database`` checks the
same (``database._inspect``, ``postgres.version_in``) for every other command; a read-only
reader has a session only."""

from __future__ import annotations

from sqlmodel import Session, select

from arena.errors import StorageError
from arena.storage import migrations
from arena.storage.models import SchemaVersion
from arena.storage.target import DatabaseTarget


def check_known_schema(session: Session, target: DatabaseTarget) -> None:
    """Raise StorageError unless the database names a schema version this arena can read: a
    newer arena's tables may mean something else, and a missing version is damage."""
    version = session.exec(select(SchemaVersion.version)).first()
    if version is None:
        raise StorageError(f"{target}: arena database without a schema version (damaged)")
    if version > migrations.CURRENT_VERSION:
        raise StorageError(
            f"{target}: written by a newer arena (schema {version}, this arena "
            f"knows up to {migrations.CURRENT_VERSION})"
        )
