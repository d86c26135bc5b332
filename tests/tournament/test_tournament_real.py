"""Real tournaments: real bot processes (Python and Node), real gRPC, a real SQLite file."""

import json
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest

from arena.storage.database import open_database
from arena.storage.games import recomputed_elo, stored_elo
from arena.tournament.schedule import build_schedule
from tests.support.node import requires_node
from tests.tournament.helpers import query, run_cli

pytestmark = pytest.mark.slow  # real bot processes


def check_ratings_recomputed_equal_stored(db: Path, players: int = 2) -> None:
    database = open_database(db, create=False)
    with database.read() as session:
        assert stored_elo(session, "oregon", players) == pytest.approx(
            recomputed_elo(session, "oregon", players)
        )
    database.close()


@requires_node
@pytest.mark.parametrize(("players", "deals", "expected_games"), [(2, 1, 6), (3, 2, 6)])
def test_round_robin_plays_the_whole_schedule(
    tmp_path: Path, three_bots, players, deals, expected_games
):
    db = tmp_path / "arena.db"
    result = run_cli(
        "tournament",
        "--game",
        "oregon",
        "--bots",
        ",".join(map(str, three_bots)),
        "--players",
        str(players),
        "--deals",
        str(deals),
        "--concurrency",
        "2",
        "--seed",
        "7",
        "--move-time",
        "10",
        "--name",
        "rr",
        "--db",
        str(db),
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "oregon leaderboard" in result.stdout

    games = query(db, "SELECT id, schedule_key, seed, status FROM game ORDER BY id")
    assert len(games) == expected_games
    assert {status for *_, status in games} == {"finished"}
    schedule = {game.key: game for game in build_schedule(3, players, deals, seed=7)}
    assert sorted(key for _, key, _, _ in games) == sorted(schedule)
    assert all(seed == schedule[key].seed for _, key, seed, _ in games)

    # every entrant sat in every seat of every deal
    entrant_of = dict(query(db, "SELECT bot_version_id, position FROM tournament_entrant"))
    seatings = defaultdict(set)
    for key, seat, version in query(
        db,
        "SELECT g.schedule_key, s.seat, s.bot_version_id "
        "FROM seat s JOIN game g ON g.id = s.game_id",
    ):
        scheduled = schedule[key]
        assert scheduled.seats[seat] == entrant_of[version]
        seatings[scheduled.pod, scheduled.deal].add((entrant_of[version], seat))
    for (pod, _), seen in seatings.items():
        assert seen == {(int(e), s) for e in pod.split("+") for s in range(players)}

    assert query(db, "SELECT count(*) FROM rating_history")[0][0] == expected_games * players
    assert len(query(db, "SELECT * FROM elo_rating")) == 3
    check_ratings_recomputed_equal_stored(db, players)
    assert query(db, "SELECT state FROM tournament") == [("finished",)]

    board = json.loads(run_cli("leaderboard", "--json", "--db", str(db)).stdout)
    [oregon] = board
    assert sorted(row["bot"] for row in oregon["rows"]) == [
        "random-node",
        "random-python",
        "random-python-2",
    ]
    assert {row["games"] for row in oregon["rows"]} == {expected_games * players // 3}


@requires_node
def test_cross_table_and_replay_of_a_stored_game(tmp_path: Path, three_bots):
    db = tmp_path / "arena.db"
    assert (
        run_cli(
            "tournament",
            "--game",
            "oregon",
            "--bots",
            ",".join(map(str, three_bots[:2])),
            "--deals",
            "1",
            "--seed",
            "3",
            "--db",
            str(db),
        ).exit_code
        == 0
    )
    table = run_cli("leaderboard", "--game", "oregon", "--crosstable", "--db", str(db))
    assert table.exit_code == 0 and "head to head" in table.stdout
    replayed = run_cli("replay", "1", "--db", str(db))
    assert replayed.exit_code == 0, replayed.stderr
    assert "verified" in replayed.stdout
    assert run_cli("replay", "2", "--seat", "1", "--db", str(db)).exit_code == 0

    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE seat SET score = score + 1 WHERE game_id = 1 AND seat = 0")
    tampered = run_cli("replay", "1", "--db", str(db))
    assert tampered.exit_code == 1
    assert "differs from the stored result" in tampered.stderr


@pytest.mark.parametrize("game", ["ogallala", "merkator"])
def test_other_games_are_stored_rated_and_replayed(tmp_path: Path, three_bots, game: str):
    db = tmp_path / "arena.db"
    bots = f"{three_bots[0]},{three_bots[2]}"
    result = run_cli(
        "tournament",
        "--game",
        game,
        "--bots",
        bots,
        "--deals",
        "1",
        "--seed",
        "5",
        "--move-time",
        "10",
        "--db",
        str(db),
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert query(
        db, "SELECT count(*), min(game), max(game) FROM game WHERE status = 'finished'"
    ) == [(2, game, game)]
    assert query(db, "SELECT count(*) FROM rating_history")[0][0] == 4
    for game_id in (1, 2):
        replayed = run_cli("replay", str(game_id), "--db", str(db))
        assert replayed.exit_code == 0 and "verified" in replayed.stdout, replayed.stderr
