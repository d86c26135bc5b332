"""What the replay viewer, the boards and the live pages read is the same on SQLite and on
PostgreSQL. The web tests' games, played with the same seeds into each database (``arena_db``,
``arena_pg_db``: the same games, ids and all), served by the app over each, give the same
answers but for what was measured (decision times, durations) and when. The browser tests
(``test_boards.py``, ``test_viewer_defects.py``, ``test_live.py``) draw these answers in
Chromium over SQLite alone: this is why that is enough; ``test_api.py`` and
``test_live_api.py`` run their checks on both."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from arena.web.app import create_app
from tests.web.conftest import GAMES

MEASURED = {"seconds", "duration", "time_used"}  # a clock's readings: differ between two runs


def _unmeasured(value: Any) -> Any:
    """``value`` without what a clock said: measured times, and the dates things happened kept
    only as their shape (every digit a 0), which must be the same on both databases."""
    if isinstance(value, dict):
        return {
            key: None
            if key in MEASURED
            else re.sub(r"\d", "0", str(item))
            if key.endswith("_at") and item is not None
            else _unmeasured(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_unmeasured(item) for item in value]
    return value


@pytest.fixture(scope="module")
def clients(arena_db, arena_pg_db, tmp_path_factory) -> tuple[TestClient, TestClient]:
    frames = tmp_path_factory.mktemp("frames")
    return (
        TestClient(create_app(arena_db, warm_up=False, frames_dir=frames / "sqlite")),
        TestClient(create_app(arena_pg_db, warm_up=False, frames_dir=frames / "postgresql")),
    )


def _answers(clients: tuple[TestClient, TestClient], url: str) -> list[Any]:
    answers = []
    for client in clients:
        response = client.get(url)
        assert response.status_code == 200, (url, response.text)
        answers.append(response)
    return answers


def _first_game(clients: tuple[TestClient, TestClient], game: str) -> int:
    sqlite, postgresql = _answers(clients, f"/api/games?game={game}")
    [first, *_] = [game["id"] for game in sqlite.json()["games"]]
    assert first in [game["id"] for game in postgresql.json()["games"]]
    return first


@pytest.mark.parametrize("game", GAMES)
def test_a_games_replay_frames_and_log_are_the_same_on_both(clients, game):
    """Every view the viewer and the boards draw: the referee's and each seat's, their
    moves in words, of a game of each kind."""
    game_id = _first_game(clients, game)
    sqlite, postgresql = _answers(clients, f"/api/games/{game_id}")
    game = sqlite.json()
    assert _unmeasured(game) == _unmeasured(postgresql.json())
    for view in ("", *(f"seat={seat}&" for seat in range(len(game["seats"])))):
        for path in ("replay", "frames", "log"):
            url = f"/api/games/{game_id}/{path}?{view}count=200"
            sqlite, postgresql = _answers(clients, url)
            assert _unmeasured(sqlite.json()) == _unmeasured(postgresql.json()), url
    texts = [r.text for r in _answers(clients, f"/api/games/{game_id}/moves.txt")]
    # "#1 seat 1 (...) PLACE_START_TILE: start tile on (3,2) [4.0 ms]": the time is measured
    sqlite, postgresql = (re.sub(r"\[[\d.]+ m?s\]", "[T]", text) for text in texts)
    assert sqlite == postgresql


@pytest.mark.parametrize(
    "url",
    [
        "/api/games",
        "/api/games?game=merkator&limit=1",
        "/api/tournaments",
        "/api/tournaments/1",
        "/api/bots",
        "/api/bots/random-python",
        "/api/leaderboard",
        "/api/live",
    ],
)
def test_the_lists_around_the_viewer_are_the_same_on_both(clients, url):
    sqlite, postgresql = _answers(clients, url)
    assert _unmeasured(sqlite.json()) == _unmeasured(postgresql.json())
