"""Every endpoint of the web arena on a database filled by real tournaments of each game."""

from __future__ import annotations

import hashlib
import html
import json
import math
import re
import sqlite3
from pathlib import Path
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from arena.errors import DatabasePathError, StorageError
from arena.storage import read_only
from arena.storage.read_only import ReadOnlyDatabase
from arena.web.app import create_app
from arena.web.jsonable import to_json
from engine.registry import get_game
from tests.tournament.helpers import SAMPLE_BOTS
from tests.web.conftest import EVIL_NAME, GAMES, altered_copy, run_arena

ESCAPED_NAME = "&lt;script&gt;alert(1)&lt;b&gt;&#39;&amp;amp;"  # as markupsafe escapes EVIL_NAME


@pytest.fixture(scope="module")
def client(web_db, tmp_path_factory) -> TestClient:
    """The web arena over the web tests' database, SQLite's and PostgreSQL's (every test that
    takes it runs on both)."""
    frames = tmp_path_factory.mktemp("frames")  # a URL's default is the user's cache
    return TestClient(create_app(web_db, frames_dir=frames))


def game_ids(client: TestClient, game: str) -> list[int]:
    return [g["id"] for g in client.get("/api/games", params={"game": game}).json()["games"]]


def test_leaderboard_has_a_board_per_game_and_player_count(client):
    data = client.get("/api/leaderboard").json()
    boards = {(b["game"], b["players"]): b for b in data["boards"]}
    assert set(boards) == {(game, 2) for game in GAMES}
    for board in boards.values():
        assert board["games"] == 2
        assert {row["bot"] for row in board["rows"]} == {"random-python", EVIL_NAME}
        for row in board["rows"]:
            batch = row["batch"]
            point = round(batch["rating"])  # given always: it orders the rows
            if batch["bound"] == "lower":  # the upper end is the prior's
                assert batch["high"] is None and batch["low"] <= batch["rating"]
                assert batch["text"].startswith(f"{point} [{round(batch['low'])}, ∞)")
            elif batch["bound"] == "upper":
                assert batch["low"] is None and batch["rating"] <= batch["high"]
                assert batch["text"].startswith(f"{point} (-∞, {round(batch['high'])}]")
            else:
                assert batch["low"] <= batch["rating"] <= batch["high"]
            assert row["games"] == 2 and row["latest"]
        assert len(board["crosstable"]) == 2
    only = client.get("/api/leaderboard", params={"game": "ogallala", "players": 2}).json()
    assert [(b["game"], b["players"]) for b in only["boards"]] == [("ogallala", 2)]
    assert client.get("/api/leaderboard", params={"players": 4}).json()["boards"] == []


def test_a_new_unplayed_version_leaves_its_bot_on_the_boards(arena_db, tmp_path):
    """As `arena leaderboard` does: each bot's newest version that played on the board is shown,
    positions counted among the rows shown (a new upload has not played yet)."""
    db = altered_copy(
        arena_db,
        tmp_path / "arena.db",
        "INSERT INTO bot_version (bot_id, version, content_hash, directory, command, "
        "address, games, env, created_at) SELECT bot_id, version, 'changed', directory, "
        "command, address, games, env, created_at FROM bot_version WHERE bot_id = "
        "(SELECT id FROM bot WHERE name = 'random-python')",
    )
    data = TestClient(create_app(db)).get("/api/leaderboard").json()
    for board in data["boards"]:
        assert {row["bot"] for row in board["rows"]} == {"random-python", EVIL_NAME}
        ratings = [row["batch"]["rating"] for row in board["rows"]]
        tied = None not in ratings and round(ratings[0], 2) == round(ratings[1], 2)  # 1-1
        assert sorted(row["position"] for row in board["rows"]) == ([1, 1] if tied else [1, 2])


