"""One process at a time runs a tournament or ladder (``arena.storage.run_lock``): a second run
is refused in one line, and the lock goes with its process, even one killed with kill -9; a
reader then shows the tournament stopped."""

import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from arena.storage import tournaments
from arena.storage.database import open_database
from arena.storage.read_only import ReadOnlyDatabase
from arena.storage.run_lock import (
    RUN_LOCKS,
    AlreadyRunningError,
    running_alone,
    shown_state,
    sole_run,
)
from arena.storage.target import DatabaseTarget
from tests.tournament.helpers import ROOT, query, run_cli, start_cli
from tests.tournament.test_ladder import (
    QUICK,
    check_consistent,
    finished_keys,
    random_bots,
    start_ladder,
    submit,
    wait_for_games,
)


def test_a_second_run_of_the_same_tournament_is_refused_until_the_first_ends(
    db_target: DatabaseTarget,
):
    database = open_database(db_target, create=True)
    other = open_database(db_target, create=False)  # another connection, as another process
    try:
        with sole_run(database, 7, "ladder 'x'"):
            with pytest.raises(AlreadyRunningError, match="ladder 'x' is already running"):
                with sole_run(other, 7, "ladder 'x'"):
                    pass
            with sole_run(other, 8, "ladder 'y'"):  # another tournament runs meanwhile
                pass
        with sole_run(other, 7, "ladder 'x'"):  # released with the run
            pass
    finally:
        database.close()
        other.close()


def test_a_reader_shows_a_running_tournament_that_nobody_runs_as_stopped(
    db_target: DatabaseTarget,
):
    database = open_database(db_target, create=True)
    other = open_database(db_target, create=False)  # the reader, as another process
    try:
        with other.read() as session:
            connection = session.connection()

            def shown(state: str, tournament_id: int = 7) -> str:
                return shown_state(other.target, tournament_id, state, connection)

            # not run yet: on SQLite no lock file (a new tournament: its run comes), as stored
            assert shown("running") == ("running" if database.is_sqlite else "stopped")
            with sole_run(database, 8, "tournament 'y'"):  # run once, then stopped
                pass
            with sole_run(database, 7, "tournament 'x'"):
                assert shown("running") == "running"
                assert shown("running", 8) == "stopped"  # another tournament's lock
                assert shown("finished") == "finished"
            assert shown("running") == "stopped"
            assert shown("stopped") == "stopped"
    finally:
        database.close()
        other.close()


def test_a_readers_probe_never_refuses_a_run_that_starts(tmp_path: Path):
    """The SQLite probe takes the lock file shared for an instant: a run starting meanwhile
    waits it out instead of refusing itself as "already running"."""
    db = tmp_path / "arena.db"
    database = open_database(db, create=True)
    with sole_run(database, 1, "t"):  # the lock file exists from now on
        pass
    stop = threading.Event()

    def probe() -> None:
        with database.read() as session:
            while not stop.is_set():
                shown_state(db, 1, "running", session.connection())

    prober = threading.Thread(target=probe)
    prober.start()
    try:
        for _ in range(300):
            with sole_run(database, 1, "t"):
                pass
    finally:
        stop.set()
        prober.join()
        database.close()


def test_a_killed_holder_leaves_no_lock_behind(tmp_path: Path):
    db = tmp_path / "arena.db"
    open_database(db, create=True).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from pathlib import Path\n"
            "from arena.storage.database import open_database\n"
            "from arena.storage.run_lock import sole_run\n"
            "with sole_run(open_database(Path(sys.argv[1]), create=False), 1, 't'):\n"
            "    print('held', flush=True)\n"
            "    time.sleep(600)\n",
            str(db),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        database = open_database(db, create=False)
        with pytest.raises(AlreadyRunningError, match=rf"\(pid {holder.pid}\)"):
            with sole_run(database, 1, "t"):
                pass
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        with sole_run(database, 1, "t"):
            pass
        database.close()
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.slow  # real CLI and bot processes
def test_a_second_arena_ladder_on_a_running_ladder_is_refused_and_writes_nothing(
    tmp_path: Path,
):
    db = tmp_path / "arena.db"
    for bot in random_bots(tmp_path, 2):
        submit(db, bot)
    first = start_ladder(db, "--until", "100000")
    try:
        wait_for_games(db, first, 2)
        second = run_cli("ladder", *QUICK, "--db", str(db))
        assert second.exit_code == 2, second.output
        [line] = [line for line in second.stderr.splitlines() if line.startswith("error:")]
        assert (
            f"ladder 'oregon-ladder' is already running in another process (pid {first.pid})"
            in line
        )
        assert "Traceback" not in second.output
        assert "goes on" not in second.stderr  # it said so, then refused (outside review)
        assert query(db, "SELECT state FROM tournament") == [("running",)]
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=60)
    check_consistent(db)
    # once it has stopped, the same command goes on
    assert run_cli("ladder", *QUICK, "--until", "1", "--db", str(db)).exit_code == 0
    assert query(db, "SELECT state FROM tournament") == [("stopped",)]


