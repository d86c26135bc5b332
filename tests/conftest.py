"""Fixtures every part of the tests may take: the PostgreSQL server and ``db_target``, which runs
a test on SQLite and on PostgreSQL (``tests/support/postgres.py``)."""

from tests.support.postgres import db_target, postgres_db, postgres_server

__all__ = ["db_target", "postgres_db", "postgres_server"]