def test_a_bot_without_rated_games_has_no_empty_chart(arena_db, tmp_path):
    """A newly registered bot's page says it has no rated games instead of drawing bare axes."""
    db = altered_copy(
        arena_db,
        tmp_path / "arena.db",
        "INSERT INTO bot (name, created_at) VALUES ('newcomer', '2026-12-01')",
        "INSERT INTO bot_version (bot_id, version, content_hash, directory, command, "
        "address, games, env, created_at) SELECT (SELECT id FROM bot WHERE name = "
        "'newcomer'), version, 'new', directory, command, address, games, env, created_at "
        "FROM bot_version LIMIT 1",
    )
    page = TestClient(create_app(db, warm_up=False)).get("/bots/newcomer")
    assert page.status_code == 200
    assert "rating-chart" not in page.text and "No rated games yet" in page.text


def test_a_bots_page_charts_only_its_newest_elo_updates(arena_db, monkeypatch):
    """A ladder adds thousands of games an hour: the page (and its JSON) grew without end."""
    everything = ReadOnlyDatabase(arena_db).bot("random-python")
    monkeypatch.setattr(read_only, "_HISTORY_LISTED", 4)
    bot = ReadOnlyDatabase(arena_db, public=True).bot("random-python")
    assert bot is not None and everything is not None and len(everything["rating_history"]) > 4
    assert len(bot["rating_history"]) == 4
    assert bot["rating_history"] == everything["rating_history"][-4:]  # the newest, in order


def test_leaderboard_of_one_tournament(client):
    tournaments = client.get("/api/tournaments").json()["tournaments"]
    merkator = next(t for t in tournaments if t["game"] == "merkator")
    data = client.get("/api/leaderboard", params={"tournament": merkator["id"]}).json()
    assert [b["game"] for b in data["boards"]] == ["merkator"]


def test_bots_and_a_bot_page(client):
    bots = client.get("/api/bots").json()["bots"]
    assert {b["name"]: b["games"] for b in bots} == {"random-python": 6, EVIL_NAME: 6}
    bot = client.get("/api/bots/random-python").json()
    assert bot["name"] == "random-python" and len(bot["versions"]) == 1
    # Neither where its files lie on the host nor, for a remote bot, its address is public.
    assert set(bot["versions"][0]) == {
        "id",
        "version",
        "hash",
        "created_at",
        "remote",
        "games",
        "paused",
    }
    assert bot["versions"][0]["remote"] is False
    assert str(SAMPLE_BOTS) not in client.get("/bots/random-python").text
    assert {r["game"]: r["games"] for r in bot["results"]} == {game: 2 for game in GAMES}
    assert len(bot["rating_history"]) == 6
    assert all(set(h) >= {"game_id", "before", "after"} for h in bot["rating_history"])
    games_in_order = [h["game_id"] for h in bot["rating_history"]]
    assert games_in_order == sorted(games_in_order)
    assert {(h["game"], h["opponent"], h["games"]) for h in bot["head_to_head"]} == {
        (game, EVIL_NAME, 2) for game in GAMES
    }
    assert len(bot["recent_games"]) == 6
    assert bot["forfeits"] == []
    # A name that is markup travels quoted in the path.
    evil = client.get(f"/api/bots/{quote(EVIL_NAME, safe='')}").json()
    assert evil["name"] == EVIL_NAME
    assert client.get("/api/bots/nobody").status_code == 404


def test_tournaments_and_a_tournament(client):
    tournaments = client.get("/api/tournaments").json()["tournaments"]
    assert sorted(t["game"] for t in tournaments) == sorted(GAMES)
    assert all(t["state"] == "finished" and t["games"] == 2 for t in tournaments)
    data = client.get(f"/api/tournaments/{tournaments[0]['id']}").json()
    assert data["progress"] == {
        "scheduled": 2,
        "finished": 2,
        "with_forfeit": 0,
        "voided": 0,
        "decided": False,  # an SPRT test's
        "at_a_time": 0,  # while it runs
        "seconds_left": None,
    }
    assert data["settings"]["players"] == 2 and data["settings"]["deals"] == 1
    assert [e["bot"] for e in data["entrants"]] == ["random-python", EVIL_NAME]
    assert len(data["standings"]) == 2 and len(data["crosstable"]) == 2
    assert {c["bot"] for c in data["crosstable"]} == {"random-python", EVIL_NAME}
    assert len(data["games"]) == 2
    assert client.get("/api/tournaments/999").status_code == 404


