"""/ladder and /api/ladder without an id open on the newest ladder that runs, else the newest."""

import sqlite3
from pathlib import Path

from starlette.testclient import TestClient

from arena.storage.target import DatabaseTarget
from arena.web.app import create_app
from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli
from tests.tournament.test_withdrawal import submit
from tests.web.conftest import run_in_progress


def test_the_ladder_page_opens_on_the_ladder_that_runs(tmp_path: Path):
    """Not on a later ladder that stopped (outside review: a short side ladder hid the one
    going on)."""
    db = tmp_path / "arena.db"
    for name in ("a", "b"):
        submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / name, name))
    for name in ("main", "side"):
        made = run_cli("ladder", "--game", "oregon", "--until", "0", "--sandbox", "none",
                       "--name", name, "--db", str(db))  # fmt: skip
        assert made.exit_code == 0, made.output
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE tournament SET state = 'running' WHERE name = 'main'")
    [(main_id,)] = query(db, "SELECT id FROM tournament WHERE name = 'main'")

    def shown() -> str:
        return TestClient(create_app(db, warm_up=False)).get("/api/ladder").json()["ladder"]["name"]

    with run_in_progress(db, main_id):
        assert shown() == "main"
    assert shown() == "side"  # main's process is gone: the newest


def test_the_ladder_charts_times_carry_their_utc_offset(tmp_path: Path, db_target: DatabaseTarget):
    """Read back naive (PostgreSQL's timestamp), they went out without an offset, which a
    browser reads as its own local time: the chart's "UTC" was off by the viewer's offset
    (review of the change)."""
    db = db_target
    for name in ("a", "b"):
        submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / name, name))
    made = run_cli("ladder", "--game", "oregon", "--until", "2", "--sandbox", "none",
                   "--db", str(db))  # fmt: skip
    assert made.exit_code == 0, made.output
    history = TestClient(create_app(db, warm_up=False)).get("/api/ladder").json()
    times = [entry["finished_at"] for entry in history["ladder"]["rating_history"]]
    assert times and all(time.endswith("+00:00") for time in times), times
