"""Turning a database this arena made into one an older arena wrote, to test the migrations."""

from __future__ import annotations

import sqlite3


def as_schema_9(raw: sqlite3.Connection) -> None:
    """Remove schema 10's withdrawals."""
    raw.executescript("DROP TABLE bot_withdrawal; UPDATE schema_version SET version = 9;")


def as_schema_8(raw: sqlite3.Connection) -> None:
    """Remove schema 10's withdrawals and schema 9's rate events."""
    as_schema_9(raw)
    raw.executescript("DROP TABLE rate_event; UPDATE schema_version SET version = 8;")


def as_schema_7(raw: sqlite3.Connection) -> None:
    """Remove schema 10's withdrawals, schema 9's rate events and schema 8's seat logs."""
    as_schema_8(raw)
    raw.executescript("DROP TABLE seat_log; UPDATE schema_version SET version = 7;")


def as_schema_4(raw: sqlite3.Connection) -> None:
    """Remove schema 10's withdrawals, schema 9's rate events, schema 8's seat logs, schema 7's
    web sessions, schema 6's running games and schema 5's authors, tokens, submissions and bot
    owners. (A plain sqlite3 connection checks no foreign keys, so the bot table can be made
    again without its owner.)"""
    as_schema_7(raw)
    raw.executescript(
        """
        DROP TABLE web_session;
        DROP TABLE running_game;
        CREATE TABLE bot_before (id INTEGER NOT NULL, name VARCHAR NOT NULL,
            created_at DATETIME NOT NULL, PRIMARY KEY (id));
        INSERT INTO bot_before SELECT id, name, created_at FROM bot;
        DROP TABLE bot;
        ALTER TABLE bot_before RENAME TO bot;
        CREATE UNIQUE INDEX ix_bot_name ON bot (name);
        DROP TABLE submission;
        DROP TABLE author_token;
        DROP TABLE author;
        UPDATE schema_version SET version = 4;
        """
    )
