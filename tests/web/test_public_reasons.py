"""Forfeit reasons on public pages (``arena.reasons``): the arena's words, never a bot's own
error line, output or gRPC details, nor the host's path of its log. A hosted bot's crash could
otherwise publish its author's strategy or secrets to anyone (outside review)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from starlette.testclient import TestClient

from arena.storage.read_only import ReadOnlyDatabase
from arena.web.app import create_app
from tests.web.conftest import altered_copy

SECRET = "ALICE-PRIVATE-STRATEGY"
STORED = (
    f"Decide failed: UNKNOWN: Exception calling application: {SECRET} 1; process exited with "
    f"code 1; error: RuntimeError: {SECRET} 2; log: /srv/arena/logs/alice-process8.log"
)
PUBLIC = "Decide failed: UNKNOWN; process exited with code 1"


def _crashed(arena_db: Path, tmp_path: Path) -> tuple[Path, int, str]:
    """A copy of the database whose first game's seat 0 crashed with ``STORED``."""
    with sqlite3.connect(arena_db) as connection:
        game_id, bot = connection.execute(
            "SELECT seat.game_id, bot.name FROM seat JOIN bot_version ON bot_version.id = "
            "seat.bot_version_id JOIN bot ON bot.id = bot_version.bot_id "
            "JOIN game ON game.id = seat.game_id WHERE seat.seat = 0 AND game.status = "
            "'finished' ORDER BY seat.game_id LIMIT 1"
        ).fetchone()
    db = altered_copy(
        arena_db,
        tmp_path / "crashed.db",
        f"UPDATE seat SET outcome = 'CRASH', reason = '{STORED}' "
        f"WHERE game_id = {game_id} AND seat = 0",
        # the game's termination names the forfeit with its reason, as a real game's does
        f"UPDATE game SET termination = 'seat 0 CRASH: {STORED}' WHERE id = {game_id}",
    )
    return db, game_id, bot


def test_public_pages_show_the_arenas_words_not_the_bots(arena_db: Path, tmp_path: Path):
    db, game_id, bot = _crashed(arena_db, tmp_path)
    client = TestClient(create_app(db, warm_up=False, frames_dir=tmp_path / "frames"))
    game = client.get(f"/api/games/{game_id}").json()
    assert game["seats"][0]["reason"] == PUBLIC
    assert game["termination"] == f"seat 0 CRASH: {PUBLIC}"
    listed = client.get("/api/games", params={"bot": bot, "count": 200}).json()["games"]
    [seat] = [s for g in listed if g["id"] == game_id for s in g["seats"] if s["seat"] == 0]
    assert seat["reason"] == PUBLIC
    forfeits = client.get(f"/api/bots/{bot}").json()["forfeits"]
    assert PUBLIC in [forfeit["reason"] for forfeit in forfeits]
    for page in (
        f"/api/games/{game_id}",
        f"/games/{game_id}",
        f"/api/games?bot={bot}",
        f"/bots/{bot}",
        f"/api/bots/{bot}",
    ):
        text = client.get(page).text
        assert SECRET not in text and "/srv/arena" not in text, page
    record = client.get(f"/api/games/{game_id}/record.json")
    if record.status_code == 200:  # unless its deal is held back
        assert SECRET not in record.text and "/srv/arena" not in record.text


def test_the_operator_reads_the_whole_reason(arena_db: Path, tmp_path: Path):
    """The CLI reads the database as the operator (``ReadOnlyDatabase`` not public)."""
    db, game_id, _ = _crashed(arena_db, tmp_path)
    game = ReadOnlyDatabase(db).game(game_id)
    assert game is not None and game["seats"][0]["reason"] == STORED
    assert ReadOnlyDatabase(db, public=True).game(game_id)["seats"][0]["reason"] == PUBLIC
