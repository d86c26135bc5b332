"""Fixtures every part of the tests may take: the PostgreSQL server and ``db_target``, which runs
a test on SQLite and on PostgreSQL (``tests/support/postgres.py``)."""

from arena import grpc_settings
from tests.support.postgres import db_target, postgres_db, postgres_server

grpc_settings.apply()  # the referees the tests run in process use gRPC as the arena command does

__all__ = ["db_target", "postgres_db", "postgres_server"]
