"""``arena bots withdraw|restore``: the operator takes a bot out of play. A running ladder drops
its planned games within seconds (the game in play finishes) and pauses it; no new tournament,
match or SPRT test enters it; its page and its author say why; ``restore`` lets it play again."""

import json
import signal
import sqlite3
import time
import uuid
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.manifest import load_manifest
from arena.sandbox import SandboxPolicy
from arena.storage import authors, bots, migrations, tournaments
from arena.storage import ladders as ladder_store
from arena.storage.database import open_database
from arena.tournament.ladder import WITHDRAWN_LOOK_SECONDS
from arena.tournament.settings import TournamentSettings
from arena.web.app import create_app
from tests.support.bots import TEST_BOTS
from tests.support.schemas import as_schema_9
from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli, start_cli


def submit(db: Path, bot: Path) -> None:
    result = run_cli("submit", str(bot), "--db", str(db), "--sandbox", "none")
    assert result.exit_code == 0, result.stdout + result.stderr


def gated_bot(directory: Path, name: str) -> Path:
    """The gated test bot: a game of it finishes only when a ticket is put in the turnstile."""
    bot = directory / name
    bot.mkdir()
    (bot / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1.0.0"\n'
        f'command = ["python", "{TEST_BOTS / "misbehave.py"}", "gated"]\n'
        'games = ["oregon"]\n'
    )
    return bot


def test_withdraw_and_restore_from_the_command_line(tmp_path: Path):
    db = tmp_path / "arena.db"
    submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "spammy", "spammy"))
    done = run_cli("bots", "withdraw", "spammy", "--reason", " floods\tits log ", "--db", str(db))
    assert done.exit_code == 0 and done.stdout == "spammy: withdrawn\n", done.output
    listed = run_cli("bots", "--db", str(db)).stdout
    assert "spammy: withdrawn by the operator on " in listed and "UTC: floods its log" in listed
    assert run_cli("bots", "list", "--db", str(db)).stdout == listed

    # Named anywhere a game is played, by its name, its directory (review I: a directory
    # played) or an address: one line, exit 2, saying how to undo it.
    other = str(SAMPLE_BOTS / "random-python")
    directory = str(tmp_path / "spammy")
    for command in (
        ("match", "spammy", other, "--game", "oregon"),
        ("match", directory, other, "--game", "oregon"),
        ("match", "spammy@127.0.0.1:9", other, "--game", "oregon"),
        ("tournament", "--game", "oregon", "--bots", f"spammy,{other}"),
        ("tournament", "--game", "oregon", "--bots", f"{directory},{other}"),
        ("sprt", "--game", "oregon", directory, other),
        ("ladder", "--game", "oregon", "--bots", f"spammy,{other}"),
        ("ladder", "--game", "oregon", "--bots", f"{directory},{other}"),
    ):
        refused = run_cli(*command, "--sandbox", "none", "--db", str(db))
        assert refused.exit_code == 2, refused.output
        assert "is withdrawn by the operator" in refused.stderr
        assert "`arena bots restore spammy` lets it play again" in refused.stderr
    assert query(db, "SELECT count(*) FROM game") == [(0,)]

    # one line, no escape sequences (it is printed on terminals), bounded
    loud = run_cli("bots", "withdraw", "spammy", "--reason", "\x1b[2Jx\ny" * 100, "--db", str(db))
    assert loud.exit_code == 0, loud.output
    listed = run_cli("bots", "--db", str(db)).stdout
    assert "\x1b" not in listed and "\\x1b[2Jx y" in listed and "…" in listed
    again = run_cli("bots", "withdraw", "spammy", "--reason", "cheats", "--db", str(db))
    assert again.stdout == "spammy: was withdrawn already; reason replaced\n"
    assert "UTC: cheats" in run_cli("bots", "--db", str(db)).stdout
    assert run_cli("bots", "restore", "spammy", "--db", str(db)).stdout == "spammy: restored\n"
    assert "withdrawn" not in run_cli("bots", "--db", str(db)).stdout
    assert run_cli("bots", "restore", "spammy", "--db", str(db)).stdout == (
        "spammy: was not withdrawn\n"
    )
    played = run_cli(
        "match", "spammy", str(SAMPLE_BOTS / "random-python"), "--game", "oregon",
        "--sandbox", "none", "--db", str(db),
    )  # fmt: skip
    assert played.exit_code == 0, played.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("withdraw", "nobody", "--reason", "x"), "unknown bot 'nobody'"),
        (("withdraw", "spammy"), "Missing option '--reason'"),
        (("withdraw", "spammy", "--reason", "  "), "give a reason"),
        (("restore", "nobody"), "unknown bot 'nobody'"),
    ],
)
def test_bad_withdrawals_are_one_line(tmp_path: Path, arguments, message):
    db = tmp_path / "arena.db"
    submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "spammy", "spammy"))
    result = run_cli("bots", *arguments, "--db", str(db))
    assert result.exit_code == 2 and message in result.stderr, result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert query(db, "SELECT count(*) FROM bot_withdrawal") == [(0,)]


