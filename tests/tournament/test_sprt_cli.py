"""``arena sprt``: real tests between sample bots decide (H1 for the heuristic bot against the
random one, H0 the other way round), are stored as tournaments (leaderboard, resume), and stop
undecided at --max-games; pairs count in deal order whatever order games finish in."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.tournament.sprt import PairedTest, SprtParameters
from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli

HEURISTIC = SAMPLE_BOTS / "heuristic-python"
RANDOM = SAMPLE_BOTS / "random-python"
# Wide bounds: a 200-point question the heuristic bot answers in a handful of pairs.
WIDE = ("--elo0", "0", "--elo1", "200", "--max-games", "60", "--move-time", "10")


def sprt(db: Path, *args: str):
    return run_cli("sprt", "--game", "oregon", *args, "--json", "--db", str(db))


def test_heuristic_against_random_accepts_h1_and_is_stored(tmp_path: Path):
    db = tmp_path / "arena.db"
    done = sprt(db, str(HEURISTIC), str(RANDOM), *WIDE, "--seed", "4", "--name", "h-vs-r")
    assert done.exit_code == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "H1" and result["llr"] >= result["bounds"][1]
    assert result["new"].startswith("heuristic-python@") and result["pairs"] <= 30
    assert sum(result["pentanomial"]) == result["pairs"]
    assert result["games"] >= 2 * result["pairs"]  # games still running at the decision count too
    assert query(db, "SELECT state FROM tournament WHERE name = 'h-vs-r'") == [("finished",)]

    [board] = json.loads(
        run_cli("leaderboard", "--tournament", "h-vs-r", "--json", "--db", str(db)).stdout
    )
    assert board["rows"][0]["bot"] == "heuristic-python"
    assert sum(row["games"] for row in board["rows"]) == 2 * result["games"]

    again = run_cli("sprt", "--resume", "h-vs-r", "--json", "--db", str(db))
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout) == result  # decided: nothing more is played
    wrong = run_cli("tournament", "--resume", "h-vs-r", "--db", str(db))
    assert wrong.exit_code == 2 and "arena sprt --resume h-vs-r" in wrong.stderr


def test_random_against_heuristic_accepts_h0(tmp_path: Path):
    done = sprt(tmp_path / "arena.db", str(RANDOM), str(HEURISTIC), *WIDE, "--seed", "5")
    assert done.exit_code == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "H0" and result["llr"] <= result["bounds"][0]


def test_the_games_can_be_played_in_worker_processes(tmp_path: Path):
    db = tmp_path / "arena.db"
    done = sprt(db, str(RANDOM), str(HEURISTIC), *WIDE, "--seed", "5", "--workers", "2")
    assert done.exit_code == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)  # stdout is the JSON alone
    assert result["status"] == "H0"
    assert query(db, "SELECT count(*) FROM game WHERE status = 'finished'")[0][0] == result["games"]


def test_undecided_at_max_games_exits_1_and_resumes_from_the_stored_games(
    tmp_path: Path, three_bots
):
    db = tmp_path / "arena.db"
    done = sprt(
        db,
        str(three_bots[0]),
        str(three_bots[2]),
        "--max-games",
        "4",
        "--seed",
        "6",
        "--name",
        "even",
        "--move-time",
        "10",
    )
    assert done.exit_code == 1, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "continue" and result["pairs"] == 2 and result["games"] == 4
    assert "undecided" in done.stderr
    again = run_cli("sprt", "--resume", "even", "--json", "--db", str(db))
    assert again.exit_code == 1
    assert json.loads(again.stdout)["pentanomial"] == result["pentanomial"]
    assert "`arena sprt --resume even --max-games N` goes on to N games" in again.stderr
    # the limit raised: the same pairs first, then two more (it could not be: outside review)
    seeds = query(db, "SELECT seed FROM game ORDER BY id")
    longer = run_cli("sprt", "--resume", "even", "--max-games", "8", "--json", "--db", str(db))
    assert longer.exit_code == 1, longer.stderr
    assert "ignored" not in longer.stderr
    extended = json.loads(longer.stdout)
    assert extended["pairs"] == 4 and extended["games"] == 8
    assert query(db, "SELECT seed FROM game ORDER BY id")[:4] == seeds
    lower = run_cli("sprt", "--resume", "even", "--max-games", "6", "--db", str(db))
    assert lower.exit_code == 2
    assert "--max-games 6: a test's limit may only be raised (it is 8)" in lower.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--players", "3"), "multiplayer SPRT is not supported"),
        (("--elo0", "10", "--elo1", "0"), "elo0 (10.0) must be below elo1 (0.0)"),
        (("--max-games", "1"), "--max-games must be at least 2"),
        (("--workers", "2", "--ray", "127.0.0.1:1"), "give --workers (this machine's cores) or"),
    ],
)
def test_bad_requests_store_nothing(tmp_path: Path, args, message):
    db = tmp_path / "arena.db"
    done = sprt(db, str(HEURISTIC), str(RANDOM), *args)
    assert done.exit_code == 2 and message in done.stderr
    assert not db.exists()


def test_the_same_version_twice_is_refused(tmp_path: Path):
    done = sprt(tmp_path / "arena.db", str(RANDOM), str(RANDOM))
    assert done.exit_code == 2 and "both unregistered bots named 'random-python'" in done.stderr


def test_a_version_whose_code_is_gone_from_its_directory_is_refused(tmp_path: Path):
    # Two uploads of one directory: its code is the second's, so the first can no longer be run.
    db = tmp_path / "arena.db"
    changing = renamed_bot(RANDOM, tmp_path / "changing", "changing")
    assert run_cli("submit", str(changing), "--db", str(db)).exit_code == 0
    with (changing / "bot.py").open("a") as source:
        source.write("\n# changed: a new version under the same bot.toml version\n")
    assert run_cli("submit", str(changing), "--db", str(db)).exit_code == 0
    done = sprt(db, "changing@1.0.0-r2", "changing@1.0.0", "--max-games", "2")
    assert done.exit_code == 2 and "changed in" in done.stderr, done.stdout + done.stderr
    assert query(db, "SELECT count(*) FROM tournament") == [(0,)]


def test_pairs_count_in_deal_order_whatever_order_games_finish_in():
    rng = random.Random(1)
    games = [
        (deal, rotation, rng.choice([0.0, 0.5, 1.0, 1.0]))
        for deal in range(300)
        for rotation in (0, 1)
    ]
    decisions = set()
    for shuffle in range(5):
        order = games[:]
        random.Random(shuffle).shuffle(order)
        paired = PairedTest(SprtParameters(0, 100).new_test())
        for game in order:
            paired.add(*game)
        decisions.add((paired.test.status, paired.decided_at_pair, tuple(paired.test.counts)))
    assert len(decisions) == 1
    [(status, at, counts)] = decisions
    assert status in ("H0", "H1") and sum(counts) == at < 300
