"""The /ladder page in a real Chromium while a real ``arena ladder`` process writes the same
SQLite file that ``arena serve``'s app reads: the leaderboard of the running ladder, its chart,
the place for the games running now, and new games appearing without a reload."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest

import arena.web.ladder
from tests.tournament.helpers import SAMPLE_BOTS, query, renamed_bot, run_cli, start_cli
from tests.web.conftest import EVIL_NAME, ServerThread

pytestmark = pytest.mark.slow  # a real ladder with bot processes


def finished_games(db: Path) -> int:
    try:
        return query(db, "SELECT COUNT(*) FROM game WHERE status = 'finished'")[0][0]
    except Exception:  # the schema is not there yet
        return 0


def test_the_ladder_page_follows_a_running_ladder(page, tmp_path, bot_dirs, monkeypatch):
    db = tmp_path / "ladder.db"
    third = renamed_bot(SAMPLE_BOTS / "random-python", tmp_path / "third", "third")
    for bot in [*bot_dirs, third]:
        submitted = run_cli("submit", str(bot), "--db", str(db), "--sandbox", "none")
        assert submitted.exit_code == 0, submitted.stdout + submitted.stderr
    ladder = start_cli(
        "ladder", "--game", "oregon", "--db", str(db), "--sandbox", "none", "--move-time", "30",
        "--concurrency", "1", "--name", "live-ladder", "--until", "400",
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while finished_games(db) < 2:
            assert time.monotonic() < deadline, "the ladder played no game"
            assert ladder.poll() is None, ladder.communicate()
            time.sleep(0.2)
        with ServerThread(db) as server:
            asked: list[str] = []
            page.on("request", lambda request: asked.append(request.url))
            # 3 entrants are "many" (the chart would draw the top 2); asked for all of them
            monkeypatch.setattr(arena.web.ladder, "CHART_LINES", 2)
            page.goto(f"{server.url}/ladder?chart=all")
            page.evaluate("window.notReloaded = true")
            assert page.locator("h1").inner_text().startswith("live-ladder")
            assert page.locator("nav a[href='/ladder']").count() == 1
            rows = page.locator("table.ladder-board tbody tr")
            page.wait_for_function(
                "() => document.querySelectorAll('table.ladder-board tbody tr').length === 3",
                timeout=60_000,
            )
            assert any(EVIL_NAME in row for row in rows.all_inner_texts())  # as text
            assert page.locator("#ladder-chart").count() == 1
            # the game in play (one at a time) is listed, with its link to watch it live
            page.wait_for_function(
                "() => document.querySelector('#games-running-now a[href^=\"/live/\"]')",
                timeout=60_000,
            )
            shown = page.locator("#live").get_attribute("data-games")
            page.wait_for_function(
                f"() => document.getElementById('live').dataset.games !== '{shown}'",
                timeout=90_000,
            )
            assert page.evaluate("window.notReloaded") is True
            now = int(page.locator("#live").get_attribute("data-games") or 0)
            assert now > int(shown or 0)
            assert f"{now} games" in page.locator("#ladder-games").inner_text()
            # the chart was drawn again after the swap (Chart.js marks its canvas)
            page.wait_for_function(
                "() => Chart.getChart(document.getElementById('ladder-chart')) !== undefined"
            )
            # from the fresh page's data (#page-data, swapped in with it): the history's one copy
            games, data, drawn = page.evaluate(
                """() => [Number(document.getElementById('live').dataset.games),
                          JSON.parse(document.getElementById('page-data').textContent).ladder,
                          Chart.getChart(document.getElementById('ladder-chart')).data.datasets
                            .reduce((points, line) => points + line.data.length, 0)]"""
            )
            assert data["games"] == games >= now
            assert drawn == len(data["rating_history"]) > 0
            # the page fetched again as it was asked for: still every entrant's line
            assert data["chart"] == {"top": None, "entrants": 3}
            lines = page.evaluate(
                "() => Chart.getChart(document.getElementById('ladder-chart')).data.datasets.length"
            )
            assert lines == 3
            assert "Elo of each entrant" in page.locator("#rating-over-time").inner_text()
            # it polls the few numbers of /api/ladder/now, never the megabyte of /api/ladder
            assert any("/api/ladder/now?id=" in url for url in asked)
            assert not any("/api/ladder?" in url for url in asked)
            with urllib.request.urlopen(f"{server.url}/api/ladder/now?id=1") as answer:
                now_json = json.load(answer)
            assert set(now_json) == {"id", "state", "games", "running"}
            assert now_json["state"] == "running" and now_json["games"] >= now
            # on a phone the latest games (a dozen links a row) give way (outside review)
            page.set_viewport_size({"width": 390, "height": 800})
            assert page.locator("table.ladder-board th.latest").count() == 1
            assert page.locator("table.ladder-board th.latest").first.is_hidden()
            assert page.locator("table.ladder-board td.latest").first.is_hidden()
            # a row is one or two lines again, not 200 px (the table box scrolls sideways)
            row = page.locator("table.ladder-board tbody tr").first.bounding_box()
            assert row and row["height"] < 80, row
            page.goto("about:blank")  # its polling stops before the server does
    finally:
        if ladder.poll() is None:
            ladder.terminate()  # SIGTERM: the ladder stops cleanly
        ladder.communicate(timeout=60)