def test_games_list_filters_and_pages(client):
    everything = client.get("/api/games").json()
    assert everything["total"] == 6
    ids = [g["id"] for g in everything["games"]]
    assert ids == sorted(ids, reverse=True), "newest first"
    assert client.get("/api/games", params={"game": "oregon"}).json()["total"] == 2
    assert client.get("/api/games", params={"bot": EVIL_NAME}).json()["total"] == 6
    assert client.get("/api/games", params={"bot": "nobody"}).json()["total"] == 0
    searched = client.get("/games", params={"bot": "x" * 60_000})  # echoed up to 100 characters
    assert searched.status_code == 200 and "x" * 100 in searched.text
    assert "x" * 101 not in searched.text and len(searched.text) < 50_000
    tournament = everything["games"][0]["tournament_id"]
    assert client.get("/api/games", params={"tournament": tournament}).json()["total"] == 2
    assert client.get("/api/games", params={"outcome": "voided"}).json()["total"] == 0
    completed = client.get("/api/games", params={"outcome": "completed"}).json()["total"]
    forfeits = client.get("/api/games", params={"outcome": "forfeit"}).json()["total"]
    assert completed + forfeits == 6
    page = client.get("/api/games", params={"limit": 4, "offset": 4}).json()
    assert [g["id"] for g in page["games"]] == ids[4:]
    assert client.get("/api/games", params={"limit": "x"}).status_code == 400
    assert client.get("/api/games", params={"outcome": "won"}).status_code == 400


def test_a_game_never_publishes_its_seed(client):
    game_id = game_ids(client, "oregon")[0]
    game = client.get(f"/api/games/{game_id}").json()
    assert game["game"] == "oregon" and game["decisions"] > 0 and len(game["seats"]) == 2
    assert "seed" not in game and "actions" not in game
    assert client.get("/api/games/999").status_code == 404


def test_no_page_or_api_response_holds_a_seed(client, arena_db):
    """Neither a game's seed nor its tournament's (from which every deal's seed follows): the
    game lists, the bot and tournament pages and their JSON twins list games too."""
    with sqlite3.connect(arena_db) as raw:
        seeds = {str(row[0]) for row in raw.execute("SELECT seed FROM game")}
        seeds |= {str(row[0]) for row in raw.execute("SELECT seed FROM tournament")}
        tournament = raw.execute("SELECT MIN(id) FROM tournament").fetchone()[0]
    game_id = game_ids(client, "oregon")[0]
    paths = [
        *PAGES,
        f"/tournaments/{tournament}",
        f"/games/{game_id}",
        "/api/leaderboard",
        "/api/bots",
        "/api/bots/random-python",
        "/api/tournaments",
        f"/api/tournaments/{tournament}",
        "/api/games",
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/replay",
        f"/api/games/{game_id}/frames",
    ]
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        assert not [seed for seed in seeds if seed in response.text], path
        assert '"seed"' not in response.text, path


def all_frames(client: TestClient, game_id: int, seat: str) -> list[dict]:
    outline = client.get(f"/api/games/{game_id}/replay", params={"seat": seat}).json()
    frames: list[dict] = []
    while len(frames) < len(outline["outline"]):
        frames += client.get(
            f"/api/games/{game_id}/frames", params={"seat": seat, "start": len(frames)}
        ).json()["frames"]
    return frames


