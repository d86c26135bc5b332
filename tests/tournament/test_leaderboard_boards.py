"""``arena leaderboard`` over real small tournaments: one board per player count, filters by
player count and tournament, versions told apart, the Elo history, and schema 2 databases
migrated with their Elo rebuilt per board."""

from __future__ import annotations

import json
import shutil
import sqlite3
import zlib
from pathlib import Path

import pytest

from arena.storage import migrations
from arena.storage.database import open_database
from arena.storage.games import recomputed_elo, stored_elo
from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli


def _tournament(db: Path, name: str, bots: list[Path], players: int) -> None:
    done = run_cli(
        "tournament",
        "--game",
        "oregon",
        "--bots",
        ",".join(map(str, bots)),
        "--players",
        str(players),
        "--deals",
        "1",
        "--seed",
        str(zlib.crc32(name.encode())),  # one per tournament: one seed deals the same cards
        "--name",
        name,
        "--move-time",
        "10",
        "--db",
        str(db),
    )
    assert done.exit_code == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def arena_db(tmp_path_factory, three_bots) -> Path:
    """2-player "duo" (6 games) and 3-player "trio" (3 games) between random-python, random-node
    and "changing"; then "changing" changes its code (bot.toml's version unchanged) and plays
    "duo-again" (2 games) against random-python."""
    root = tmp_path_factory.mktemp("boards")
    db = root / "arena.db"
    changing = renamed_bot(SAMPLE_BOTS / "random-python", root / "changing", "changing")
    entrants = [three_bots[0], three_bots[1], changing]
    _tournament(db, "duo", entrants, 2)
    _tournament(db, "trio", entrants, 3)
    with (changing / "bot.py").open("a") as source:
        source.write("\n# changed: a new version under the same bot.toml version\n")
    _tournament(db, "duo-again", [changing, three_bots[0]], 2)
    return db


def leaderboard(db: Path, *args: str) -> list[dict]:
    done = run_cli("leaderboard", "--json", *args, "--db", str(db))
    assert done.exit_code == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def rows_by_label(board: dict) -> dict[str, dict]:
    return {f"{row['bot']}@{row['version']}": row for row in board["rows"]}


def test_one_board_per_player_count_each_with_its_own_elo(arena_db: Path):
    boards = leaderboard(arena_db)
    assert [(b["game"], b["players"]) for b in boards] == [("oregon", 2), ("oregon", 3)]
    duo, trio = (rows_by_label(board) for board in boards)
    # default: each bot's newest version that played on the board
    assert set(duo) == {"random-python@1.0.0", "random-node@1.0.0", "changing@1.0.0-r2"}
    assert {label: row["games"] for label, row in duo.items()} == {
        "random-python@1.0.0": 6,
        "random-node@1.0.0": 4,
        "changing@1.0.0-r2": 2,
    }
    assert set(trio) == {"random-python@1.0.0", "random-node@1.0.0", "changing@1.0.0"}
    assert all(row["games"] == 3 for row in trio.values())
    for row in [*duo.values(), *trio.values()]:
        assert row["batch"]["provisional"]  # a handful of games each
        assert row["forfeited"] == 0 and row["average_rank"] is not None
    per_board = query(
        arena_db,
        "SELECT players, count(*), sum(games) FROM elo_rating GROUP BY players ORDER BY players",
    )
    assert per_board == [(2, 4, 16), (3, 3, 9)]
    database = open_database(arena_db, create=False)
    with database.read() as session:
        for players in (2, 3):
            assert stored_elo(session, "oregon", players) == pytest.approx(
                recomputed_elo(session, "oregon", players)
            )
    database.close()


def test_players_tournament_and_version_filters(arena_db: Path):
    [trio] = leaderboard(arena_db, "--players", "3")
    assert trio["players"] == 3
    [duo] = leaderboard(arena_db, "--tournament", "duo")
    assert duo["tournament"] == "duo"
    assert {label: row["games"] for label, row in rows_by_label(duo).items()} == {
        "random-python@1.0.0": 4,
        "random-node@1.0.0": 4,
        "changing@1.0.0": 4,
    }
    [every] = leaderboard(arena_db, "--players", "2", "--all-versions")
    assert "changing@1.0.0" in rows_by_label(every) and "changing@1.0.0-r2" in rows_by_label(every)
    [asked] = leaderboard(arena_db, "--players", "2", "--bot", "changing@1.0.0")
    assert set(rows_by_label(asked)) == set(rows_by_label(every))
    positions = sorted(row["position"] for row in rows_by_label(every).values())
    assert positions[0] == 1 and positions[-1] <= 4
    unknown = run_cli("leaderboard", "--bot", "changing@9.9", "--db", str(arena_db))
    assert unknown.exit_code == 2 and "no version '9.9'" in unknown.stderr
    empty = run_cli("leaderboard", "--game", "oregon", "--players", "4", "--db", str(arena_db))
    assert empty.stdout.strip() == "no rated games of oregon with 4 players"  # not "yet"


def test_text_board_shows_version_labels_and_provisional_marks(arena_db: Path):
    done = run_cli("leaderboard", "--players", "2", "--all-versions", "--db", str(arena_db))
    assert done.exit_code == 0, done.stderr
    assert "oregon leaderboard, 2 players" in done.stdout
    assert "1.0.0-r2" in done.stdout and "?: provisional" in done.stdout
    listing = run_cli("bots", "--db", str(arena_db))  # the labels to name versions by
    assert listing.exit_code == 0 and "1.0.0-r2" in listing.stdout


