"""Games in play through the API, while a real tournament (a separate process) plays them and
writes the database the web reads: listed on /api/live and on their tournament's page, followed
decision by decision in the spectator view alone (``?seat=`` refused), then handed over to the
stored game. And the decision log of a stored game, seat by seat: what the seat's frames hold,
nothing more. The tests of a database (not of a tournament's processes) run on SQLite and on
PostgreSQL."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from starlette.testclient import TestClient

from arena.storage.read_only import ReadOnlyDatabase
from arena.storage.target import DatabaseTarget
from arena.web.app import create_app
from arena.web.spectator import events_seen
from engine.registry import get_game
from tests.tournament.helpers import query, start_cli

MISBEHAVE = Path(__file__).parents[1] / "bots" / "misbehave.py"
DETAILS = ("action", "seconds", "comment", "legal", "chosen")


def slow_bot(directory: Path, name: str) -> Path:
    """The slow test bot (0.15 s a decision: an Oregon game lasts about 15 s) as a directory of
    its own under ``name``."""
    directory.mkdir(parents=True)
    shutil.copy(MISBEHAVE, directory / "misbehave.py")
    (directory / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1"\ncommand = ["python", "misbehave.py", "slow"]\n'
        'games = ["oregon", "ogallala", "merkator"]\n'
    )
    return directory


def start_tournament(tmp: Path, db: DatabaseTarget, *extra: str) -> subprocess.Popen:
    bots = [slow_bot(tmp / name, name) for name in ("tortoise", "snail")]
    return start_cli(
        "tournament",
        "--db",
        str(db),
        "--game",
        "oregon",
        "--bots",
        ",".join(map(str, bots)),
        "--players",
        "2",
        "--deals",
        "1",
        "--name",
        "slowpokes",
        *extra,
    )


def wait_for(check: Callable[[], Any], what: str, process: subprocess.Popen, seconds=90) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        assert process.poll() is None or what.startswith("recorded"), process.communicate()
        time.sleep(0.2)
    return found


@pytest.fixture
def tournament_db(tmp_path, db_target) -> Iterator[tuple[DatabaseTarget, subprocess.Popen]]:
    db = db_target
    # one game at a time: the deal's first rotation is not shown live, its second is
    process = start_tournament(tmp_path, db, "--concurrency", "1")
    try:
        yield db, process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def _has_schema(db: DatabaseTarget) -> bool:
    try:
        return bool(query(db, "SELECT count(*) FROM running_game"))
    except (sqlite3.Error, psycopg.Error):  # no file, or no table yet
        return False


def wait_for_schema(db: DatabaseTarget, process: subprocess.Popen) -> None:
    """Until the tournament has made the database (its schema, in one transaction)."""
    wait_for(lambda: _has_schema(db), "the database", process)


def _client(db: DatabaseTarget, process: subprocess.Popen) -> TestClient:
    wait_for_schema(db, process)
    return TestClient(create_app(db, warm_up=False))


def test_a_game_in_play_is_followed_in_the_spectator_view_then_replayed(tournament_db):
    db, process = tournament_db
    client = _client(db, process)
    [first_rotation] = wait_for(
        lambda: client.get("/api/live").json()["games"], "the deal's first rotation", process
    )
    # Every rotation of a deal is dealt the same cards: watching the first would tell the
    # second's seats what the others hold (outside review). Its progress only, until then.
    assert first_rotation["held"] == {"played": 0, "rotations": 2}
    hidden = client.get(f"/api/live/{first_rotation['id']}").json()
    assert hidden["held_reason"].startswith("this game is shown once the other seat rotations")
    assert not {"entries", "frame", "setup"} & set(hidden)
    frames = client.get(f"/api/live/{first_rotation['id']}/frames")
    assert frames.status_code == 403 and "same cards" in frames.text
    games = wait_for(
        lambda: [
            g
            for g in client.get("/api/live").json()["games"]
            if g["decisions"] >= 10 and g["held"] is None
        ],
        "the deal's second rotation in play with 10 decisions",
        process,
    )
    live = games[0]
    assert live["state"] == "running" and live["tournament"] == "slowpokes"
    assert {seat["bot"] for seat in live["seats"]} == {"tortoise", "snail"}
    assert "seed" not in live and "actions" not in live
    mine = client.get("/api/live", params={"tournament": live["tournament_id"]}).json()
    assert live["id"] in [game["id"] for game in mine["games"]]
    other = client.get("/api/live", params={"tournament": live["tournament_id"] + 1}).json()
    assert other["games"] == []
    tournament = client.get(f"/api/tournaments/{live['tournament_id']}").json()
    assert live["id"] in [game["id"] for game in tournament["running"]]
    page = client.get(f"/tournaments/{live['tournament_id']}").text
    assert f'href="/live/{live["id"]}"' in page
    assert f'href="/live/{live["id"]}"' in client.get("/live").text
    assert "tortoise" in client.get(f"/live/{live['id']}").text

    # no seat's view while it runs, on any of its addresses
    for url in (f"/api/live/{live['id']}", f"/api/live/{live['id']}/frames", f"/live/{live['id']}"):
        refused = client.get(url, params={"seat": "0"})
        assert refused.status_code == 400 and "spectator view only" in refused.text, url

    first = client.get(f"/api/live/{live['id']}", params={"after": 0}).json()
    assert first["state"] == "running" and "seed" not in first
    entries = first["entries"]
    assert [entry["number"] for entry in entries] == list(range(len(entries)))
    assert len(entries) >= 10 and first["frame"]["number"] == len(entries)
    frames = client.get(f"/api/live/{live['id']}/frames", params={"count": 200}).json()["frames"]
    for frame in [first["frame"], *frames]:
        assert list(frame["views"]) == ["spectator"]
        view = frame["views"]["spectator"]
        assert view["seat"] is None and view["hand"] == []
        assert all(not p["coal_values"] and not p["gold_values"] for p in view["players"])
        assert not set(DETAILS) & set(frame)
    for entry in entries:
        assert not set(DETAILS) & set(entry)
        for event in entry["events"]:  # a card drawn is told without the card (none dead here)
            assert not event["text"].startswith("card drawn") or ", card " not in event["text"]

    # the next poll brings the decisions made since
    later = wait_for(
        lambda: (
            (body := client.get(f"/api/live/{live['id']}", params={"after": len(entries)}).json())[
                "state"
            ]
            != "running"
            or body["entries"]
            and body
        ),
        "more decisions",
        process,
    )
    if later["state"] == "running":
        assert later["entries"][0]["number"] == len(entries) and later["setup"] is None

    # once recorded, the live game names the stored one, whose replay has the same moves
    ended = wait_for(
        lambda: (
            (body := client.get(f"/api/live/{live['id']}").json())["state"] == "recorded" and body
        ),
        "recorded",
        process,
    )
    stored = client.get(f"/api/games/{ended['game_id']}").json()
    assert stored["decisions"] == ended["decisions"] >= len(entries)
    assert [seat["bot"] for seat in stored["seats"]] == [seat["bot"] for seat in live["seats"]]
    replay = f"/api/games/{ended['game_id']}/replay"
    if stored["held"] is not None:  # the first rotation of the deal: held until the second ends
        assert client.get(replay, params={"seat": "0"}).status_code == 403
    assert live["id"] not in [game["id"] for game in client.get("/api/live").json()["games"]]
    process.wait(timeout=120)
    assert process.returncode == 0, process.communicate()
    assert client.get(replay, params={"seat": "0"}).is_success


def test_worker_processes_report_the_games_they_play(tmp_path):
    db = tmp_path / "arena.db"
    process = start_tournament(tmp_path, db, "--concurrency", "2", "--workers", "2")
    try:
        client = _client(db, process)
        games = wait_for(
            lambda: [g for g in client.get("/api/live").json()["games"] if g["decisions"] >= 5],
            "a game in play in a worker with 5 decisions",
            process,
        )
        body = client.get(f"/api/live/{games[0]['id']}").json()
        assert body["decisions"] >= 5 and body["state"] == "running"
    finally:
        process.kill()
        process.communicate()


def test_a_match_is_shown_live_then_replayed(tmp_path):
    db = tmp_path / "arena.db"
    bots = [slow_bot(tmp_path / name, name) for name in ("tortoise", "snail")]
    process = start_cli("match", "--db", str(db), "--game", "oregon", "--json", *map(str, bots))
    try:
        client = _client(db, process)
        [live] = wait_for(
            lambda: [g for g in client.get("/api/live").json()["games"] if g["decisions"] >= 5],
            "the match in play with 5 decisions",
            process,
        )
        assert live["tournament_id"] is None
        assert [seat["bot"] for seat in live["seats"]] == ["tortoise", "snail"]
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        ended = client.get(f"/api/live/{live['id']}").json()
        assert ended["state"] == "recorded" and ended["game_id"] == json.loads(out)["game_id"]
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_a_game_of_a_killed_tournament_is_not_shown_as_in_play(tournament_db):
    db, process = tournament_db
    client = _client(db, process)
    [live, *_] = wait_for(  # the deal's second rotation, shown live
        lambda: [g for g in client.get("/api/live").json()["games"] if g["held"] is None],
        "a game shown live",
        process,
    )
    process.kill()  # no chance to clean up
    process.communicate()

    # At once, while its heartbeat is still fresh: its run lock went with the process.
    def gone(client: TestClient) -> None:
        assert client.get("/api/live").json()["games"] == []
        stale = client.get(f"/api/live/{live['id']}").json()
        # the position it reached stays shown (the page stayed blank, outside review)
        assert stale["state"] == "stale" and stale["frame"]["number"] == stale["decisions"]
        assert client.get(f"/api/tournaments/{live['tournament_id']}").json()["running"] == []

    gone(TestClient(create_app(db, warm_up=False)))
    # and once its heartbeat is older than STALE_SECONDS (made so here)
    _execute(db, "UPDATE running_game SET heartbeat = '2000-01-01 00:00:00'")
    gone(TestClient(create_app(db, warm_up=False)))


def _execute(db: DatabaseTarget, sql: str) -> None:
    """``sql`` run on ``db``: a database nothing else writes any more."""
    if isinstance(db, Path):
        with sqlite3.connect(db) as connection:
            connection.execute(sql)
    else:
        with psycopg.connect(str(db)) as connection:
            connection.execute(sql)  # type: ignore[arg-type]  # a literal, no parameters


def test_unknown_and_bad_live_addresses_are_one_line_errors(client):
    assert client.get("/api/live").json()["games"] == []
    assert client.get("/api/live", params={"tournament": "x"}).status_code == 400
    for url in ("/api/live/7", f"/api/live/{2**64}", "/live/7"):
        response = client.get(url)
        assert response.status_code == 404, url
    assert "no game in play with id 7" in client.get("/api/live/7").json()["error"]


# --- the decision log of a stored game ---------------------------------------------------
@pytest.fixture(scope="module")
def client(web_db, tmp_path_factory) -> TestClient:
    frames = tmp_path_factory.mktemp("frames")  # a URL's default is the user's cache
    return TestClient(create_app(web_db, warm_up=False, frames_dir=frames))


def _oregon_game(client: TestClient) -> dict:
    [game, *_] = client.get("/api/games", params={"game": "oregon"}).json()["games"]
    return game


def _events_as_seen(db: DatabaseTarget, game_id: int, seat: int | None) -> list[list[str]]:
    """Independently of the web: per decision, the events ``seat`` learnt after it, in words."""
    game = ReadOnlyDatabase(db).game(game_id)
    assert game is not None
    told = [0]
    seen: list[list[str]] = []

    def after_each(number: int, state: Any, index: int) -> None:
        seen.append([event["text"] for event in events_seen(state, seat, told[0])])
        told[0] = len(state.event_log)

    state = get_game(game["game"]).replay(
        game["num_players"], game["seed"], game["actions"], game["options"], before_each=after_each
    )
    seen.append([event["text"] for event in events_seen(state, seat, told[0])])
    return seen[1:]  # seen[0] is the deal, before the first decision


def _texts(entries: list[dict]) -> list[list[str]]:
    return [[event["text"] for event in entry["events"]] for entry in entries]


def test_a_seats_decision_log_holds_what_that_seat_saw_and_nothing_more(client, web_db):
    game = _oregon_game(client)
    referee = client.get(f"/api/games/{game['id']}/log").json()
    assert referee["seat"] is None and len(referee["entries"]) == game["decisions"]
    for seat in (0, 1):
        log = client.get(f"/api/games/{game['id']}/log", params={"seat": str(seat)}).json()
        assert log["seat"] == seat
        entries = log["entries"]
        assert [entry["number"] for entry in entries] == list(range(game["decisions"]))
        for entry in entries:
            if entry["seat"] == seat:
                assert "action" in entry and entry["seconds"] is not None
            else:  # another seat's choice, time and comment are not in this seat's frames
                assert not set(DETAILS) & set(entry), entry
        seen = _texts(entries)
        assert seen == _events_as_seen(web_db, game["id"], seat)
        assert seen != _texts(referee["entries"])  # the referee saw the other seat's cards too
    assert all("action" in entry for entry in referee["entries"])
    scores = [entry["scores"] for entry in referee["entries"]]
    final = client.get(f"/api/games/{game['id']}/replay").json()["scores"]
    assert scores == final[1:]


def test_the_decision_log_refuses_a_seat_the_game_has_not(client):
    game = _oregon_game(client)
    assert client.get(f"/api/games/{game['id']}/log", params={"seat": "2"}).status_code == 400
    assert client.get("/api/games/999/log").status_code == 404