def test_withdrawing_needs_a_database_and_migrates_an_older_one(tmp_path: Path):
    missing = tmp_path / "none.db"
    result = run_cli("bots", "withdraw", "x", "--reason", "y", "--db", str(missing))
    assert result.exit_code != 0 and "no arena database" in result.stderr
    assert not missing.exists()
    db = tmp_path / "arena.db"
    submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "old", "old"))
    with sqlite3.connect(db) as raw:
        as_schema_9(raw)
    assert run_cli("bots", "withdraw", "old", "--reason", "r", "--db", str(db)).exit_code == 0
    assert query(db, "SELECT version FROM schema_version") == [(migrations.CURRENT_VERSION,)]


def test_the_web_reads_a_database_from_before_withdrawals(tmp_path: Path):
    """``arena serve`` reads an older schema without migrating it (the next writing command
    does): a bot's page answered 503, "no such table: bot_withdrawal"."""
    db = tmp_path / "arena.db"
    submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "old", "old"))
    with sqlite3.connect(db) as raw:
        as_schema_9(raw)
    web = TestClient(create_app(db, warm_up=False))
    for path in ("/bots/old", "/api/bots/old", "/api/ladder"):
        assert web.get(path).status_code == 200, path
    assert web.get("/api/bots/old").json()["withdrawn"] is None


def test_a_tournament_without_bots_named_leaves_a_withdrawn_bot_out(tmp_path: Path):
    db = tmp_path / "arena.db"
    for name in ("a", "b", "c"):
        submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / name, name))
    run_cli("bots", "withdraw", "c", "--reason", "r", "--db", str(db))
    result = run_cli(
        "tournament", "--game", "oregon", "--deals", "1", "--sandbox", "none",
        "--db", str(db),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    seated = query(
        db,
        "SELECT DISTINCT bot.name FROM seat JOIN bot_version ON bot_version.id = "
        "seat.bot_version_id JOIN bot ON bot.id = bot_version.bot_id",
    )
    assert sorted(name for (name,) in seated) == ["a", "b"]


def test_the_lineup_pauses_a_withdrawn_bot_and_a_new_version_stays_out(tmp_path: Path):
    db = tmp_path / "arena.db"
    for name in ("a", "b", "c"):
        submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / name, name))
    run_cli("bots", "withdraw", "b", "--reason", "abuse", "--db", str(db))
    # a new version of a withdrawn bot is out of play too: uploading again is no way around it
    (tmp_path / "b" / "changed.txt").write_text("new code")
    submit(db, tmp_path / "b")
    made = run_cli("ladder", "--game", "oregon", "--until", "0", "--sandbox", "none", "--json",
                   "--db", str(db))  # fmt: skip
    assert made.exit_code == 0, made.output
    database = open_database(db, create=False)
    try:
        with database.write() as session:
            [ladder_id] = [i for (i,) in query(db, "SELECT id FROM tournament")]
            lineup = ladder_store.lineup(session, ladder_id, "oregon", fixed=False, pause_after=5)
    finally:
        database.close()
    names = {p: lineup.entrants[p].bot.name for p in range(len(lineup.entrants))}
    assert sorted(names[p] for p in lineup.active) == ["a", "c"]
    [(paused, why)] = lineup.paused.items()
    assert names[paused] == "b" and why.startswith("withdrawn by the operator on ")
    assert why.endswith("UTC: abuse")
    page = TestClient(create_app(db, warm_up=False)).get("/bots/b")
    assert "withdrawn by the operator" in page.text and "abuse" in page.text
    ladder = TestClient(create_app(db, warm_up=False)).get("/api/ladder").json()
    rows = {row["bot"]: row for board in ladder["ladder"]["boards"] for row in board["rows"]}
    assert "b" not in rows or rows["b"]["paused"][0].startswith("withdrawn by the operator")