@pytest.mark.parametrize("game", GAMES)
def test_replay_frames_as_referee_hold_every_seat_and_every_decision(client, arena_db, game):
    game_id = game_ids(client, game)[0]
    stored = ReadOnlyDatabase(arena_db).game(game_id)
    outline = client.get(f"/api/games/{game_id}/replay").json()
    assert len(outline["outline"]) == len(stored["actions"]) + 1
    assert len(outline["scores"]) == len(outline["outline"])
    assert "seed" not in json.dumps(outline)
    frames = all_frames(client, game_id, "referee")
    assert [f["number"] for f in frames] == list(range(len(stored["actions"]) + 1))
    for frame, index in zip(frames, stored["actions"]):
        assert set(frame["views"]) == {"0", "1"}
        assert frame["chosen"] == index and 0 <= index < len(frame["legal"])
        assert all(isinstance(words, str) and words for words in frame["legal"])
        # Recorded by the referee since schema 2: the time taken and the comment.
        assert frame["seconds"] >= 0
        assert isinstance(frame["comment"], str)
    assert frames[-1]["final"]


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_gets_exactly_its_own_view_and_nothing_of_the_others_decisions(
    client, arena_db, game
):
    game_id = game_ids(client, game)[0]
    stored = ReadOnlyDatabase(arena_db).game(game_id)
    engine = get_game(game)
    for seat in (0, 1):
        frames = all_frames(client, game_id, str(seat))
        state = engine.new_game(stored["num_players"], stored["seed"], stored["options"])
        for frame, index in zip(frames, stored["actions"]):
            assert frame["views"] == {str(seat): to_json(state.view(seat))}
            if frame["seat"] == seat:
                assert frame["chosen"] == index
            else:  # another seat's options, choice, comment and time are not in this view
                assert not {"legal", "chosen", "action", "comment", "seconds"} & set(frame)
            state.apply_index(index)
        assert frames[-1]["views"] == {str(seat): to_json(state.view(seat))}


def test_an_oregon_seat_never_receives_the_other_hand(client):
    game_id = game_ids(client, "oregon")[0]
    referee = all_frames(client, game_id, "referee")
    as_seat_1 = all_frames(client, game_id, "1")
    for full, seen in zip(referee[:-1], as_seat_1[:-1]):
        other = full["views"]["0"]
        assert seen["views"]["1"]["players"][0]["coal_values"] == []
        assert other != seen["views"]["1"]
        assert json.dumps(other) not in json.dumps(seen)


def test_replay_rejects_a_seat_that_is_not_in_the_game(client):
    game_id = game_ids(client, "oregon")[0]
    assert client.get(f"/api/games/{game_id}/replay", params={"seat": "2"}).status_code == 400
    assert client.get(f"/api/games/{game_id}/frames", params={"seat": "x"}).status_code == 400


PAGES = [
    "/leaderboard",
    "/leaderboard?game=oregon&players=2&all_versions=1",
    "/bots",
    "/bots/random-python",
    f"/bots/{quote(EVIL_NAME, safe='')}",
    "/tournaments",
    "/games",
    "/games?outcome=completed&game=merkator",
]


