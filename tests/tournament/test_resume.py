"""A tournament killed with SIGKILL (or stopped with Ctrl-C) resumes without losing or repeating
a game, and its stored ratings equal the ones recomputed from its games.

The entrants are gated test bots (tests/bots/misbehave.py): the test hands out one ticket per game
it lets finish, so a tournament is stopped after exactly the games the test chose, however fast or
slow the machine is, instead of racing a poller against the games."""

import os
import signal
import sqlite3
import time
import uuid
from pathlib import Path

import pytest

from arena.bench.local_ray import descendants
from arena.storage.database import open_database
from arena.storage.games import recomputed_elo, stored_elo
from arena.tournament.schedule import build_schedule
from tests.support.bots import TEST_BOTS
from tests.tournament.helpers import SAMPLE_BOTS, kill_groups, query, run_cli, start_cli

pytestmark = pytest.mark.slow  # real CLI and bot processes

TOTAL = 12  # 3 entrants, 2 players: 3 pods x 2 deals x 2 rotations


def gated_bots(directory: Path) -> list[Path]:
    """Three entrants: the gated test bot under three names."""
    bots, script = [], TEST_BOTS / "misbehave.py"
    for name in ("gated-a", "gated-b", "gated-c"):
        bot = directory / name
        bot.mkdir()
        (bot / "bot.toml").write_text(
            f'name = "{name}"\nversion = "1.0.0"\n'
            f'command = ["python", "{script}", "gated"]\n'
            'games = ["oregon"]\n'
        )
        bots.append(bot)
    return bots


def let_games_finish(turnstile: Path, games: int) -> None:
    for _ in range(games):
        (turnstile / f"ticket-{uuid.uuid4().hex}").touch()


def start_tournament(db: Path, bots: list[Path]):
    # A waiting bot must not time out: the move time is longer than any test runs. Unsandboxed,
    # so that the bots inherit the turnstile's variable and see its directory.
    return start_cli(
        "tournament",
        "--game",
        "oregon",
        "--bots",
        ",".join(map(str, bots)),
        "--deals",
        "2",
        "--concurrency",
        "2",
        "--seed",
        "21",
        "--move-time",
        "600",
        "--sandbox",
        "none",
        "--name",
        "long",
        "--db",
        str(db),
    )


