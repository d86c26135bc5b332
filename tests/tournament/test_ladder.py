"""``arena ladder`` with real bot processes and a real SQLite file (and most of it on a real
PostgreSQL database too): --until, new versions joining (between runs and while it runs), a
paused bot, and Ctrl-C and kill -9 at random moments with nothing lost or repeated."""

import html
import json
import os
import random
import signal
import time
from datetime import datetime
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.bench.local_ray import descendants
from arena.errors import SetupError
from arena.sandbox import SandboxPolicy
from arena.storage import database as database_module
from arena.storage import ladders as ladder_store
from arena.storage.database import StorageError, open_database
from arena.storage.games import recomputed_elo, stored_elo
from arena.storage.target import DatabaseTarget, may_exist
from arena.tournament import ladder as ladder_module
from arena.tournament import runner
from arena.tournament.ladder import LadderRules
from arena.tournament.ladder_setup import create_ladder
from arena.tournament.settings import TournamentSettings
from arena.web.app import create_app
from tests.support.bots import TEST_BOTS
from tests.tournament.helpers import (
    SAMPLE_BOTS,
    kill_groups,
    locked_from_second_game,
    query,
    renamed_bot,
    run_cli,
    start_cli,
)

pytestmark = pytest.mark.slow  # real CLI and bot processes

# Unsandboxed (the sandbox is not the point here), with a move time no loaded machine reaches.
QUICK = ("--game", "oregon", "--sandbox", "none", "--move-time", "30")


def random_bots(directory: Path, count: int) -> list[Path]:
    return [
        renamed_bot(SAMPLE_BOTS / "random-python", directory / f"r{i}", f"r{i}")
        for i in range(count)
    ]


def submit(db: DatabaseTarget, bot: Path) -> None:
    # as the ladder runs them (QUICK): some test bots run code outside their directory
    result = run_cli("submit", str(bot), "--db", str(db), "--sandbox", "none")
    assert result.exit_code == 0, result.stdout + result.stderr


def ladder(db: DatabaseTarget, *args: str):
    result = run_cli("ladder", *QUICK, "--json", "--db", str(db), *args)
    assert result.exit_code == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def finished_keys(db: DatabaseTarget) -> list[str]:
    return [key for (key,) in query(db, "SELECT schedule_key FROM game WHERE status = 'finished'")]


def versions_seated(db: DatabaseTarget, after_game: int = 0) -> set[str]:
    rows = query(
        db,
        "SELECT DISTINCT bot.name || '@' || bot_version.version FROM seat "
        "JOIN game ON game.id = seat.game_id JOIN bot_version ON bot_version.id = "
        "seat.bot_version_id JOIN bot ON bot.id = bot_version.bot_id "
        "WHERE game.status = 'finished' AND game.id > ?",
        after_game,
    )
    return {name for (name,) in rows}


def check_consistent(db: DatabaseTarget) -> None:
    """No scheduled game twice; every seat's Elo update stored; Elo equals its replay."""
    keys = finished_keys(db)
    assert len(keys) == len(set(keys))
    seats = query(
        db,
        "SELECT count(*) FROM seat JOIN game ON game.id = seat.game_id "
        "WHERE game.status = 'finished'",
    )[0][0]
    assert query(db, "SELECT count(*) FROM rating_history")[0][0] == seats
    database = open_database(db, create=False)
    with database.read() as session:
        assert stored_elo(session, "oregon", 2) == pytest.approx(
            recomputed_elo(session, "oregon", 2)
        )
    database.close()


def new_version(bot: Path, version: str) -> None:
    manifest = bot / "bot.toml"
    manifest.write_text(manifest.read_text().replace('version = "1.0.0"', f'version = "{version}"'))


