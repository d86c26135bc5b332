"""``arena replay --verify`` on tampered copies of a real database: every single-action change,
seat swap, seed change, score or rank change and bot version change is detected (exit 1); the
intact games verify (exit 0)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.game_setup import load_game
from arena.storage.database import open_database
from tests.tournament.helpers import query, run_cli


@pytest.fixture(scope="module")
def arena_db(tmp_path_factory, three_bots) -> Path:
    """A 2-player and a 3-player Oregon tournament between random bots (6 + 3 games)."""
    db = tmp_path_factory.mktemp("sealed") / "arena.db"
    for players in (2, 3):
        done = run_cli(
            "tournament",
            "--game",
            "oregon",
            "--bots",
            ",".join(map(str, three_bots)),
            "--players",
            str(players),
            "--deals",
            "1",
            "--seed",
            str(9 + players),  # a seed of its own: the same one would deal the same cards
            "--move-time",
            "10",
            "--name",
            f"t{players}",
            "--db",
            str(db),
        )
        assert done.exit_code == 0, done.stdout + done.stderr
    return db


def verify(db: Path, game_id: int):
    return run_cli("replay", str(game_id), "--verify", "--db", str(db))


def tampered(source: Path, target: Path, change: Callable[[sqlite3.Connection], None]) -> Path:
    shutil.copy(source, target)
    with sqlite3.connect(target) as raw:
        change(raw)
    return target


def test_every_stored_game_verifies(arena_db: Path):
    for (game_id,) in query(arena_db, "SELECT id FROM game"):
        done = verify(arena_db, game_id)
        assert done.exit_code == 0, done.stderr
        assert f"game {game_id} verified" in done.stdout


def _alternatives(game_id: int, db: Path) -> list[tuple[int, int]]:
    """(decision number, another legal index) for every decision with a choice."""
    game, players, seed, actions, options = query(
        db, "SELECT game, num_players, seed, actions, options FROM game WHERE id = ?", game_id
    )[0]
    state = load_game(game).new_game(players, seed, json.loads(options))
    found = []
    for number, index in enumerate(json.loads(actions)):
        legal = len(state.legal_actions())
        if legal > 1:
            found.append((number, (index + 1) % legal))
        state.apply_index(index)
    return found


def test_every_single_action_change_is_detected(arena_db: Path, tmp_path: Path):
    choices = _alternatives(1, arena_db)
    picks = choices[:: max(1, len(choices) // 12)] + [choices[-1]]  # spread over the game
    assert len(picks) >= 10
    for number, index in picks:

        def change(raw: sqlite3.Connection, number: int = number, index: int = index) -> None:
            actions = json.loads(raw.execute("SELECT actions FROM game WHERE id = 1").fetchone()[0])
            actions[number] = index
            raw.execute("UPDATE game SET actions = ? WHERE id = 1", (json.dumps(actions),))

        db = tampered(arena_db, tmp_path / f"action-{number}.db", change)
        done = verify(db, 1)
        assert done.exit_code == 1, (number, done.stdout)
        assert "game 1 failed verification" in done.stderr


@pytest.mark.parametrize(
    ("name", "sql"),
    [
        (
            "seat swap, 2 players",
            (
                "UPDATE seat SET bot_version_id = CASE seat WHEN 0 THEN "
                "(SELECT bot_version_id FROM seat WHERE game_id = 1 AND seat = 1) ELSE "
                "(SELECT bot_version_id FROM seat WHERE game_id = 1 AND seat = 0) END "
                "WHERE game_id = 1 AND seat IN (0, 1)"
            ),
        ),
        (
            "seat swap, 3 players",
            (
                "UPDATE seat SET bot_version_id = CASE seat WHEN 1 THEN "
                "(SELECT bot_version_id FROM seat WHERE game_id = 7 AND seat = 2) ELSE "
                "(SELECT bot_version_id FROM seat WHERE game_id = 7 AND seat = 1) END "
                "WHERE game_id = 7 AND seat IN (1, 2)"
            ),
        ),
        ("seed", "UPDATE game SET seed = seed + 1 WHERE id = 1"),
        ("seed, 3 players", "UPDATE game SET seed = seed - 1 WHERE id = 7"),
        ("score", "UPDATE seat SET score = score + 1 WHERE game_id = 1 AND seat = 0"),
        ("rank", "UPDATE seat SET rank = 3 - rank WHERE game_id = 1"),
        ("outcome", "UPDATE seat SET outcome = 'TIMEOUT' WHERE game_id = 1 AND seat = 1"),
        (
            "bot version's code",
            (
                "UPDATE bot_version SET content_hash = 'x' || content_hash "
                "WHERE id = (SELECT bot_version_id FROM seat WHERE game_id = 1 AND seat = 0)"
            ),
        ),
        ("options", "UPDATE game SET options = '{\"cards\": 1}' WHERE id = 1"),
        (
            "a log cut short",
            "UPDATE game SET actions = json_remove(actions, '$[#-1]') WHERE id = 1",
        ),
    ],
)
def test_changed_games_fail_verification(arena_db: Path, tmp_path: Path, name: str, sql: str):
    db = tampered(arena_db, tmp_path / "tampered.db", lambda raw: raw.execute(sql))
    game_id = 7 if "3 players" in name else 1
    assert query(db, "SELECT num_players FROM game WHERE id = ?", game_id)[0][0] == (
        3 if "3" in name else 2
    )
    done = verify(db, game_id)
    assert done.exit_code == 1, (name, done.stdout, done.stderr)
    assert f"game {game_id} failed verification" in done.stderr
    shown = run_cli("replay", str(game_id), "--db", str(db))  # with the rendering, too
    assert shown.exit_code == 1


def test_a_log_that_does_not_replay_is_a_failed_check(arena_db: Path, tmp_path: Path):
    db = tampered(
        arena_db,
        tmp_path / "broken.db",
        lambda raw: raw.execute(
            "UPDATE game SET actions = json_set(actions, '$[0]', 999) WHERE id = 2"
        ),
    )
    done = verify(db, 2)
    assert done.exit_code == 1, done.stdout
    assert "failed verification" in done.stderr


SWAP_SEATS_OF_GAME_3 = (
    "UPDATE seat SET bot_version_id = CASE seat WHEN 0 THEN "
    "(SELECT bot_version_id FROM seat WHERE game_id = 3 AND seat = 1) ELSE "
    "(SELECT bot_version_id FROM seat WHERE game_id = 3 AND seat = 0) END "
    "WHERE game_id = 3 AND seat IN (0, 1)"
)


@pytest.mark.parametrize("swap", [False, True], ids=["stripped", "stripped and seats swapped"])
def test_a_removed_seal_fails_verification(arena_db: Path, tmp_path: Path, swap: bool):
    """Passed as "unverified (before schema 3)" before the database recorded when it started
    sealing: a seal could be stripped to hide any change the replay cannot see."""

    def strip(raw: sqlite3.Connection) -> None:
        raw.execute("UPDATE game SET verification = NULL WHERE id = 3")
        if swap:
            raw.execute(SWAP_SEATS_OF_GAME_3)

    done = verify(tampered(arena_db, tmp_path / "stripped.db", strip), 3)
    assert done.exit_code == 1, done.stdout
    assert "game 3 failed verification: its seal is missing" in done.stderr
    assert "every game from id 1 on was stored with one" in done.stderr


def test_games_stored_before_seals_replay_unverified(arena_db: Path, tmp_path: Path):
    """Games 1-3 as an arena before schema 3 stored them: no seal, and sealing from game 4."""

    def before_seals(raw: sqlite3.Connection) -> None:
        raw.execute("UPDATE game SET verification = NULL WHERE id <= 3")
        raw.execute("UPDATE sealing SET sealed_from_game = 4")

    db = tampered(arena_db, tmp_path / "old.db", before_seals)
    done = verify(db, 3)
    assert done.exit_code == 0, done.stderr
    assert "unverified" in done.stdout
    assert verify(db, 4).exit_code == 0
    changed = tampered(
        db,
        tmp_path / "old-changed.db",
        lambda raw: raw.execute("UPDATE seat SET score = score + 5 WHERE game_id = 3 AND seat = 1"),
    )
    assert verify(changed, 3).exit_code == 1  # the result is still checked


def test_migration_seals_from_the_first_sealed_game(arena_db: Path, tmp_path: Path):
    """A schema-3 file whose games 1-2 were stored before seals: from game 3 on, a removed seal
    fails; a file that lost its sealing record holds every game to a seal."""

    def schema_3(raw: sqlite3.Connection) -> None:
        raw.execute("UPDATE game SET verification = NULL WHERE id <= 2")
        raw.execute("DROP TABLE sealing")
        raw.execute("UPDATE schema_version SET version = 3")

    db = tampered(arena_db, tmp_path / "schema3.db", schema_3)
    open_database(db, create=True).close()  # migrates
    assert query(db, "SELECT sealed_from_game FROM sealing") == [(3,)]
    assert verify(db, 2).exit_code == 0
    stripped = tampered(
        db,
        tmp_path / "stripped.db",
        lambda raw: raw.execute("UPDATE game SET verification = NULL WHERE id = 3"),
    )
    assert verify(stripped, 3).exit_code == 1
    no_record = tampered(
        db, tmp_path / "no-record.db", lambda raw: raw.execute("DELETE FROM sealing")
    )
    assert verify(no_record, 2).exit_code == 1