def wait_for_games(db: Path, process, count: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        if db.exists():
            try:
                if finished_games(db) >= count:
                    return
            except sqlite3.OperationalError:
                pass  # the schema is not there yet
        time.sleep(0.05)
    raise AssertionError("the tournament did not record games in time")


def check_complete(db: Path) -> None:
    keys = [key for (key,) in query(db, "SELECT schedule_key FROM game WHERE status = 'finished'")]
    assert len(keys) == len(set(keys)) == TOTAL  # nothing lost, nothing repeated
    assert set(keys) == {game.key for game in build_schedule(3, 2, 2, seed=21)}
    assert query(db, "SELECT count(*) FROM rating_history")[0][0] == 2 * TOTAL
    assert query(db, "SELECT state FROM tournament") == [("finished",)]
    database = open_database(db, create=False)
    with database.read() as session:
        assert stored_elo(session, "oregon", 2) == pytest.approx(
            recomputed_elo(session, "oregon", 2)
        )
    database.close()


def finished_games(db: Path) -> int:
    return query(db, "SELECT count(*) FROM game WHERE status = 'finished'")[0][0]


def stop_with_ctrl_c(db: Path, process) -> None:
    bots = descendants(process.pid)
    os.kill(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "--resume long" in err
    assert query(db, "SELECT state FROM tournament") == [("stopped",)]
    assert [pid for pid in bots if Path(f"/proc/{pid}").exists()] == []  # no bot left behind


def kill_hard(db: Path, process) -> None:
    os.kill(process.pid, signal.SIGSTOP)  # so that no bot starts after we list them
    bots = descendants(process.pid)
    process.kill()
    process.wait()
    kill_groups(bots)  # the killed arena's orphaned bots
    assert query(db, "SELECT state FROM tournament") == [("running",)]


def test_stopped_then_killed_tournament_resumes_without_losing_or_repeating_games(
    tmp_path: Path, monkeypatch
):
    db = tmp_path / "arena.db"
    turnstile = tmp_path / "turnstile"
    turnstile.mkdir()
    monkeypatch.setenv("ARENA_TEST_TURNSTILE", str(turnstile))  # the bots inherit it
    let_games_finish(turnstile, 3)
    process = start_tournament(db, gated_bots(tmp_path))
    try:
        wait_for_games(db, process, 3)
        stop_with_ctrl_c(db, process)
        assert finished_games(db) == 3

        let_games_finish(turnstile, 3)
        process = start_cli("tournament", "--resume", "long", "--db", str(db))
        wait_for_games(db, process, 6)
        kill_hard(db, process)
        assert finished_games(db) == 6
    finally:
        if process.poll() is None:
            process.kill()

    # settings given with --resume are ignored, and the user is told so: the games stay the
    # schedule of seed 21 (check_complete). No turnstile now: the bots play on freely.
    monkeypatch.delenv("ARENA_TEST_TURNSTILE")
    process = start_cli("tournament", "--resume", "long", "--seed", "5", "--db", str(db))
    out, err = process.communicate(timeout=180)
    assert process.returncode == 0, out + err
    assert "stored settings; ignored: --seed" in err
    check_complete(db)


def test_resume_names_every_setting_it_ignores_those_with_defaults_too(tmp_path: Path):
    """A user adding deals or lowering the concurrency with --resume must be told that the
    stored settings win; the warning named only the options whose default is None."""
    db = tmp_path / "arena.db"
    bots = f"{SAMPLE_BOTS / 'random-python'},{SAMPLE_BOTS / 'heuristic-python'}"
    first = ["tournament", "--game", "oregon", "--bots", bots, "--deals", "1", "--name", "t"]
    assert run_cli(*first, "--sandbox", "none", "--db", str(db)).exit_code == 0

    again = ["--resume", "t", "--deals", "5", "--concurrency", "1", "--move-time", "3"]
    resumed = run_cli("tournament", *again, "--json", "--db", str(db))

    assert resumed.exit_code == 0, resumed.output
    warning = "stored settings; ignored: --deals, --concurrency, --move-time\n"
    assert warning in resumed.stderr
    assert query(db, "SELECT count(*) FROM game") == [
        (2,)
    ]  # one deal, two rotations  # still one deal


def test_an_interrupt_before_the_games_start_says_how_to_resume(tmp_path: Path, monkeypatch):
    """Ctrl-C after the tournament is stored but before its run takes the signals said only
    "error: interrupted" (outside review): the tournament is there to resume."""
    import arena.commands.tournament as command

    def interrupted() -> None:  # the first step of the run, before its games start
        raise KeyboardInterrupt

    db = tmp_path / "arena.db"
    bots = f"{SAMPLE_BOTS / 'random-python'},{SAMPLE_BOTS / 'heuristic-python'}"
    monkeypatch.setattr(command, "warn_unless_limits_enforced", interrupted)
    result = run_cli(
        *("tournament", "--game", "oregon", "--name", "early", "--deals", "1"),
        *("--bots", bots, "--db", str(db), "--sandbox", "none"),
    )
    assert result.exit_code == 130
    assert result.stderr.splitlines()[-1] == (
        "error: interrupted before the games started; the tournament is stored: continue with "
        "`arena tournament --resume early`"
    )
    monkeypatch.undo()
    resumed = run_cli("tournament", "--resume", "early", "--db", str(db))
    assert resumed.exit_code == 0, resumed.stderr
    assert query(db, "SELECT count(*) FROM game") == [(2,)]  # one deal, two rotations