@pytest.mark.slow  # a real ladder of real bot processes
def test_a_running_ladder_drops_a_withdrawn_bots_planned_games(tmp_path: Path, monkeypatch):
    turnstile = tmp_path / "turnstile"
    turnstile.mkdir()
    monkeypatch.setenv("ARENA_TEST_TURNSTILE", str(turnstile))  # the bots inherit it
    db = tmp_path / "arena.db"
    for name in ("g0", "g1", "g2", "g3"):
        submit(db, gated_bot(tmp_path, name))
    log = tmp_path / "ladder.log"
    process = start_cli(
        "ladder", "--game", "oregon", "--sandbox", "none", "--move-time", "600",
        "--concurrency", "1", "--json", "--log-file", str(log), "--db", str(db),
    )  # fmt: skip
    try:
        # Round 0: two pods of two, each dealt once per rotation: 4 games, played in order.
        deadline = time.monotonic() + 60
        while not (playing := _playing(db)):
            assert time.monotonic() < deadline and process.poll() is None, process.communicate()
            time.sleep(0.05)
        out = sorted({"g0", "g1", "g2", "g3"} - playing)[0]  # in the round's other pod
        withdrawn = run_cli("bots", "withdraw", out, "--reason", "abuse", "--db", str(db))
        assert withdrawn.exit_code == 0, withdrawn.output
        deadline = time.monotonic() + WITHDRAWN_LOOK_SECONDS + 60
        while "planned games dropped" not in (log.read_text() if log.exists() else ""):
            assert time.monotonic() < deadline and process.poll() is None, process.communicate()
            time.sleep(0.1)
        assert f"2 planned games dropped: {out} withdrawn by the operator" in log.read_text()
        for _ in range(8):  # the game in play, its pod's other rotation, then later rounds
            (turnstile / f"ticket-{uuid.uuid4().hex}").touch()
        deadline = time.monotonic() + 120
        while query(db, "SELECT count(*) FROM game WHERE status = 'finished'")[0][0] < 4:
            assert time.monotonic() < deadline and process.poll() is None, process.communicate()
            time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    summary = json.loads(stdout)
    assert [why for label, why in summary["paused"].items() if label.startswith(f"{out}@")]
    seated = query(
        db,
        "SELECT DISTINCT bot.name FROM seat JOIN bot_version ON bot_version.id = "
        "seat.bot_version_id JOIN bot ON bot.id = bot_version.bot_id",
    )
    assert out not in {name for (name,) in seated}, stderr


def _playing(db: Path) -> set[str]:
    """The bots of the ladder's game in play, once one is."""
    try:
        rows = query(db, "SELECT seats FROM running_game")
    except sqlite3.OperationalError:  # not made yet
        return set()
    return {seat["bot"] for (seats,) in rows for seat in json.loads(seats)}


def test_revoking_an_author_can_withdraw_their_bots(tmp_path: Path):
    db = tmp_path / "arena.db"
    assert run_cli("authors", "add", "mallory", "--db", str(db)).exit_code == 0
    database = open_database(db, create=False)
    try:
        with database.write() as session:
            mallory = authors.named(session, "mallory").id
            for name in ("m1", "m2"):
                bot = renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / name, name)
                bots.register(
                    session, load_manifest(bot), bots.directory_hash(bot), author_id=mallory
                )
    finally:
        database.close()
    kept = run_cli("authors", "revoke", "mallory", "--db", str(db))
    assert kept.stdout == "mallory: token revoked\n"
    assert query(db, "SELECT count(*) FROM bot_withdrawal") == [(0,)]  # a leaked token
    result = run_cli("authors", "revoke", "mallory", "--withdraw", "--db", str(db))
    assert result.stdout == "mallory: had no token in force\nwithdrawn from play: m1, m2\n"
    listed = run_cli("bots", "--db", str(db)).stdout
    assert "m1: withdrawn by the operator on " in listed and "its author was revoked" in listed


def test_a_tournament_with_a_withdrawn_bot_is_not_resumed(tmp_path: Path):
    """A stopped tournament would play a withdrawn entrant's games again (outside review)."""
    db = tmp_path / "arena.db"
    for name in ("a", "b"):
        submit(db, renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / name, name))
    database = open_database(db, create=False)
    try:
        with database.write() as session:
            entrants = [bots.latest_version(session, name) for name in ("a", "b")]
            settings = TournamentSettings(players=2, deals=1, sandbox=SandboxPolicy("none"))
            tournaments.create(session, "t", "oregon", 1, settings.to_stored(), entrants)
    finally:
        database.close()
    run_cli("bots", "withdraw", "b", "--reason", "abuse", "--db", str(db))
    for command in (("tournament", "--resume", "t"), ("sprt", "--resume", "t")):
        refused = run_cli(*command, "--db", str(db))
        assert refused.exit_code == 2, refused.output
        assert "bot 'b' is withdrawn by the operator" in refused.stderr
    assert query(db, "SELECT count(*) FROM game") == [(0,)]
    run_cli("bots", "restore", "b", "--db", str(db))
    resumed = run_cli("tournament", "--resume", "t", "--db", str(db))
    assert resumed.exit_code == 0, resumed.output
    assert query(db, "SELECT count(*) FROM game WHERE status = 'finished'") == [(2,)]