def test_until_a_game_count_stops_there_and_the_same_command_goes_on(
    tmp_path: Path, db_target: DatabaseTarget
):
    db = db_target
    for bot in random_bots(tmp_path, 3):
        submit(db, bot)
    first = ladder(db, "--until", "5", "--seed", "77")
    assert (first["games"], first["played"], first["stopped"]) == (5, 5, False)
    assert first["why"] == "reached 5 games"
    assert query(db, "SELECT name, state FROM tournament") == [("oregon-ladder", "stopped")]
    second = ladder(db, "--until", "9")
    assert (second["games"], second["played"]) == (9, 4)
    check_consistent(db)
    # each deal's rotations share its seed and swap the seats
    deals: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for key, seed in query(
        db, "SELECT schedule_key, seed FROM game WHERE status = 'finished' ORDER BY id"
    ):
        round_pod = key.rsplit(" rotation ", 1)[0]
        deals.setdefault(round_pod, []).append((key, seed))
    assert any(len(games) == 2 for games in deals.values())
    assert all(len({seed for _, seed in games}) == 1 for games in deals.values())
    # a ladder is no tournament to resume
    refused = run_cli("tournament", "--resume", "oregon-ladder", "--db", str(db))
    assert refused.exit_code == 2
    assert "is a ladder: go on with `arena ladder --name oregon-ladder`" in refused.stderr
    # its page is the ladder's: a tournament's said "9 of 2 games" and how to --resume it
    [(ladder_id,)] = query(db, "SELECT id FROM tournament")
    client = TestClient(create_app(db, warm_up=False), follow_redirects=False)
    moved = client.get(f"/tournaments/{ladder_id}")
    assert moved.status_code == 303 and moved.headers["location"] == f"/ladder?id={ladder_id}"
    assert client.get(f"/api/tournaments/{ladder_id}").json()["progress"]["scheduled"] is None
    # settings a going ladder ignores are still checked (outside review: they only warned)
    for wrong, said in [
        (("-p", "1"), "oregon is for 2-4 players, not 1"),
        (("--games-per-hour", "-3"), "--games-per-hour must be 0 (no limit) or from 0.01"),
    ]:
        refused = run_cli("ladder", *QUICK, *wrong, "--until", "20", "--db", str(db))
        assert refused.exit_code == 2, refused.output
        [line] = refused.stderr.strip().splitlines()
        assert said in line and "Traceback" not in refused.output
    assert query(db, "SELECT count(*) FROM game WHERE status = 'finished'") == [(9,)]
    # the same ladder started twice at once: the second to store it is told to go on with it
    settings = TournamentSettings(sandbox=SandboxPolicy(tool="none"))
    with pytest.raises(
        SetupError, match="another run made the ladder 'oregon-ladder' just now, and plays it"
    ):
        create_ladder(db, "oregon", [], settings, LadderRules((2,)), None, "oregon-ladder")


def test_a_new_version_replaces_the_old_one_and_a_fixed_ladder_stays_fixed(
    tmp_path: Path, db_target: DatabaseTarget
):
    db = db_target
    bots = random_bots(tmp_path, 3)
    for bot in bots:
        submit(db, bot)
    ladder(db, "--until", "4")
    new_version(bots[0], "2.0.0")
    submit(db, bots[0])
    last = query(db, "SELECT max(id) FROM game")[0][0]
    ladder(db, "--until", "12")
    seated = versions_seated(db, after_game=last)
    assert "r0@2.0.0" in seated and "r0@1.0.0" not in seated

    fixed = ladder(db, "--name", "fixed", "--bots", "r1,r2", "--until", "4")
    assert fixed["games"] == 4
    fixed_games = query(
        db,
        "SELECT DISTINCT bot.name FROM seat JOIN game ON game.id = seat.game_id "
        "JOIN tournament ON tournament.id = game.tournament_id "
        "JOIN bot_version ON bot_version.id = seat.bot_version_id "
        "JOIN bot ON bot.id = bot_version.bot_id WHERE tournament.name = 'fixed'",
    )
    assert sorted(name for (name,) in fixed_games) == ["r1", "r2"]


