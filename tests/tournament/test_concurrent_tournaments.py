"""Two arena processes running tournaments on the same database at once lose nothing."""

from pathlib import Path

import pytest

from arena.storage.database import open_database
from arena.storage.games import recomputed_elo, stored_elo
from tests.tournament.helpers import query, run_cli, start_cli

pytestmark = pytest.mark.slow  # real CLI and bot processes


def test_two_tournaments_at_once_on_one_database(tmp_path: Path, three_bots):
    db = tmp_path / "arena.db"
    python_bots = [three_bots[0], three_bots[2]]
    for bot in python_bots:
        assert run_cli("submit", str(bot), "--db", str(db)).exit_code == 0
    names = "random-python,random-python-2"
    processes = [
        start_cli(
            "tournament",
            "--game",
            "oregon",
            "--bots",
            names,
            "--deals",
            "2",
            "--seed",
            str(seed),
            "--name",
            f"t{seed}",
            "--db",
            str(db),
        )
        for seed in (1, 2)
    ]
    for process in processes:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, out + err

    per_tournament = query(
        db,
        "SELECT tournament_id, count(*) FROM game WHERE status = 'finished' GROUP BY tournament_id",
    )
    assert [count for _, count in per_tournament] == [4, 4]
    assert query(db, "SELECT count(*) FROM rating_history")[0][0] == 16
    assert query(db, "SELECT sum(games) FROM elo_rating")[0][0] == 16
    database = open_database(db, create=False)
    with database.read() as session:
        assert stored_elo(session, "oregon", 2) == pytest.approx(
            recomputed_elo(session, "oregon", 2)
        )
    database.close()