@pytest.mark.slow  # real CLI and bot processes
def test_a_tournament_held_by_another_run_is_refused_and_goes_on_later(tmp_path: Path):
    # The runners take the lock themselves (arena tournament, arena sprt and arena ladder alike):
    # here this process holds the lock of the tournament about to be created (the first, id 1),
    # as another `arena tournament --resume` of it would.
    db = tmp_path / "arena.db"
    bots = [str(bot) for bot in random_bots(tmp_path, 2)]
    args = ("--game", "oregon", "--sandbox", "none", "--move-time", "30", "--db", str(db))
    database = open_database(db, create=True)
    try:
        with sole_run(database, 1, "another run"):
            refused = run_cli("tournament", *args, "--name", "cup", "--bots", ",".join(bots))
    finally:
        database.close()
    assert refused.exit_code == 2, refused.output
    assert "tournament 'cup' is already running in another process" in refused.stderr
    assert "Traceback" not in refused.output
    assert query(db, "SELECT count(*) FROM game")[0][0] == 0
    resumed = run_cli("tournament", "--resume", "cup", "--db", str(db))
    assert resumed.exit_code == 0, resumed.output
    assert query(db, "SELECT state FROM tournament") == [("finished",)]


@pytest.mark.slow  # real CLI and bot processes
def test_a_tournament_killed_with_kill_9_shows_stopped_and_resumes(tmp_path: Path):
    """Nothing can mark a tournament stopped at kill -9; its run lock goes with the process, so
    the web's reads (ReadOnlyDatabase, as `arena serve` reads) and `--resume` say stopped."""
    db = tmp_path / "arena.db"
    bots = ",".join(str(bot) for bot in random_bots(tmp_path, 2))
    first = start_cli(
        "tournament", *QUICK, "--deals", "500", "--name", "cup", "--bots", bots, "--db", str(db)
    )
    try:
        wait_for_games(db, first, 1)
        reader = ReadOnlyDatabase(db)
        [listed] = reader.tournaments()
        assert listed["state"] == "running"
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=60)
        assert query(db, "SELECT state FROM tournament") == [("running",)]  # as stored
        [listed] = reader.tournaments()
        assert listed["state"] == "stopped"
        tournament = reader.tournament(listed["id"])
        assert tournament is not None and tournament["state"] == "stopped"
    finally:
        first.kill()
        first.wait()
    resumed = start_cli("tournament", "--resume", "cup", "--db", str(db))
    try:
        assert resumed.stdout is not None
        assert "resuming tournament 'cup' (oregon, state stopped)" in resumed.stdout.readline()
        wait_for_games(db, resumed, len(finished_keys(db)) + 1)
        [listed] = ReadOnlyDatabase(db).tournaments()
        assert listed["state"] == "running"
    finally:
        resumed.send_signal(signal.SIGINT)
        resumed.communicate(timeout=60)


async def test_a_finished_runs_lock_file_goes_and_a_stopped_ones_stays(tmp_path: Path):
    """DB-runs/ kept a file for every run ever made. A finished run's goes with its lock (no
    reader probes it); a stopped one's stays, as it tells a killed run from a live one."""
    db = tmp_path / "arena.db"
    database = open_database(db, create=True)
    with database.write() as session:
        ids = [tournaments.create(session, n, "oregon", s, {}, []).id for s, n in enumerate("ab")]

    @running_alone("tournament")
    async def run(database, tournament_id: int, state: str) -> str:
        with database.write() as session:
            tournaments.set_state(session, tournament_id, state)
        return state

    assert await run(database, ids[0], tournaments.FINISHED) == tournaments.FINISHED
    assert await run(database, ids[1], tournaments.STOPPED) == tournaments.STOPPED
    database.close()
    assert sorted(path.name for path in RUN_LOCKS.directory(db).iterdir()) == [f"{ids[1]}.lock"]
