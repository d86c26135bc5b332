"""A finished game's replay is held back while other seat rotations of its deal may still be
played: every rotation deals the same cards, so its replay (a seat's own too) would tell the
seats of the game in play what the others hold and will draw."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.web.app import create_app
from tests.web.conftest import altered_copy

REPLAY_PARTS = (
    "replay",
    "replay?seat=0",
    "frames?seat=1",
    "frames",
    "log?seat=0",
    "record.json",
    "moves.txt",
)


def _one_deal(db: Path) -> tuple[int, int, int]:
    """The Oregon tournament and its two games, both rotations of its one deal."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT g.tournament_id, g.id FROM game g JOIN tournament t ON t.id = g.tournament_id "
            "WHERE t.name = 'oregon-web' ORDER BY g.id"
        ).fetchall()
    (tournament, first), (_, second) = rows
    return tournament, first, second


def _without(game: int) -> tuple[str, ...]:
    """The statements that take ``game`` out of the database, as if never played."""
    return (
        f"DELETE FROM rating_history WHERE game_id = {game}",
        f"DELETE FROM seat WHERE game_id = {game}",
        f"DELETE FROM game WHERE id = {game}",
    )


def _client(db: Path, tmp_path: Path) -> TestClient:
    return TestClient(create_app(db, warm_up=False, frames_dir=tmp_path / "frames"))


@pytest.fixture
def in_play(arena_db: Path, tmp_path: Path) -> tuple[TestClient, int]:
    """The tournament as it was with its first rotation recorded and its second being played."""
    tournament, first, second = _one_deal(arena_db)
    db = altered_copy(
        arena_db,
        tmp_path / "in-play.db",
        f"UPDATE tournament SET state = 'running' WHERE id = {tournament}",
        *_without(second),
    )
    return _client(db, tmp_path), first


def test_the_replay_of_a_deal_still_in_play_is_held_back(in_play):
    client, first = in_play
    game = client.get(f"/api/games/{first}").json()
    assert game["held"] == {"played": 1, "rotations": 2}
    assert [seat["bot"] for seat in game["seats"]]  # the result is public
    for part in REPLAY_PARTS:
        response = client.get(f"/api/games/{first}/{part}")
        assert response.status_code == 403, part
        assert (
            "held back until every seat rotation of its deal is played (1 of 2"
            in (response.json()["error"])
        )
    page = client.get(f"/games/{first}")
    assert page.status_code == 200
    assert "held back until every seat rotation" in page.text
    assert 'id="replay"' not in page.text and "record.json" not in page.text


def test_a_voided_rotation_leaves_the_deal_in_play(arena_db: Path, tmp_path: Path):
    tournament, first, second = _one_deal(arena_db)
    db = altered_copy(
        arena_db,
        tmp_path / "voided.db",
        f"UPDATE tournament SET state = 'stopped' WHERE id = {tournament}",
        f"UPDATE game SET status = 'voided' WHERE id = {second}",
    )
    client = _client(db, tmp_path)
    assert client.get(f"/api/games/{first}/frames?seat=0").status_code == 403
    assert client.get(f"/api/games/{second}/moves.txt").status_code == 403


def test_a_deal_every_rotation_of_which_is_played_is_shown(arena_db: Path, tmp_path: Path):
    tournament, first, second = _one_deal(arena_db)
    db = altered_copy(  # the tournament goes on, with other deals; this one is done
        arena_db,
        tmp_path / "running.db",
        f"UPDATE tournament SET state = 'running' WHERE id = {tournament}",
    )
    client = _client(db, tmp_path)
    for game in (first, second):
        assert client.get(f"/api/games/{game}").json()["held"] is None
        for part in REPLAY_PARTS:
            assert client.get(f"/api/games/{game}/{part}").status_code == 200, part


def test_a_finished_tournament_shows_a_deal_it_left_unplayed(arena_db: Path, tmp_path: Path):
    # An SPRT test decided between two rotations of a deal never plays the second.
    _, first, second = _one_deal(arena_db)
    db = altered_copy(arena_db, tmp_path / "decided.db", *_without(second))
    client = _client(db, tmp_path)
    assert client.get(f"/api/games/{first}").json()["held"] is None
    assert client.get(f"/api/games/{first}/frames?seat=0").status_code == 200


def test_a_game_of_a_remote_bot_is_on_a_deal_of_its_own_and_not_held(
    arena_db: Path, tmp_path: Path
):
    """A pod that seats a remote bot plays each rotation on a deal of its own
    (``arena.tournament.schedule``): no game in play shares its cards."""
    tournament, first, second = _one_deal(arena_db)
    db = altered_copy(
        arena_db,
        tmp_path / "remote.db",
        f"UPDATE tournament SET state = 'running' WHERE id = {tournament}",
        *_without(second),
        "UPDATE bot_version SET address = '127.0.0.1:50051' WHERE id = "
        f"(SELECT bot_version_id FROM seat WHERE game_id = {first} AND seat = 0)",
    )
    client = _client(db, tmp_path)
    assert client.get(f"/api/games/{first}").json()["held"] is None
    assert client.get(f"/api/games/{first}/record.json").status_code == 200
