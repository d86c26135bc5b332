"""A game in play whose deal is held (its other seat rotation is still to come), in a real
Chromium over a database as a running tournament leaves it: /live names it without a number that
reads as a stored game's (its live id 1 is not game 1), and its page shows its progress, counted
as a stored game's page counts a held deal, with no empty board (outside review)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.storage import running
from arena.storage.database import open_database
from arena.web.app import _templates, create_app
from engine.registry import get_game
from tests.web.conftest import ServerThread, altered_copy, first_actions, run_in_progress

SEED = 987_654_321  # a deal none of the stored games has: its other rotation is to come
DECISIONS = 6


@pytest.fixture
def held_in_play(arena_db: Path, tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """The Oregon tournament running again with a game in play of a new deal, its first
    rotation: the database and the game's live id (1, as stored game 1's id)."""
    db = altered_copy(arena_db, tmp_path / "held.db", "DELETE FROM running_game")
    with sqlite3.connect(db) as connection:
        (tournament,) = connection.execute(
            "SELECT id FROM tournament WHERE name = 'oregon-web'"
        ).fetchone()
        connection.execute(f"UPDATE tournament SET state = 'running' WHERE id = {tournament}")
        seats = [
            {"bot": name, "version": version}
            for version, name in connection.execute(
                "SELECT v.id, b.name FROM bot_version v JOIN bot b ON b.id = v.bot_id ORDER BY v.id"
            )
        ]
    database = open_database(db, create=False)
    try:
        with database.write() as session:
            rules = get_game("oregon").rules_version
            new = running.NewRunningGame(tournament, "k", "oregon", rules, {}, SEED, seats)
            live_id = running.add(session, new)
            running.refresh(session, {live_id: first_actions(SEED, DECISIONS)}, [live_id])
    finally:
        database.close()
    with run_in_progress(db, tournament):
        yield db, live_id


def test_a_held_game_in_play_counts_its_deals_rotations_as_a_stored_games_page(held_in_play):
    db, live_id = held_in_play
    client = TestClient(create_app(db, warm_up=False))
    [game] = client.get("/api/live").json()["games"]
    assert game["held"] == {"played": 0, "rotations": 2} and game["state"] == "running"
    reason = client.get(f"/api/live/{live_id}").json()["held_reason"]
    # the stored game's page says "(1 of 2 rotations played so far)" once this one is played
    assert "(0 of 2 rotations played so far)" in reason, reason


def test_live_games_carry_no_number_that_reads_as_a_stored_games(held_in_play, page):
    db, live_id = held_in_play
    assert live_id == 1  # and game 1 is a stored game, another one
    with ServerThread(db) as server:
        page.goto(f"{server.url}/live")
        link = page.locator(f'a.live-link[href="/live/{live_id}"]')
        assert link.count() == 1
        row = page.locator("tr", has=link).inner_text()
        assert not re.search(r"#\d", row), row


def test_a_held_game_in_play_shows_its_progress_and_no_empty_board(held_in_play, page):
    db, live_id = held_in_play
    with ServerThread(db) as server:
        page.goto(f"{server.url}/live/{live_id}")
        page.wait_for_function(
            "() => document.getElementById('live-note').textContent.startsWith('Not shown yet')"
        )
        note = page.locator("#live-note").inner_text()
        assert "(0 of 2 rotations played so far)" in note, note
        assert page.locator("#position").inner_text() == f"decision {DECISIONS} · live"
        for hidden in ("#board", "#players", "#log", "#follow"):
            assert not page.locator(hidden).is_visible(), hidden
        assert page.locator("#decision").is_visible()  # says when the board will show


def test_a_held_game_in_play_is_listed_as_held_not_as_live(held_in_play, page):
    """/live and its tournament's page say the game is held and why, not "● live watch": its page
    shows only its progress till the deal's other rotation is played (outside review C, M2)."""
    db, live_id = held_in_play
    client = TestClient(create_app(db, warm_up=False))
    [game] = client.get("/api/live").json()["games"]
    with ServerThread(db) as server:
        for path in ("/live", f"/tournaments/{game['tournament_id']}"):
            page.goto(f"{server.url}{path}")
            link = page.locator(f'a.live-link[href="/live/{live_id}"]')
            assert link.inner_text() == "held progress", path
            assert page.locator(".running-games .live-dot").count() == 0, path
            row = page.locator("tr", has=link).inner_text()
            assert "not shown until the other seat rotation of its deal is played" in row, row
            assert "(0 of 2 rotations played so far)" in row, row
        heading = page.locator("section.in-play h2").inner_text()
        assert heading == f"Games in play · 1, 1 {HELD}"


HELD = "held till their deal's other seat rotations are played"


@pytest.mark.parametrize(
    "held, shown, words",
    [
        (0, 1, "1, watch it live"),
        (0, 2, "2, watch them live"),
        (1, 0, f"1, 1 {HELD}"),
        (2, 1, f"3, 2 {HELD}, watch the other live"),
        (1, 2, f"3, 1 {HELD}, watch the others live"),
    ],
)
def test_the_count_of_games_in_play_says_how_many_are_held(held, shown, words):
    """The heading of a ladder's or a tournament's games in play (live_macros.running_count)."""
    template = _templates().from_string(
        '{% from "live_macros.html" import running_count %}{{ running_count(games) }}'
    )
    games = [{"held": {"played": 0, "rotations": 2}}] * held + [{"held": None}] * shown
    assert template.render(games=games).strip() == words
