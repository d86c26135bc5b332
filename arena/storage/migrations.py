"""Schema versions. A database records its version in ``schema_version``; opening an older one
runs the missing steps of ``MIGRATIONS`` in one transaction, so data is never dropped.

To change the schema: edit the models, bump ``CURRENT_VERSION`` and add the step from the previous
version (plain SQL such as ``ALTER TABLE ... ADD COLUMN``) to ``MIGRATIONS``.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection
from sqlmodel import SQLModel

from arena.storage import models

# Stamped into the SQLite header (PRAGMA application_id) to tell our files from foreign ones.
APPLICATION_ID = 0x4152_4E41  # "ARNA"
CURRENT_VERSION = 2


def _decision_details(connection: Connection) -> None:
    """Schema 2: each game keeps every decision's time taken and the bot's comment (for the
    replay viewer); games stored before keep NULL there and still replay."""
    connection.exec_driver_sql("ALTER TABLE game ADD COLUMN decision_seconds JSON")
    connection.exec_driver_sql("ALTER TABLE game ADD COLUMN comments JSON")


# MIGRATIONS[v] turns a version-v database into a version-(v + 1) one.
MIGRATIONS: dict[int, Callable[[Connection], None]] = {1: _decision_details}


def create_schema(connection: Connection) -> None:
    SQLModel.metadata.create_all(connection)
    connection.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute(
        models.SchemaVersion.__table__.insert().values(id=1, version=CURRENT_VERSION))


def migrate(connection: Connection, version: int) -> None:
    for step in range(version, CURRENT_VERSION):
        MIGRATIONS[step](connection)
    connection.execute(
        models.SchemaVersion.__table__.update().values(version=CURRENT_VERSION))