def forfeiting_bot(directory: Path, mode: str = "raise") -> Path:
    bot = directory / "forfeiter"
    bot.mkdir(exist_ok=True)
    (bot / "bot.toml").write_text(
        'name = "forfeiter"\nversion = "1.0.0"\n'
        f'command = ["python", "{TEST_BOTS / "misbehave.py"}", "{mode}"]\n'
        'games = ["oregon"]\n'
    )
    return bot


def test_a_bot_forfeiting_k_games_in_a_row_is_paused_until_a_new_version(
    tmp_path: Path, db_target: DatabaseTarget
):
    db = db_target
    for bot in [*random_bots(tmp_path, 2), forfeiting_bot(tmp_path)]:
        submit(db, bot)
    run = ladder(db, "--pause-after", "2", "--until", "12", "--concurrency", "1")
    [(label, reason)] = run["paused"].items()
    assert label.startswith("forfeiter@1.0.0")
    assert reason.startswith("2 forfeits in a row, last: ")
    forfeits = query(
        db,
        "SELECT count(*) FROM seat JOIN bot_version ON bot_version.id = seat.bot_version_id "
        "JOIN bot ON bot.id = bot_version.bot_id WHERE bot.name = 'forfeiter'",
    )[0][0]
    assert forfeits == 2  # no game after the second forfeit in a row
    shown = f"paused in ladder {run['name']}: {reason}; a new version resumes it"
    listed = run_cli("bots", "--db", str(db))
    assert listed.exit_code == 0, listed.stderr
    assert f"forfeiter@1.0.0: {shown}" in listed.stdout.splitlines()
    # the public page gives the reason in the arena's words, not the bot's (arena.reasons)
    page = TestClient(create_app(db, warm_up=False)).get("/bots/forfeiter")
    public = f"paused in ladder {run['name']}: 2 forfeits in a row, last: CRASH: Decide failed"
    assert html.escape(public, quote=False) in page.text

    assert "raising on purpose" not in page.text

    # A new version (this one plays well: "gated" without a turnstile never waits) plays again.
    last = query(db, "SELECT max(id) FROM game")[0][0]
    bot = forfeiting_bot(tmp_path, mode="gated")
    new_version(bot, "1.1.0")
    submit(db, bot)
    run = ladder(db, "--until", "24", "--concurrency", "1")
    assert run["paused"] == {}
    assert "paused in ladder" not in run_cli("bots", "--db", str(db)).stdout
    assert (
        "paused in ladder"
        not in TestClient(create_app(db, warm_up=False)).get("/bots/forfeiter").text
    )
    assert "forfeiter@1.1.0" in versions_seated(db, after_game=last)


def wait_for_games(db: DatabaseTarget, process, count: int, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        try:
            if may_exist(db) and len(finished_keys(db)) >= count:
                return
        except Exception:  # the schema is not there yet
            pass
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} games in {timeout} s")


def start_ladder(db: DatabaseTarget, *args: str):
    return start_cli("ladder", *QUICK, "--db", str(db), *args)


def game_ids(db: DatabaseTarget) -> set[int]:
    return {game_id for (game_id,) in query(db, "SELECT id FROM game WHERE status = 'finished'")}


def unfinished_deals(db: DatabaseTarget) -> dict:
    database = open_database(db, create=False)
    with database.read() as session:
        [ladder_id] = [i for (i,) in query(db, "SELECT id FROM tournament")]
        found = ladder_store.progress(session, ladder_id).unfinished
    database.close()
    return found


def active_positions(db: DatabaseTarget) -> set[int]:
    """The positions of the ladder's entrants that play (neither retired nor paused)."""
    database = open_database(db, create=False)
    with database.write() as session:
        [ladder_id] = [i for (i,) in query(db, "SELECT id FROM tournament")]
        found = ladder_store.lineup(session, ladder_id, "oregon", fixed=False, pause_after=0)
    database.close()
    return set(found.active)


def members(deal: tuple[int, str]) -> list[int]:
    return [int(position) for position in deal[1].split("+")]


