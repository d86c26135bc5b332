"""Each game's part of a bot's kept log (``--bot-logs``), stored per seat (``seat_log``): a bot
kept up across games writes one file, and every game it played points at its own slice of it;
``arena match`` writes a file per game. The chatty test bot says on stderr when each game starts
and ends, with the game's id for its seat, so a slice can be told to belong to its game."""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.storage import migrations
from tests.support.bots import SAMPLE_BOTS, TEST_BOTS
from tests.support.log_names import unstamped
from tests.support.schemas import as_schema_7

runner = CliRunner()
CHATTY = TEST_BOTS / "chatty"


def seat_logs(db: Path) -> list[tuple[int, str, str, int, int]]:
    """(game id, bot name, file, start, end) of every stored slice."""
    with sqlite3.connect(db) as connection:
        return connection.execute(
            'SELECT l.game_id, b.name, l.path, l.start, l."end" FROM seat_log l '
            "JOIN seat s ON s.game_id = l.game_id AND s.seat = l.seat "
            "JOIN bot_version v ON v.id = s.bot_version_id JOIN bot b ON b.id = v.bot_id "
            "ORDER BY l.game_id, l.seat"
        ).fetchall()


def games_said(text: str) -> tuple[list[str], list[str]]:
    """The game ids the chatty bot said it started and ended in ``text``."""
    return re.findall(r"^start (\S+)$", text, re.M), re.findall(r"^end (\S+)$", text, re.M)


@pytest.mark.parametrize("workers", [1, 2])
def test_every_game_points_at_its_own_slice_of_a_kept_up_bots_log(tmp_path, workers):
    logs, db = tmp_path / "logs", tmp_path / "arena.db"
    arguments = ["tournament", "--game", "oregon", "--name", "t", "--db", str(db)]
    arguments += ["--bots", f"{CHATTY},{SAMPLE_BOTS / 'random-python'}", "--deals", "3"]
    arguments += ["--concurrency", "2", "--bot-logs", str(logs), "--sandbox", "none"]
    if workers > 1:
        arguments += ["--workers", str(workers)]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output

    rows = seat_logs(db)
    with sqlite3.connect(db) as connection:
        (games,) = connection.execute("SELECT COUNT(*) FROM game").fetchone()
    assert games == 6 and len(rows) == 2 * games  # every seat of every game has its slice
    by_file: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for _game, bot, path, start, end in rows:
        assert Path(path).parent == logs.resolve()
        by_file[path].append((start, end))
        if bot == "chatty":
            data = Path(path).read_bytes()[start:end].decode()
            started, ended = games_said(data)
            assert len(started) == 1 and started == ended, data  # this game, and no other
    for path, slices in by_file.items():
        # a file's games follow each other without a gap or an overlap, up to its end
        slices.sort()
        assert slices[0][0] == 0, path
        assert all(a[1] == b[0] for a, b in zip(slices, slices[1:])), (path, slices)
        assert slices[-1][1] == Path(path).stat().st_size, path
    # a process per game slot, each with its own file, and a new one where a slot's next game
    # is a deal its process played (it would know the cards; arena.referee.pool): which games a
    # slot gets depends on the pace of the others, so 2 to 5 here (a slot rather replaces its
    # bots than play the second rotation of a deal in play in the other slot, which could not
    # be shown live); never a deal twice in one file
    with sqlite3.connect(db) as connection:
        seed = dict(connection.execute("SELECT id, seed FROM game").fetchall())
    deals_by_file: dict[str, list[int]] = defaultdict(list)
    for game, bot, path, _, _ in rows:
        if bot == "chatty":
            deals_by_file[path].append(seed[game])
    assert 2 <= len(deals_by_file) <= 5, deals_by_file
    assert all(len(deals) == len(set(deals)) for deals in deals_by_file.values()), deals_by_file
    for path in deals_by_file:  # no other process wrote into it
        assert Path(path).read_text().count("chatty up") == 1


