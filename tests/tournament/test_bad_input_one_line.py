"""Inputs that printed a traceback and exited 1 (outside review D, L1): each is now one line,
``error: ...``, with exit code 2 (4 for a database this arena cannot use), and changes nothing."""

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from tests.tournament.helpers import SAMPLE_BOTS, run_cli, snapshot

BAD_INPUT = 2
STORAGE_FAULT = 4
BEYOND_INT64 = "99999999999999999999"
NOT_UTF8 = "\udcff"  # the byte 0xff of $'\xff', as Python holds an argument that is not UTF-8


@pytest.fixture(scope="module")
def registered_db(tmp_path_factory) -> Path:
    """A database with the Python random bot registered."""
    db = tmp_path_factory.mktemp("db") / "arena.db"
    assert run_cli("submit", str(SAMPLE_BOTS / "random-python"), "--db", str(db)).exit_code == 0
    return db


def assert_one_line(result, message: str, code: int = BAD_INPUT) -> None:
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert message in lines[0]


def assert_refused(db: Path, *args: str, message: str) -> None:
    before = snapshot(db)
    assert_one_line(run_cli(*args, "--db", str(db)), message)
    assert snapshot(db) == before


@pytest.mark.parametrize(
    "until",
    [
        "99999999999999999999h",
        "9999999d",
        "9999-12-31T23:59:59-12:00",  # in range here, past the year 9999 in UTC
        "0001-01-01T00:00:00+14:00",
    ],
)
def test_an_until_out_of_datetimes_range_is_refused(registered_db: Path, until: str):
    assert_refused(
        registered_db,
        *("ladder", "--game", "oregon", "--until", until),
        message=f"--until {until!r}: out of range (a time must fall within the years 1 to 9999",
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (("ladder", "--concurrency", "0"), "--concurrency must be >= 1 (not 0)"),
        (("ladder", "--move-time", "0"), "--move-time must be a finite number > 0 (not 0.0)"),
        (("tournament", "--deals", "0"), "--deals must be >= 1 (not 0)"),
        (("ladder", "--name", " "), "--name: give the ladder a name of 1 to 100 printable"),
        (("tournament", "--ray-cpus", "-1"), "--ray-cpus must be > 0"),
        # a board no game has: "no rated games", exit 0, before
        (("leaderboard", "--players", "9"), "--players 9: oregon is for 2-4 players"),
    ],
)
def test_a_setting_out_of_range_is_named_alone(registered_db: Path, args, message: str):
    """The ladder's were refused naming --deals, which arena ladder does not have; the
    leaderboard's impossible player count was no error, nor the ladder's blank name, taken for
    the default (outside review)."""
    command, *rest = args
    assert_refused(registered_db, command, "--game", "oregon", *rest, message=message)


@pytest.mark.parametrize(
    "args",
    [
        ("history", "--offset", BEYOND_INT64),
        ("history", "--offset", str(2**63)),
        ("replay", BEYOND_INT64),
        ("submissions", "list", "--limit", BEYOND_INT64),
    ],
)
def test_ids_offsets_and_limits_beyond_a_64_bit_integer_are_refused(registered_db: Path, args):
    assert_refused(registered_db, *args, message=f"less than or equal to {2**63 - 1}")


def test_an_infinite_validation_budget_of_the_worker_is_refused(registered_db: Path):
    args = ("submissions", "work", "--validation-minutes", "inf", "--once", "--sandbox", "none")
    assert_refused(registered_db, *args, message="less than or equal to 1440")


@pytest.mark.parametrize(
    "args",
    [
        ("tournament", "--resume", NOT_UTF8),
        ("history", "--tournament", NOT_UTF8),
        ("leaderboard", "--tournament", NOT_UTF8),
        ("bots", "withdraw", NOT_UTF8, "--reason", "x"),
        ("authors", "revoke", NOT_UTF8),
        ("submissions", "list", "--author", NOT_UTF8),
    ],
)
def test_an_argument_that_is_not_utf8_is_refused(registered_db: Path, args):
    assert_refused(registered_db, *args, message="argument '\\xff' is not UTF-8 text")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgresql://u@h\udcff:5432/x", "argument 'postgresql://u@h\\xff:5432/x' is not UTF-8"),
        (f"postgresql://u@{'a' * 64}:5432/x", f"'{'a' * 64}' is not a host name"),
        ("postgresql://u@a..b:5432/x", "'a..b' is not a host name"),
    ],
)
def test_a_database_url_whose_host_cannot_be_encoded_is_refused(url: str, message: str):
    assert_one_line(run_cli("history", "--db", url), message)


def test_arena_db_that_is_not_utf8_is_refused():
    result = CliRunner().invoke(app, ["history"], env={"ARENA_DB": "postgresql://u@h\udcff/x"})
    assert_one_line(result, "--db 'postgresql://u@h\\xff/x' is not UTF-8 text")


@pytest.mark.parametrize(
    "command",
    [
        ("history",),
        ("tournament", "--game", "oregon", "--bots", "random-python"),
        ("ladder", "--game", "oregon", "--until", "1"),
    ],
)
def test_a_database_path_no_file_can_have_is_refused(tmp_path: Path, command):
    too_long = tmp_path / ("a" * 300 + ".db")
    assert_one_line(run_cli(*command, "--db", str(too_long)), "File name too long")
    (tmp_path / "loop1.db").symlink_to(tmp_path / "loop2.db")
    (tmp_path / "loop2.db").symlink_to(tmp_path / "loop1.db")
    loop = tmp_path / "loop1.db"
    assert_one_line(run_cli(*command, "--db", str(loop)), "Too many levels of symbolic links")


def test_fixtures_out_that_is_a_file_is_refused(tmp_path: Path):
    (tmp_path / "a-file").write_text("kept\n")
    result = run_cli("fixtures", "oregon", "--out", str(tmp_path / "a-file"))
    assert_one_line(result, f"--out {tmp_path / 'a-file'}: cannot write there: Not a directory")
    assert (tmp_path / "a-file").read_text() == "kept\n"


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE schema_version SET version = version + 5", "written by a newer arena"),
        ("DELETE FROM schema_version", "arena database without a schema version (damaged)"),
    ],
)
def test_readers_refuse_a_schema_they_do_not_know_as_every_command_does(
    registered_db: Path, tmp_path: Path, sql: str, message: str
):
    db = tmp_path / "other.db"
    source, copy = sqlite3.connect(registered_db), sqlite3.connect(db)
    source.backup(copy)
    copy.execute(sql)
    copy.commit()
    source.close()
    copy.close()
    for command in ("history", "leaderboard", "serve"):  # the web served it
        assert_one_line(run_cli(command, "--db", str(db)), message, STORAGE_FAULT)
