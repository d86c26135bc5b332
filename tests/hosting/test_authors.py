"""Authors and their tokens: ``arena authors add|token|revoke|list``, a token checked against its
hash only, every bot owned (schema 5: the bots before belong to the operator)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena import tokens
from arena.cli import app
from arena.errors import SubmitError
from arena.manifest import remote_bot
from arena.registration import content_hash, register_spec
from arena.storage import authors, bots, migrations, submissions
from arena.storage.database import open_database
from arena.storage.models import OPERATOR
from arena.storage.target import DatabaseTarget
from tests.support.schemas import as_schema_4

runner = CliRunner()


def arena(*arguments: str, db: DatabaseTarget):
    return runner.invoke(app, [*arguments, "--db", str(db)])


def authenticated(db: DatabaseTarget, token: str) -> str | None:
    database = open_database(db, create=False)
    try:
        with database.read() as session:
            author = authors.authenticate(session, token)
    finally:
        database.close()
    return author.name if author else None


def test_add_prints_a_token_once_that_authenticates_its_author(db_target: DatabaseTarget):
    db = db_target
    added = arena("authors", "add", "alice", db=db)
    assert added.exit_code == 0, added.output
    token = added.stdout.strip()
    assert tokens.parse_token(token) is not None
    assert "cannot show it again" in added.stderr
    assert authenticated(db, token) == "alice"
    other = arena("authors", "add", "bob", db=db).stdout.strip()
    assert authenticated(db, other) == "bob" and other != token


def test_only_the_hash_is_stored(tmp_path: Path):
    db = tmp_path / "arena.db"
    token = arena("authors", "add", "alice", db=db).stdout.strip()
    _, secret = tokens.parse_token(token) or ("", "")
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    assert secret.encode() not in stored and token.encode() not in stored
    with sqlite3.connect(db) as raw:
        salt, digest, cost = raw.execute("SELECT salt, digest, cost FROM author_token").fetchone()
    assert len(salt) == 16 and len(digest) == 32 and cost == "sha256"


@pytest.mark.parametrize(
    "forge",
    [
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # the secret changed
        lambda t: t.replace(t.split("_")[1], "0" * 12),  # another id
        lambda t: "",
        lambda t: "Bearer " + t,
        lambda t: t + "x",
        lambda t: "arena_" + "0" * 12 + "_" + "A" * 43,
    ],
    ids=["secret", "id", "empty", "prefixed", "longer", "unknown"],
)
def test_a_forged_token_authenticates_nobody(tmp_path: Path, forge):
    db = tmp_path / "arena.db"
    token = arena("authors", "add", "alice", db=db).stdout.strip()
    assert authenticated(db, forge(token)) is None


def test_revoke_and_a_new_token(db_target: DatabaseTarget):
    db = db_target
    first = arena("authors", "add", "alice", db=db).stdout.strip()
    second = arena("authors", "token", "alice", db=db).stdout.strip()
    assert authenticated(db, first) is None  # a new token replaces the old
    assert authenticated(db, second) == "alice"
    revoked = arena("authors", "revoke", "alice", db=db)
    assert revoked.exit_code == 0 and "revoked" in revoked.stdout
    assert authenticated(db, second) is None
    assert "had no token" in arena("authors", "revoke", "alice", db=db).stdout


def test_list_shows_authors_bots_and_tokens(db_target: DatabaseTarget):
    db = db_target
    arena("authors", "add", "alice", db=db)
    arena("authors", "add", "bob", db=db)
    arena("authors", "revoke", "bob", db=db)
    database = open_database(db, create=False)
    with database.write() as session:
        alice = authors.named(session, "alice").id
        bots.register(session, remote_bot("127.0.0.1:1", "a1"), "h1", author_id=alice)
        bots.register(session, remote_bot("127.0.0.1:1", "op"), "h2")
    database.close()
    listed = arena("authors", "list", "--json", db=db)
    assert listed.exit_code == 0, listed.output
    rows = {row["name"]: (row["bots"], row["token"]) for row in json.loads(listed.stdout)}
    assert rows == {OPERATOR: (1, False), "alice": (1, True), "bob": (0, False)}
    table = arena("authors", "list", db=db)
    assert "alice" in table.stdout and "in force" in table.stdout


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["authors", "add", "operator"], "built-in author"),
        (["authors", "add", "has space"], "author name"),
        (["authors", "revoke", "nobody"], "unknown author 'nobody'"),
        (["authors", "token", "operator"], "has no token"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, arguments, message):
    db = tmp_path / "arena.db"
    result = arena(*arguments, db=db)
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_adding_an_author_twice_is_refused(db_target: DatabaseTarget):
    db = db_target
    token = arena("authors", "add", "alice", db=db).stdout.strip()
    again = arena("authors", "add", "alice", db=db)
    assert again.exit_code == 2 and "exists already" in again.stderr
    assert authenticated(db, token) == "alice"  # the token in force stays


def test_a_bot_name_belongs_to_one_author(db_target: DatabaseTarget):
    db = db_target
    arena("authors", "add", "alice", db=db)
    database = open_database(db, create=False)
    with database.write() as session:
        alice = authors.named(session, "alice").id
        bots.register(session, remote_bot("127.0.0.1:1", "mine"), "h1", author_id=alice)
        again, created = bots.register(
            session, remote_bot("127.0.0.1:1", "mine"), "h2", author_id=alice
        )
        assert created and again.bot.author_id == alice  # a new version of their own bot
        with pytest.raises(SubmitError, match="belongs to another author"):
            bots.register(session, remote_bot("127.0.0.1:1", "mine"), "h3")  # the operator's
        # a version that exists may be named by anyone (arena match NAME registers its bots)
        named, created = bots.register(session, remote_bot("127.0.0.1:1", "mine"), "h1")
        assert not created and named.bot.author_id == alice
    database.close()


def test_the_operators_registering_keeps_the_name_rules_of_uploads(db_target: DatabaseTarget):
    """hosting.md: a name that an author's waiting upload claims is refused to the operator's own
    `arena submit DIR` too, and so is a new name that could pass for an author's bot; the
    operator took both before (outside review), and the author's upload then failed."""
    db = db_target
    arena("authors", "add", "zed", db=db)
    database = open_database(db, create=False)
    try:
        with database.write() as session:
            zed = authors.named(session, "zed").id
            submissions.queue(session, zed, "apple", "0" * 64)
            pear = remote_bot("127.0.0.1:1", "pear")
            bots.register(session, pear, content_hash(pear), author_id=zed)
        for name, refused in (
            ("apple", "bot name 'apple' belongs to another author"),
            ("Pear", "bot name 'Pear' could pass for 'pear', another author's bot"),
            ("v\u0456ctim", "reads as"),  # a Cyrillic і
        ):
            with pytest.raises(SubmitError, match=refused):
                register_spec(database, remote_bot("127.0.0.1:2", name))
        # a version that exists may still be named by anyone (arena match NAME registers it)
        named, created = register_spec(database, pear)
        assert not created and named.bot.name == "pear" and named.bot.author_id == zed
        registered, created = register_spec(database, remote_bot("127.0.0.1:3", "plum"))
        assert created and registered.bot.name == "plum"
    finally:
        database.close()


def test_schema_4_bots_belong_to_the_operator(tmp_path: Path):
    db = tmp_path / "arena.db"
    database = open_database(db, create=True)
    with database.write() as session:
        bots.register(session, remote_bot("127.0.0.1:1", "old"), "h1")
    database.close()
    with sqlite3.connect(db) as raw:
        as_schema_4(raw)
    open_database(db, create=True).close()
    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT version FROM schema_version").fetchone() == (
            migrations.CURRENT_VERSION,
        )
        assert raw.execute(
            "SELECT bot.name, author.name FROM bot JOIN author ON author.id = bot.author_id"
        ).fetchall() == [("old", OPERATOR)]
    added = arena("authors", "add", "alice", db=db)  # the new tables work in a migrated file
    assert authenticated(db, added.stdout.strip()) == "alice"
