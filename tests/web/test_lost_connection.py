"""A lost connection is no answer (outside review C, M1 and L2): when requests fail (a network
error, as while ``arena serve`` restarts, or a 503 from a proxy or a busy database) the live
page and the replay viewer say "connection lost", try again with a growing wait and go on once
the server answers; they never say the game ended or cannot be replayed. And the live page keeps
only the last few of its answers, not every poll's for the whole game.

Requests are made to fail with Playwright's ``page.route`` (a server stopped and started again
on the same port would be slower and less certain); the game in play is written into the
database as a match's process writes it."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.storage import running
from arena.storage.database import open_database
from engine.registry import get_game
from tests.web.conftest import ServerThread, altered_copy, browser_page, first_actions
from tests.web.test_browser import (  # the module skips when Chromium or Playwright is missing
    shown,
    wait_shown,
)

SEED = 424_242  # a deal of its own: a match's game (no tournament) is never held
NOTE = "document.getElementById('connection-note').textContent"


@pytest.fixture
def page(browser):
    """A desktop page whose problems each test checks itself (``_real_problems``): the requests
    made to fail are problems the browser logs."""
    with browser_page(browser, strict=False) as opened:
        yield opened


class GameInPlay:
    """A match's Oregon game in play, written as its process would write it: its actions so far
    and a heartbeat every second (a row without one for 30 s reads as stopped)."""

    def __init__(self, source: Path, tmp_path: Path) -> None:
        self.db = altered_copy(source, tmp_path / "in-play.db", "DELETE FROM running_game")
        self.database = open_database(self.db, create=False)
        seats = [{"bot": "random-python", "version": 1}, {"bot": "other", "version": 2}]
        rules = get_game("oregon").rules_version
        with self.database.write() as session:
            new = running.NewRunningGame(None, None, "oregon", rules, {}, SEED, seats)
            self.live_id = running.add(session, new)
        self.actions: list[int] = []
        self.advance(6)
        self._stop = threading.Event()
        self._beating = threading.Thread(target=self._beat, daemon=True)
        self._beating.start()

    def advance(self, decisions: int) -> None:
        self.actions = first_actions(SEED, decisions)
        with self.database.write() as session:
            running.refresh(session, {self.live_id: self.actions}, [self.live_id])

    def record(self, game_id: int) -> None:
        """The game ends and is stored as ``game_id`` (a stored game's id: the page opens it)."""
        with self.database.write() as session:
            running.recorded(session, self.live_id, self.actions, game_id)

    def _beat(self) -> None:
        while not self._stop.wait(1.0):
            with self.database.write() as session:
                running.refresh(session, {}, [self.live_id])

    def close(self) -> None:
        self._stop.set()
        self._beating.join(timeout=10)
        self.database.close()


@pytest.fixture
def in_play(arena_db: Path, tmp_path: Path) -> Iterator[GameInPlay]:
    game = GameInPlay(arena_db, tmp_path)
    try:
        yield game
    finally:
        game.close()


class Failing:
    """Fails the first requests matching a route, in turn with each of ``ways`` ("abort": no
    answer at all, as from a server that is down; a number: that HTTP status), then lets them
    through."""

    def __init__(self, *ways: str | int) -> None:
        self.ways = list(ways)
        self.failed: list[str] = []

    def __call__(self, route: Any) -> None:
        if not self.ways:
            route.continue_()
            return
        way = self.ways.pop(0)
        self.failed.append(route.request.url)
        if way == "abort":
            route.abort("connectionrefused")
        else:
            route.fulfill(
                status=int(way),
                content_type="application/json",
                body='{"error": "the arena\'s database cannot be read now; try again shortly"}',
            )


def _real_problems(page, *failed_urls: str) -> list[str]:
    """The page's problems but those of the requests made to fail (the browser logs each)."""
    return [
        problem
        for problem in page.problems.seen
        if not (
            problem.startswith("console error: Failed to load resource")
            or any(problem.endswith(url) for url in failed_urls)
        )
    ]


def _entries(page) -> int:
    return page.locator("#log-list li.entry").count()


def test_the_live_page_follows_the_game_on_after_a_lost_connection(page, in_play, arena_db):
    with ServerThread(in_play.db) as server:
        page.goto(f"{server.url}/live/{in_play.live_id}")
        page.wait_for_function("() => document.querySelectorAll('#log-list li.entry').length === 6")
        failing = Failing("abort", 503, "abort")
        page.route(re.compile(rf"/api/live/{in_play.live_id}\?after="), failing)
        page.wait_for_function(f"() => {NOTE}.startsWith('Connection to the server lost')")
        in_play.advance(10)  # the game goes on meanwhile
        page.wait_for_function(
            "() => document.querySelectorAll('#log-list li.entry').length === 10", timeout=60_000
        )
        assert len(failing.failed) == 3
        page.wait_for_function(f"() => {NOTE} === ''")  # the note goes once it is back
        assert page.locator("#live-state").inner_text() == "live"
        assert "no longer in play" not in page.locator("#live-note").inner_text()
        assert "live" in page.locator("#position").inner_text()

        # The game ends while the connection is lost again: the page opens its replay after.
        failing.ways += ["abort", "abort"]
        page.wait_for_function(f"() => {NOTE}.startsWith('Connection to the server lost')")
        in_play.record(1)
        page.wait_for_url(re.compile(r"/games/1\?d=10$"), timeout=60_000)
        wait_shown(page, 10)
        assert _real_problems(page, *failing.failed) == []


def test_the_live_page_keeps_only_its_last_answers(page, in_play):
    with ServerThread(in_play.db) as server:
        page.goto(f"{server.url}/live/{in_play.live_id}")
        # an answer a second (the page's poll): over 20 of them
        page.wait_for_function("() => Arena.live.answers > 22", timeout=90_000)
        kept = page.evaluate("() => Arena.live.received.length")
        assert 0 < kept <= 20, kept
        assert page.problems.seen == []


def test_the_replay_viewer_switches_seats_and_steps_on_after_a_lost_connection(page, web_server):
    page.goto(f"{web_server.url}/games?game=oregon")
    url = web_server.url + page.locator("a.game-link").first.get_attribute("href")
    page.goto(url)
    shown(page)
    last = int(page.locator("#slider").get_attribute("max"))
    assert last >= 50, "the last decision is in the second chunk of frames"
    outline = Failing("abort", 503)
    frames = Failing("abort", "abort")
    page.route(re.compile(r"/replay\?seat=1"), outline)
    page.route(re.compile(r"/frames\?seat=1&"), frames)
    page.select_option("#seat", "1")
    page.wait_for_function(f"() => {NOTE}.startsWith('Connection to the server lost')")
    page.wait_for_url(re.compile(r"seat=1"), timeout=60_000)
    wait_shown(page, 0)
    page.wait_for_function(f"() => {NOTE} === ''")
    assert page.locator("#replay-error").count() == 0
    assert page.locator(".toolbar").is_visible() and page.locator("#board svg").first.is_visible()
    assert page.locator("#decision").inner_text().startswith("Decision 0")

    # End while the frames of the end cannot be fetched: it shows them once they can.
    later = Failing("abort", "abort")
    page.route(re.compile(r"/frames\?seat=1&start=50"), later)
    page.locator("#last").click()
    page.wait_for_function(f"() => {NOTE}.startsWith('Connection to the server lost')")
    wait_shown(page, last)
    assert page.locator("#position").inner_text().startswith("final")
    assert len(later.failed) == 2
    assert page.locator("#replay-error").count() == 0
    failed = [*outline.failed, *frames.failed, *later.failed]
    assert _real_problems(page, *failed) == []


def test_a_definite_answer_still_ends_the_replay_viewer(page, web_server):
    """A 409 (the engine cannot replay the game) is final: only why, and no retrying."""
    page.goto(f"{web_server.url}/games/1")
    shown(page)
    asked: list[str] = []

    def refuse(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(status=409, content_type="application/json", body='{"error": "no engine"}')

    page.route(re.compile(r"/replay\?seat=1"), refuse)
    page.select_option("#seat", "1")
    page.wait_for_selector("#replay-error")
    assert "Cannot replay this game: no engine" in page.locator("#replay-error").inner_text()
    page.wait_for_timeout(2500)  # a retry would have come within this
    assert len(asked) == 1
    assert page.evaluate(NOTE) == ""
