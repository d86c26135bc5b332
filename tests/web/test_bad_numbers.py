"""Numbers in the query of the live and ladder pages that are not numbers a stored id can be:
"²" and "①" (``str.isdigit`` takes them, ``int`` does not), 5,000 digits (``int`` refuses over
4,300), more than SQLite's INTEGER holds, and a count of no frames. Each is a 400 with the
parameter's message, never a 500: the app runs as ``arena serve`` does, over a real SQLite file
with a game in play written as a tournament writes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.storage import running
from arena.storage.database import open_database
from arena.storage.models import Tournament
from arena.web.app import create_app
from engine.registry import get_game
from tests.tournament.records import register_bots

SUPERSCRIPT_TWO = "%C2%B2"  # ²
CIRCLED_ONE = "%E2%91%A0"  # ①
DIGITS_5000 = "9" * 5000
OVER_SQLITE = str(2**31)  # one more than the largest id stored (32-bit in PostgreSQL)


@pytest.fixture
def in_play(tmp_path: Path) -> tuple[TestClient, int, int]:
    """The app over a database with one game in play (no decision yet) of a tournament: the
    client (raising the server's exceptions, as a 500 would be), the game's and the
    tournament's ids."""
    path = tmp_path / "arena.db"
    database = open_database(path, create=True)
    try:
        versions = register_bots(database, ["a", "b"])
        seats = [{"bot": "a", "version": versions[0]}, {"bot": "b", "version": versions[1]}]
        with database.write() as session:
            tournament = Tournament(name="t", game="oregon", settings={}, seed=1)
            session.add(tournament)
            session.flush()
            assert tournament.id is not None
            tournament_id = tournament.id
            rules = get_game("oregon").rules_version
            new = running.NewRunningGame(tournament_id, "k", "oregon", rules, {}, 1, seats)
            live_id = running.add(session, new)
    finally:
        database.close()
    return TestClient(create_app(path, warm_up=False)), live_id, tournament_id


BAD = [SUPERSCRIPT_TWO, CIRCLED_ONE, DIGITS_5000, "-1", "1.0", " 1"]


@pytest.mark.parametrize("path", ["/api/live", "/live"])
@pytest.mark.parametrize("value", [*BAD, OVER_SQLITE], ids=lambda v: v[:12])
def test_a_tournament_that_is_no_number_is_a_400(in_play, path: str, value: str):
    client, _, _ = in_play
    answer = client.get(f"{path}?tournament={value}")
    assert answer.status_code == 400
    assert "tournament must be a whole number from 0 to 2147483647" in answer.text


@pytest.mark.parametrize(
    "query, message",
    [
        *[(f"?after={bad}", "after must be a whole number from 0 to 0") for bad in BAD],
        *[(f"/frames?start={bad}", "start must be a whole number from 0 to 0") for bad in BAD],
        *[(f"/frames?count={bad}", "count must be a whole number from 1 to 200") for bad in BAD],
        ("/frames?count=0", "count must be a whole number from 1 to 200"),
        ("/frames?count=201", "count must be a whole number from 1 to 200"),
    ],
    ids=lambda v: v[:24],
)
def test_a_game_in_plays_numbers_that_are_no_numbers_are_a_400(in_play, query: str, message):
    client, live_id, _ = in_play
    answer = client.get(f"/api/live/{live_id}{query}")
    assert answer.status_code == 400
    assert answer.json() == {"error": message}


def test_good_numbers_still_answer(in_play):
    client, live_id, tournament_id = in_play
    listed = client.get(f"/api/live?tournament={tournament_id}").json()["games"]
    assert [game["id"] for game in listed] == [live_id]
    assert client.get(f"/api/live?tournament={tournament_id + 1}").json()["games"] == []
    assert client.get(f"/live?tournament={tournament_id}").status_code == 200
    # the first rotation of its deal: its progress only (test_live_api follows a shown one)
    assert client.get(f"/api/live/{live_id}?after=0").json()["held_reason"]
    assert client.get(f"/api/live/{live_id}/frames?start=0&count=1").status_code == 403


@pytest.mark.parametrize("path", ["/api/ladder", "/ladder", "/api/ladder/now"])
@pytest.mark.parametrize("value", [*BAD, OVER_SQLITE], ids=lambda v: v[:12])
def test_a_ladder_id_that_is_no_number_is_a_400(in_play, path: str, value: str):
    client, _, _ = in_play
    answer = client.get(f"{path}?id={value}")
    assert answer.status_code == 400
    assert "id must be a ladder" in answer.text  # the page escapes its quote


@pytest.mark.parametrize(
    "path", ["/games/{}", "/api/games/{}", "/api/games/{}/frames", "/tournaments/{}", "/live/{}"]
)
@pytest.mark.parametrize("value", [DIGITS_5000, "9" * 20, OVER_SQLITE], ids=lambda v: v[:12])
def test_an_id_in_the_path_too_long_to_be_stored_names_nothing(in_play, path: str, value: str):
    client, _, _ = in_play
    answer = client.get(path.format(value))
    assert answer.status_code == 404, answer.text  # not Starlette's int() failing: a 500


def test_a_tournament_filter_past_the_largest_id_is_a_400(in_play):
    client, _, _ = in_play
    answer = client.get(f"/api/games?tournament={OVER_SQLITE}")
    assert answer.status_code == 400 and "tournament must be between 0 and" in answer.text


def test_a_database_that_fails_is_an_error_that_does_not_name_it(in_play, tmp_path: Path):
    client, _, _ = in_play
    (tmp_path / "arena.db").write_bytes(b"not a database any more" * 100)
    answer = client.get("/api/games")  # damaged: no retry mends it (a 503 says one may)
    assert answer.status_code == 500
    assert answer.json() == {
        "error": "the arena's database is damaged: its operator has to restore it"
    }