def test_a_later_run_never_writes_into_the_logs_of_stored_games(tmp_path):
    logs, db = tmp_path / "logs", tmp_path / "arena.db"
    arguments = ["tournament", "--game", "oregon", "--db", str(db), "--bot-logs", str(logs)]
    arguments += ["--bots", f"{CHATTY},{SAMPLE_BOTS / 'random-python'}", "--deals", "1"]
    arguments += ["--concurrency", "1", "--sandbox", "none"]
    for name in ("first", "second"):
        result = runner.invoke(app, [*arguments, "--name", name])
        assert result.exit_code == 0, result.output
    rows = [row for row in seat_logs(db) if row[1] == "chatty"]
    # a process per rotation of each run's one deal (arena.referee.pool); the second run's
    # processes write new files
    assert len({path for _, _, path, _, _ in rows}) == 4
    for _, _, path, start, end in rows:
        started, _ = games_said(Path(path).read_bytes()[start:end].decode())
        assert len(started) == 1


def test_a_match_keeps_a_log_per_game_and_its_crash_in_it(tmp_path):
    logs, db = tmp_path / "logs", tmp_path / "arena.db"
    result = runner.invoke(
        app,
        [
            "match",
            str(CHATTY),
            str(TEST_BOTS / "exits-midgame"),
            "--game",
            "oregon",
            "--seed",
            "7",
            "--bot-logs",
            str(logs),
            "--db",
            str(db),
            "--sandbox",
            "none",
        ],
    )
    assert result.exit_code == 3, result.output  # exits-midgame forfeits
    rows = seat_logs(db)
    assert [(bot, unstamped(Path(path).name)) for _, bot, path, _, _ in rows] == [
        ("chatty", "7-seat0-chatty.log"),
        ("exits-midgame", "7-seat1-exits-midgame.log"),
    ]
    for _, _, path, start, end in rows:
        assert (start, end) == (0, Path(path).stat().st_size)
    assert "exiting on purpose" in Path(rows[1][2]).read_text()


def test_no_slice_is_stored_without_kept_logs(tmp_path):
    db = tmp_path / "arena.db"
    arguments = ["match", str(CHATTY), str(SAMPLE_BOTS / "random-python"), "--game", "oregon"]
    result = runner.invoke(app, [*arguments, "--db", str(db), "--sandbox", "none"])
    assert result.exit_code == 0, result.output
    assert seat_logs(db) == []


def test_a_schema_7_database_gains_seat_logs_and_its_games_keep_none(tmp_path):
    db = tmp_path / "arena.db"
    arguments = ["match", str(CHATTY), str(SAMPLE_BOTS / "random-python"), "--game", "oregon"]
    arguments += ["--db", str(db), "--sandbox", "none", "--bot-logs", str(tmp_path / "logs")]
    assert runner.invoke(app, arguments).exit_code == 0
    with sqlite3.connect(db) as raw:
        as_schema_7(raw)
    assert runner.invoke(app, arguments).exit_code == 0  # migrated, then the next game stored
    with sqlite3.connect(db) as connection:
        version = connection.execute("SELECT version FROM schema_version").fetchall()
    assert version == [(migrations.CURRENT_VERSION,)]
    assert [game for game, *_ in seat_logs(db)] == [2, 2]  # the first game's slices are gone


def test_a_match_played_again_with_the_same_seed_keeps_each_games_log(tmp_path):
    db, logs = tmp_path / "arena.db", tmp_path / "logs"
    arguments = ["match", str(CHATTY), str(SAMPLE_BOTS / "random-python"), "--game", "oregon"]
    arguments += ["--seed", "7", "--db", str(db), "--sandbox", "none", "--bot-logs", str(logs)]

    assert runner.invoke(app, arguments).exit_code == 0
    ((_, _, first_path, start, end), _) = seat_logs(db)
    first = Path(first_path).read_bytes()[start:end]
    assert runner.invoke(app, arguments).exit_code == 0  # the same seed, seats and bots

    rows = seat_logs(db)
    assert len({path for _, _, path, _, _ in rows}) == 4  # a file of its own per game and seat
    assert Path(first_path).read_bytes()[start:end] == first  # game 1's slice: game 1's bytes
    (_, _, second_path, start, end) = rows[2]
    started, _ = games_said(Path(second_path).read_text()[start:end])
    assert started and started != games_said(first.decode())[0]