def test_history_per_board_in_rating_order(arena_db: Path):
    histories = leaderboard(arena_db, "--history", "changing")
    assert [(h["game"], h["players"]) for h in histories] == [("oregon", 2), ("oregon", 3)]
    duo = histories[0]["history"]
    assert [entry["version"] for entry in duo] == ["1.0.0"] * 4 + ["1.0.0-r2"] * 2
    assert [entry["game_id"] for entry in duo] == sorted(entry["game_id"] for entry in duo)
    [only_new] = leaderboard(arena_db, "--history", "changing@1.0.0-r2")
    assert len(only_new["history"]) == 2
    text = run_cli(
        "leaderboard",
        "--history",
        "changing",
        "--players",
        "2",
        "--limit",
        "3",
        "--db",
        str(arena_db),
    )
    assert text.exit_code == 0, text.stderr
    assert "Elo history" in text.stdout and "last 3 of 6 games listed" in text.stdout
    # a chart per version, each Elo its own (review H: one line joined them)
    charts = [line for line in text.stdout.splitlines() if line.startswith("1.0.0")]
    assert [line.split(":")[0] for line in charts] == ["1.0.0, 4 games", "1.0.0-r2, 2 games"]
    assert all(any(block in line for block in "▁▂▃▄▅▆▇█") for line in charts)
    missing = run_cli("leaderboard", "--history", "nobody", "--db", str(arena_db))
    assert missing.exit_code == 2 and "unknown bot 'nobody'" in missing.stderr


def _as_schema_2(db: Path) -> None:
    """Turn the file into what schema 2 wrote: no seals, Elo pooled over player counts."""
    with sqlite3.connect(db) as raw:
        raw.execute("ALTER TABLE game DROP COLUMN verification")
        raw.execute("DROP TABLE elo_rating")
        raw.execute("DROP TABLE rating_history")
        raw.execute(
            "CREATE TABLE elo_rating (game VARCHAR NOT NULL, bot_version_id INTEGER NOT "
            "NULL, rating FLOAT NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (game, "
            "bot_version_id))"
        )
        raw.execute(
            "CREATE TABLE rating_history (id INTEGER PRIMARY KEY, game_id INTEGER NOT "
            "NULL, game VARCHAR NOT NULL, bot_version_id INTEGER NOT NULL, before FLOAT "
            "NOT NULL, after FLOAT NOT NULL)"
        )
        raw.execute("INSERT INTO elo_rating VALUES ('oregon', 1, 1234.0, 99)")
        raw.execute("INSERT INTO rating_history VALUES (1, 1, 'oregon', 1, 1500.0, 1234.0)")
        raw.execute("UPDATE schema_version SET version = 2")


def test_schema_2_is_migrated_with_elo_rebuilt_per_board(arena_db: Path, tmp_path: Path):
    db = tmp_path / "old.db"
    shutil.copy(arena_db, db)
    _as_schema_2(db)
    refused = run_cli("leaderboard", "--db", str(db))  # reading never migrates
    assert refused.exit_code == 2 and "needs an upgrade" in refused.stderr
    open_database(db, create=True).close()
    assert query(db, "SELECT version FROM schema_version") == [(migrations.CURRENT_VERSION,)]
    assert query(db, "SELECT count(*) FROM game WHERE verification IS NOT NULL") == [(0,)]
    assert query(
        db, "SELECT players, count(*), sum(games) FROM elo_rating GROUP BY players"
    ) == query(arena_db, "SELECT players, count(*), sum(games) FROM elo_rating GROUP BY players")
    assert query(
        db, "SELECT game_id, players, bot_version_id, before, after FROM rating_history ORDER BY id"
    ) == query(
        arena_db,
        "SELECT game_id, players, bot_version_id, before, after FROM rating_history ORDER BY id",
    )
    assert leaderboard(db) == leaderboard(arena_db)
    old = run_cli("replay", "1", "--db", str(db))
    assert old.exit_code == 0, old.stderr
    assert "unverified" in old.stdout


def test_bots_that_never_met_are_rated_in_separate_pools(tmp_path: Path, three_bots):
    db = tmp_path / "arena.db"
    fourth = renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "fourth", "fourth")
    _tournament(db, "first", three_bots[:2], 2)
    _tournament(db, "second", [three_bots[2], fourth], 2)
    [board] = leaderboard(db)
    pools = {
        row["bot"]: (row["batch"]["pool"], row["batch"]["pools"], row["position"])
        for row in board["rows"]
    }
    assert {pool for pool, _, _ in pools.values()} == {1, 2}
    assert all(count == 2 for _, count, _ in pools.values())
    for pool in (1, 2):  # positions restart in each pool; an even record shares the first
        rows = [row for row in board["rows"] if row["batch"]["pool"] == pool]
        ratings = [row["batch"]["rating"] for row in rows]
        tied = None not in ratings and round(ratings[0], 2) == round(ratings[1], 2)
        assert sorted(row["position"] for row in rows) == ([1, 1] if tied else [1, 2])
    text = run_cli("leaderboard", "--db", str(db))
    assert "pool 2 of 2: not comparable with pool 1" in text.stdout