@pytest.mark.parametrize("path", PAGES)
def test_pages_show_a_bot_provided_name_as_text(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert EVIL_NAME not in response.text
    if path not in ("/tournaments",):
        assert ESCAPED_NAME in response.text or "\\u003cscript\\u003e" in response.text


def test_tournament_and_game_pages(client):
    tournament = client.get("/api/tournaments").json()["tournaments"][0]["id"]
    for path in (f"/tournaments/{tournament}", f"/games/{game_ids(client, 'oregon')[0]}"):
        response = client.get(path)
        assert response.status_code == 200 and EVIL_NAME not in response.text
        assert ESCAPED_NAME in response.text


INLINE_TAG = r"</?(?:a|abbr|span)\b[^>]*>"


def rating_words(batch: dict) -> str:
    """A batch rating as the leaderboard writes it: the point, "?" if provisional, then the
    interval, its open end infinite where the games bound it on one side only."""
    low = "(-∞" if batch["low"] is None else f"[{round(batch['low'])}"
    high = "∞)" if batch["high"] is None else f"{round(batch['high'])}]"
    return f"{round(batch['rating'])}{'?' if batch['provisional'] else ''} {low}, {high}"


def test_tournament_standings_write_ratings_as_the_leaderboard_does(client):
    """A perfect record shows its point and its bound; few games make a rating provisional."""
    for tournament in client.get("/api/tournaments").json()["tournaments"]:
        standings = client.get(f"/api/tournaments/{tournament['id']}").json()["standings"]
        page = client.get(f"/tournaments/{tournament['id']}").text
        table = page.split("<h2>Standings</h2>")[1].split("</table>")[0]
        rows = [  # each row's text: inline tags dropped, cells apart
            " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(INLINE_TAG, "", row))).split())
            for row in re.findall(r"<tr>(.*?)</tr>", table, re.DOTALL)[1:]
        ]
        assert len(rows) == len(standings) == 2
        for row, text in zip(standings, rows):
            assert rating_words(row["batch"]) in text, text
        # the crosstable's cells, each the row's share against the column (review K: it was
        # built by scanning every cell for each)
        crosstable = page.split('<table class="crosstable">')[1].split("</table>")[0]
        for cell in client.get(f"/api/tournaments/{tournament['id']}").json()["crosstable"]:
            percent = math.floor(cell["share"] * 100 + 0.5)  # jinja's round: half up
            shown = f'{percent}% <span class="muted small">({cell["games"]})'
            assert shown in crosstable, crosstable


def test_a_tournament_page_links_to_all_its_games(client):
    """The page lists the newest 100 games; the game list has them all."""
    tournament = client.get("/api/tournaments").json()["tournaments"][0]["id"]
    data = client.get(f"/api/tournaments/{tournament}").json()
    assert data["games_total"] == 2
    page = client.get(f"/tournaments/{tournament}").text
    assert f'href="/games?tournament={tournament}"' in page


def test_every_chart_is_labelled_for_a_screen_reader(client):
    """A canvas is a bitmap: without role="img" its aria-label is not read out."""
    for path in ["/bots/random-python", f"/games/{game_ids(client, 'oregon')[0]}"]:
        canvases = re.findall(r"<canvas\b[^>]*>", client.get(path).text)
        assert canvases, path
        for canvas in canvases:
            assert 'role="img"' in canvas and re.search(r'aria-label="[^"]+"', canvas), canvas


def test_an_sprt_page_shows_the_test_and_where_it_stands(arena_db, tmp_path):
    """`arena sprt` stores its test as a tournament of NEW and BASE: its page says so, with the
    log-likelihood ratio against its bounds, instead of 'deals per pod'."""
    db = altered_copy(  # oregon-web's two games make one pair of an SPRT
        arena_db,
        tmp_path / "sprt.db",
        "UPDATE tournament SET settings = json_set(settings, '$.sprt', "
        'json(\'{"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05}\')) '
        "WHERE name = 'oregon-web'",
    )
    with sqlite3.connect(db) as raw:
        [(tournament,)] = raw.execute("SELECT id FROM tournament WHERE name = 'oregon-web'")
    client = TestClient(create_app(db, warm_up=False))
    sprt = client.get(f"/api/tournaments/{tournament}").json()["sprt"]
    assert (sprt["new"], sprt["base"]) == ("random-python", EVIL_NAME)
    assert sprt["pairs"] == 1 and sprt["status"] == "continue"
    assert sprt["lower"] < sprt["llr"] < sprt["upper"]
    page = client.get(f"/tournaments/{tournament}").text
    assert "SPRT" in page and "LLR" in page and "deals per pod" not in page


def test_errors_are_pages_or_json(client):
    assert client.get("/games/999").status_code == 404
    assert "no game 999" in client.get("/games/999").text
    assert client.get("/api/games/999").json() == {"error": "no game 999"}


def test_an_unknown_address_says_which_and_where_to_go(client):
    page = client.get("/leaderbord")
    assert page.status_code == 404
    assert "no page at /leaderbord" in page.text and 'href="/leaderboard"' in page.text
    assert client.get("/api/nothing").json() == {"error": "no page at /api/nothing"}


HUGE = "99999999999999999999"  # more than SQLite's 64-bit integers hold


@pytest.mark.parametrize(
    ("path", "status"),
    [
        (f"/games/{HUGE}", 404),
        (f"/api/games/{HUGE}", 404),
        (f"/api/games/{HUGE}/replay", 404),
        (f"/api/games/{HUGE}/frames", 404),
        (f"/tournaments/{HUGE}", 404),
        (f"/api/tournaments/{HUGE}", 404),
        (f"/games?offset={HUGE}", 400),
        (f"/games?tournament={HUGE}", 400),
        (f"/api/games?tournament={HUGE}", 400),
        (f"/leaderboard?tournament={HUGE}", 400),
        (f"/api/leaderboard?players={HUGE}", 400),
    ],
)
def test_a_number_too_large_for_the_database_is_a_clear_error(client, path, status):
    response = client.get(path)
    assert response.status_code == status
    if path.startswith("/api/"):
        assert set(response.json()) == {"error"}
    else:
        assert f"Error {status}" in response.text


@pytest.mark.parametrize("path", ["/games", "/leaderboard", "/api/games", "/api/leaderboard"])
def test_an_unknown_game_is_a_clear_error_not_an_empty_list(client, path):
    response = client.get(path, params={"game": "chess"})
    assert response.status_code == 400
    assert "game must be one of" in response.text and "oregon" in response.text


@pytest.mark.parametrize("path", ["/games", "/leaderboard", "/api/games", "/api/leaderboard"])
def test_an_unknown_tournament_is_a_clear_error_not_an_empty_list(client, path):
    response = client.get(path, params={"tournament": 999})
    assert response.status_code == 400
    assert "no tournament 999" in response.text


def test_an_empty_leaderboard_says_whether_filters_emptied_it(client):
    filtered = client.get("/leaderboard", params={"players": 4}).text
    assert "No rated games match" in filtered and "No rated games yet" not in filtered


def test_a_leaderboard_page_shows_each_boards_top_rows_and_finds_a_bot_in_all(client):
    """A board of 211 bots made the page 1.6 MB (outside review K): a page shows each board's
    first rows (``BOARD_PAGE_ROWS``; ``rows=N``), a link to the rest, and ``bot=`` finds a
    bot in every row, at its place."""
    full = client.get("/api/leaderboard").json()["boards"]  # the API: every row by default
    assert all(len(board["rows"]) == board["total_rows"] == 2 for board in full)
    top = client.get("/api/leaderboard", params={"rows": 1}).json()["boards"]
    assert [board["rows"] for board in top] == [board["rows"][:1] for board in full]
    assert [board["scale"] for board in top] == [board["scale"] for board in full]

    page = client.get("/leaderboard", params={"rows": 1, "game": "oregon"}).text
    assert page.count('<td class="num">1</td>') == 1 and "The top 1 of 2" in page
    assert 'href="/leaderboard?game=oregon&amp;players=2&amp;rows=all#board-oregon-2"' in page
    assert "The top" not in client.get("/leaderboard", params={"game": "oregon"}).text

    found = client.get("/api/leaderboard", params={"bot": "SCRIPT", "rows": 1}).json()["boards"]
    for board, whole in zip(found, full, strict=True):
        assert board["rows"] == [row for row in whole["rows"] if row["bot"] == EVIL_NAME]
    page = client.get("/leaderboard", params={"bot": EVIL_NAME}).text
    assert EVIL_NAME not in page and ESCAPED_NAME in page  # the search text escaped too
    nobody = client.get("/leaderboard", params={"bot": "nobody"}).text
    assert "No bot whose name holds “nobody” is on any board" in nobody
    for bad in ("0", "x", "-3"):
        assert client.get("/leaderboard", params={"rows": bad}).status_code == 400


def test_every_response_carries_a_strict_content_security_policy(client):
    policy = client.get("/leaderboard").headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert client.get("/api/bots").headers["x-content-type-options"] == "nosniff"


def test_the_app_never_writes_to_the_database(arena_db, client):
    before = hashlib.sha256(arena_db.read_bytes()).hexdigest()
    for path in PAGES + ["/api/leaderboard", "/api/games", "/api/bots/random-python"]:
        client.get(path)
    assert hashlib.sha256(arena_db.read_bytes()).hexdigest() == before
    with (
        pytest.raises(StorageError, match="readonly"),
        ReadOnlyDatabase(arena_db).session() as session,
    ):
        session.connection().exec_driver_sql("DELETE FROM game")


def test_a_missing_or_foreign_file_is_refused(tmp_path: Path):
    with pytest.raises(DatabasePathError, match="no arena database"):
        create_app(tmp_path / "missing.db")
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as raw:
        raw.execute("CREATE TABLE invoices (id INTEGER)")
    with pytest.raises(StorageError, match="not an arena database"):
        create_app(foreign)


def test_a_schema_1_database_still_replays_without_times(arena_db, tmp_path):
    old = altered_copy(
        arena_db,
        tmp_path / "old.db",
        "ALTER TABLE game DROP COLUMN decision_seconds",
        "ALTER TABLE game DROP COLUMN comments",
        "UPDATE schema_version SET version = 1",
    )
    client = TestClient(create_app(old, warm_up=False))
    outline = client.get("/api/games/1/replay").json()
    assert outline["has_decision_details"] is False
    frame = client.get("/api/games/1/frames", params={"count": 1}).json()["frames"][0]
    assert frame["seconds"] is None and frame["comment"] == "" and frame["legal"]
    assert client.get("/leaderboard").status_code == 200


def test_a_stored_log_that_does_not_fit_the_engine_is_a_clear_conflict(arena_db, tmp_path):
    broken = altered_copy(
        arena_db,
        tmp_path / "broken.db",
        "UPDATE game SET actions = '[0, 9999]' WHERE id = 1",
        "UPDATE game SET rules_version = 'oregon-0' WHERE id = 2",
    )
    client = TestClient(create_app(broken, warm_up=False))
    for game_id, message in [(1, "action 1: index 9999 of"), (2, "recorded with rules oregon-0")]:
        response = client.get(f"/api/games/{game_id}/replay")
        assert response.status_code == 409
        assert f"game {game_id} cannot be replayed" in response.text
        assert message in response.text


def test_a_board_of_one_game_says_game_not_games(arena_db, tmp_path):
    """The first `arena match` of a game makes a board of 1 rated game, not "1 rated games"."""
    db = altered_copy(
        arena_db,
        tmp_path / "arena.db",
        "UPDATE game SET status = 'voided' WHERE id = "
        "(SELECT MIN(id) FROM game WHERE game = 'oregon')",
    )
    client = TestClient(create_app(db, warm_up=False))
    board = client.get("/api/leaderboard", params={"game": "oregon"}).json()["boards"][0]
    assert board["games"] == 1
    page = client.get("/leaderboard", params={"game": "oregon"}).text
    assert "1 rated game</span>" in page


def test_the_web_and_the_terminal_show_one_board(arena_db, tmp_path):
    """One builder: /api/leaderboard gives what `arena leaderboard --json` gives, and a one-sided
    row (random-python won both Oregon games) shows the point it is ordered by and its bound, on
    the page too: the bar runs from the bound to the edge with an arrow, and the prior's other
    end is written nowhere (infinite in words)."""
    db = altered_copy(
        arena_db,
        tmp_path / "one-sided.db",
        "UPDATE seat SET rank = CASE WHEN bot_version_id = (SELECT v.id FROM bot_version v "
        "JOIN bot b ON b.id = v.bot_id WHERE b.name = 'random-python') THEN 1 ELSE 2 END "
        "WHERE game_id IN (SELECT id FROM game WHERE game = 'oregon')",
    )
    web = TestClient(create_app(db, warm_up=False))
    [board] = web.get("/api/leaderboard", params={"game": "oregon"}).json()["boards"]
    done = run_arena("leaderboard", "--json", "--crosstable", "--game", "oregon", "--db", str(db))
    assert done.returncode == 0, done.stderr
    web_only = {"scale": None, "total_rows": None}  # the bars' scale, the rows before paging
    assert [{**board, **web_only}] == [{**b, **web_only} for b in json.loads(done.stdout)]
    winner = next(row for row in board["rows"] if row["bot"] == "random-python")["batch"]
    assert winner["bound"] == "lower" and winner["high"] is None
    point, low = round(winner["rating"]), round(winner["low"])
    assert winner["text"] == f"{point} [{low}, ∞) ?"
    terminal = run_arena("leaderboard", "--game", "oregon", "--db", str(db)).stdout
    assert winner["text"] in terminal
    page = web.get("/leaderboard", params={"game": "oregon"}).text
    row = next(
        r for r in re.findall(r"<tr[^>]*>(.*?)</tr>", page, re.DOTALL) if "random-python" in r
    )
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(INLINE_TAG, "", row))).split())
    assert f"{point}? " in text and f"[{low}, ∞)" in text
    assert 'class="arrow"' in row and 'class="point"' in row
    assert not re.search(rf"{low}\s*[–-]\s*\d", text), text