def test_ctrl_c_and_kill_at_random_moments_lose_and_repeat_nothing(
    tmp_path: Path, db_target: DatabaseTarget
):
    seed = random.randrange(1 << 30)
    moments = random.Random(seed)
    db = db_target
    bots = random_bots(tmp_path, 4)
    for bot in bots:
        submit(db, bot)
    process = start_ladder(db, "--concurrency", "2")
    try:
        wait_for_games(db, process, 2)
        # a new version submitted while the ladder runs plays within a round
        new_version(bots[1], "2.0.0")
        submit(db, bots[1])
        last = max(game_ids(db))
        deadline = time.monotonic() + 180
        while "r1@2.0.0" not in versions_seated(db, after_game=last):
            assert time.monotonic() < deadline, f"the new version did not play (seed {seed})"
            time.sleep(0.1)
        time.sleep(moments.uniform(0, 2))
        before = game_ids(db)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 130, out + err
        assert "go on with `arena ladder --name oregon-ladder`" in err
        assert before <= game_ids(db)
        assert query(db, "SELECT state FROM tournament") == [("stopped",)]

        stopped_with = len(game_ids(db))
        process = start_ladder(db, "--name", "oregon-ladder")
        wait_for_games(db, process, stopped_with + 2)
        time.sleep(moments.uniform(0, 2))
        os.kill(process.pid, signal.SIGSTOP)  # so that no bot starts after we list them
        bots_running = descendants(process.pid)
        process.kill()
        process.wait()
        kill_groups(bots_running)
    finally:
        if process.poll() is None:
            process.kill()
    before = game_ids(db)
    left_half_played = unfinished_deals(db)
    check_consistent(db)

    result = run_cli(
        "ladder",
        "--name",
        "oregon-ladder",
        "--until",
        str(len(before) + 6),
        "--json",
        "--db",
        str(db),
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["games"] == len(before) + 6
    assert before <= game_ids(db), f"seed {seed}"
    check_consistent(db)
    # the killed run's games in play (fresh heartbeats still) were removed as it went on
    assert query(db, "SELECT count(*) FROM running_game WHERE game_id IS NULL") == [(0,)]
    # the deals a stop left half-played were completed first, but for those of a version retired
    # since (r1's first: its code changed on disk as 2.0.0 was written, so a game of it planned
    # for after that was not played; it never plays again)
    playing = active_positions(db)
    completable = {deal for deal in left_half_played if set(members(deal)) <= playing}
    assert not completable & set(unfinished_deals(db)), f"seed {seed}"


def test_until_every_interval_is_narrower_than_w(tmp_path: Path):
    db = tmp_path / "arena.db"
    for bot in random_bots(tmp_path, 3):
        submit(db, bot)
    # As wide as the prior's interval: met as soon as every bot has played and been fitted.
    run = ladder(db, "--until", "width:1900", "--until", "40")
    assert run["why"] == "every interval narrower than 1900"
    assert 2 <= run["games"] < 40
    bad = run_cli("ladder", *QUICK, "--until", "width:x", "--db", str(db))
    assert bad.exit_code == 2
    assert "--until 'width:x': give a game count" in bad.stderr


def test_until_a_width_narrower_than_the_priors_spread_stops_the_ladder(tmp_path: Path):
    """The quick check before the leaderboard's fit read matchmaking's intervals, never
    narrower than the prior's spread over the entrants (1131 for three): a ladder told to stop
    at a width its board showed long since played on; and a bot that always forfeits (paused)
    made every other interval one-sided, for good (outside review)."""
    db = tmp_path / "arena.db"
    for bot in [*random_bots(tmp_path, 3), forfeiting_bot(tmp_path)]:
        submit(db, bot)
    run = ladder(db, "--until", "width:1000", "--until", "150", "--pause-after", "2")
    [paused] = run["paused"]
    assert paused.startswith("forfeiter@1.0.0")
    assert run["why"] == "every interval narrower than 1000"
    assert run["games"] < 150
    board = json.loads(run_cli("leaderboard", "--db", str(db), "--json").stdout)
    [rows] = [b["rows"] for b in board]
    batch = {row["bot"]: row["batch"] for row in rows}
    assert batch["forfeiter"]["low"] is None, "(-inf, x]: only its distance is the prior's"
    assert all(batch[f"r{i}"]["high"] - batch[f"r{i}"]["low"] < 1000 for i in range(3)), batch


def test_a_storage_fault_stops_the_ladder_in_one_line_and_it_goes_on(tmp_path, monkeypatch):
    db = tmp_path / "arena.db"
    for bot in random_bots(tmp_path, 2):
        submit(db, bot)
    monkeypatch.setattr(database_module, "_BUSY_SECONDS", 0.3)
    real_record_game = runner.record_game
    monkeypatch.setattr(runner, "record_game", locked_from_second_game(db, real_record_game))
    stopped = run_cli("ladder", *QUICK, "--concurrency", "1", "--db", str(db))
    assert stopped.exit_code == 4, stopped.output  # a storage fault (README, exit codes)
    assert "Traceback" not in stopped.output
    [line] = [line for line in stopped.stderr.splitlines() if line.startswith("error:")]
    assert "database is locked" in line and "arena ladder --name oregon-ladder" in line
    assert query(db, "SELECT state FROM tournament") == [("stopped",)]
    assert query(db, "SELECT count(*) FROM game")[0][0] == 1  # recorded before the fault: kept

    monkeypatch.setattr(runner, "record_game", real_record_game)
    assert ladder(db, "--until", "4")["games"] == 4
    check_consistent(db)


def test_a_storage_fault_reading_the_lineup_stops_the_ladder_the_same_way(tmp_path, monkeypatch):
    """The lineup is read between rounds; the database failing there (a CI run met it: another
    writer held the lock past the busy timeout) stops the ladder with the same line and state."""
    db = tmp_path / "arena.db"
    for bot in random_bots(tmp_path, 2):
        submit(db, bot)
    real_lineup = ladder_module._Ladder.lineup
    calls = []

    def lineup_failing_later(self):
        calls.append(1)
        if len(calls) < 2:
            return real_lineup(self)
        raise StorageError(f"{db}: database error: database is locked")

    monkeypatch.setattr(ladder_module._Ladder, "lineup", lineup_failing_later)
    stopped = run_cli("ladder", *QUICK, "--concurrency", "1", "--db", str(db))
    assert stopped.exit_code == 4, stopped.output
    assert "Traceback" not in stopped.output
    [line] = [line for line in stopped.stderr.splitlines() if line.startswith("error:")]
    assert "database is locked" in line and "arena ladder --name oregon-ladder" in line
    assert query(db, "SELECT state FROM tournament") == [("stopped",)]
    assert query(db, "SELECT count(*) FROM game")[0][0] >= 1  # the first round's: kept


def test_games_per_hour_space_each_bots_games_across_a_restart(
    tmp_path: Path, db_target: DatabaseTarget
):
    """At 3,600 games per hour (one a second per bot, a burst of one deal) the games are
    spread: unlimited, these bots play a dozen games within a second."""
    db = db_target
    for bot in random_bots(tmp_path, 3):
        submit(db, bot)
    for until in ("6", "12"):  # the second run reads the pace from the stored games
        result = run_cli(
            "ladder", *QUICK, "--db", str(db), "--games-per-hour", "3600", "--until", until
        )
        assert result.exit_code == 0, result.stdout + result.stderr
        assert "waiting for the games per hour until" in result.stderr
    rows = query(
        db,
        "SELECT seat.bot_version_id, game.finished_at FROM seat "
        "JOIN game ON game.id = seat.game_id WHERE game.status = 'finished'",
    )
    times: dict[int, list[float]] = {}
    for version, finished in rows:
        times.setdefault(version, []).append(datetime.fromisoformat(str(finished)).timestamp())
    assert sum(map(len, times.values())) == 24
    burst, slack = 2, 1  # slack: a game, for clocks and rounding; a loaded machine only slows
    for played in times.values():
        played.sort()
        # the bucket's bound: at most burst + rate x T games in any T seconds
        assert played[-1] - played[0] >= len(played) - burst - slack
        for start in played:
            assert sum(start <= time <= start + 2.0 for time in played) <= burst + 2 + slack


def test_a_ladder_restarted_with_its_own_command_warns_of_nothing(tmp_path: Path):
    """A service restarted with the usual command line warned "ignored: --games-per-hour" every
    time: the values were compared with the defaults, not with the ladder's own."""
    db = tmp_path / "arena.db"
    for bot in random_bots(tmp_path, 2):
        submit(db, bot)
    command = ("ladder", "-g", "oregon", "--games-per-hour", "100000", "--pause-after", "7")
    first = run_cli(*command, "--until", "2", "--sandbox", "none", "--db", str(db))
    assert first.exit_code == 0, first.output
    again = run_cli(*command, "--until", "4", "--db", str(db))
    assert again.exit_code == 0, again.output
    assert "ignored" not in again.stderr and "now" not in again.stderr
    # given again with other values, the rate and the pause change (they were ignored, and
    # nothing said how to change them: outside review); the rest stays the ladder's own
    other = run_cli(
        "ladder", "-g", "oregon", "--games-per-hour", "50000", "--pause-after", "9",
        "--move-time", "3", "--until", "6", "--db", str(db),
    )  # fmt: skip
    assert other.exit_code == 0, other.output
    assert "now --games-per-hour 50000 (was 100000), --pause-after 9 (was 7)" in other.stderr, (
        other.stderr
    )
    assert "ignored: --move-time (a new --name starts a ladder with others)" in other.stderr
    # another game under the ladder's name: it goes on with its own, and says so (it said
    # nothing of --game, and played Oregon to an `arena ladder -g ogallala`: outside review)
    named = ("--name", "oregon-ladder", "--until", "7", "--db", str(db))
    ogallala = run_cli("ladder", "-g", "ogallala", *named)
    assert ogallala.exit_code == 0, ogallala.output
    assert "ignored: --game (a new --name starts" in ogallala.stderr, ogallala.stderr
    assert "ladder 'oregon-ladder' (oregon) goes on" in ogallala.stderr
    assert query(db, "SELECT DISTINCT game FROM game") == [("oregon",)]
    stored = json.loads(query(db, "SELECT settings FROM tournament")[0][0])
    assert stored["ladder"]["games_per_hour"] == 50000 and stored["ladder"]["pause_after"] == 9
    assert stored["move_time"] != 3
    # 0 is said in words: no limit, never
    zero = ("--games-per-hour", "0", "--pause-after", "0", "--until", "8", "--db", str(db))
    unlimited = run_cli("ladder", "-g", "oregon", *zero)
    assert unlimited.exit_code == 0, unlimited.output
    assert "now --games-per-hour no limit (was 50000), --pause-after never (was 9)" in (
        unlimited.stderr
    )


def test_a_bot_whose_code_changes_mid_ladder_is_paused_and_the_others_play_on(
    tmp_path: Path, db_target: DatabaseTarget
):
    """Before, the ladder remembered the version as unchanged, planned its games round on round
    and every one failed at once: no game for anyone, a core spent and the log flooded (outside
    review)."""
    db = db_target
    bots = random_bots(tmp_path, 3)
    for bot in bots:
        submit(db, bot)
    process = start_ladder(db, "--until", "40")
    try:
        wait_for_games(db, process, 4)
        with (bots[0] / "bot.py").open("a") as code:
            code.write("# changed on disk while the ladder runs\n")
        out, err = process.communicate(timeout=240)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, out + err
    assert len(finished_keys(db)) == 40
    assert err.count("not played") < 10, err[-3000:]  # noticed, not round on round
    assert "r0" in run_cli("bots", "--db", str(db)).stdout
