"""Live spectating and the decision log in a real Chromium: follow a game a real tournament
process is playing, on a desktop and on a phone, from /live to its replay; and the replay's
decision log: its seat filter, jumps by click and by key, and, watched as a seat, nothing that
seat did not see. No JavaScript error anywhere.

ARENA_WEB_SCREENSHOTS=DIR saves the screenshots docs/web.md shows."""

from __future__ import annotations

import json
import re
import urllib.request

from tests.web.conftest import PHONE, ServerThread, browser_page
from tests.web.test_browser import (  # the module skips when Chromium or Playwright is missing
    screenshot,
    shown,
    wait_shown,
)
from tests.web.test_live_api import start_tournament, wait_for, wait_for_schema


def _json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


def _entries(page) -> int:
    return page.locator("#log-list li.entry").count()


def test_follow_a_running_game_on_a_desktop_and_a_phone_until_its_replay(browser, tmp_path):
    db = tmp_path / "arena.db"
    tournament = start_tournament(tmp_path, db, "--concurrency", "1")
    try:
        wait_for_schema(db, tournament)
        with (
            ServerThread(db) as server,
            browser_page(browser) as desktop,
            browser_page(browser, PHONE, is_mobile=True, has_touch=True) as phone,
        ):
            opened = [desktop, phone]
            # the deal's first rotation: its progress only, and why
            [first, *_] = wait_for(
                lambda: _json(f"{server.url}/api/live")["games"], "a game in play", tournament
            )
            if first["held"] is not None:
                desktop.goto(f"{server.url}/live/{first['id']}")
                desktop.wait_for_function(
                    "() => document.getElementById('live-note').textContent"
                    ".startsWith('Not shown yet: this game is shown once the other seat rotations')"
                )
                assert desktop.locator("#board svg").count() == 0
                assert _entries(desktop) == 0
            [live, *_] = wait_for(  # the deal's second rotation: the first is not shown live
                lambda: [g for g in _json(f"{server.url}/api/live")["games"] if g["held"] is None],
                "a game in play shown live",
                tournament,
            )
            desktop.goto(f"{server.url}/live")
            desktop.locator(f'a.live-link[href="/live/{live["id"]}"]').click()
            desktop.wait_for_url(re.compile(rf"/live/{live['id']}$"))
            desktop.evaluate("window.notReloaded = true")
            desktop.wait_for_function(
                "() => document.querySelectorAll('#log-list li.entry').length >= 3"
            )
            seen = _entries(desktop)
            desktop.wait_for_function(
                f"() => document.querySelectorAll('#log-list li.entry').length > {seen}"
            )
            assert desktop.evaluate("window.notReloaded") is True  # it grew without a reload
            assert desktop.locator("#board svg").first.is_visible()
            assert "decides" in desktop.locator("#decision").inner_text()
            assert "live" in desktop.locator("#position").inner_text()
            screenshot(desktop, "live-desktop")

            # stepping back to an earlier decision, then following again
            desktop.locator("#log-list li.entry").nth(1).click()
            desktop.wait_for_function(
                "() => document.getElementById('live-game').dataset.shown === '1'"
            )
            assert desktop.locator("#follow").is_enabled()
            assert desktop.locator("#log-list li.entry.current").get_attribute("data-number") == "1"
            desktop.locator("#follow").click()
            desktop.wait_for_function(
                "() => Number(document.getElementById('live-game').dataset.shown) > 1"
            )

            phone.goto(f"{server.url}/live/{live['id']}")
            phone.wait_for_function(
                "() => document.querySelectorAll('#log-list li.entry').length >= 3"
            )
            assert phone.locator("#board svg").first.is_visible()
            assert phone.locator("#decision").inner_text().startswith("Decision")
            screenshot(phone, "live-phone")

            # only the spectator's view ever reached either page
            for opened_page in opened:
                received = opened_page.evaluate("() => Arena.live.received.map((r) => r.body)")
                assert received
                for body in received:
                    for frame in [body.get("frame"), *body.get("frames", [])]:
                        if frame:
                            assert list(frame["views"]) == ["spectator"]
                            assert "legal" not in frame and "comment" not in frame
                    for entry in body.get("entries", []):
                        assert "action" not in entry and "seconds" not in entry

            # the game ends: both pages open its replay, at its last decision, once the deal's
            # other rotation is played too (the game watched may be the first of the two): till
            # then the page says why it waits and looks again (read_only.deal_in_play)
            for opened_page in opened:
                opened_page.wait_for_url(re.compile(r"/games/\d+\?d=\d+$"), timeout=90_000)
                opened_page.locator("#slider, #held-back").first.wait_for(state="attached")
                if opened_page.locator("#held-back").count():
                    assert "held back until every seat rotation" in opened_page.inner_text("main")
                opened_page.locator("#slider").wait_for(state="attached", timeout=180_000)
                last = int(opened_page.locator("#slider").get_attribute("max"))
                wait_shown(opened_page, last)
                assert opened_page.locator("#position").inner_text().startswith("final")
    finally:
        tournament.kill()
        tournament.communicate()


def _oregon_game(page, server) -> str:
    page.goto(f"{server.url}/games?game=oregon")
    return page.locator("a.game-link").first.get_attribute("href")


def _log_loaded(page, seat: str) -> None:
    page.wait_for_function(f"() => document.getElementById('log').dataset.loaded === '{seat}'")


def test_the_decision_log_filters_jumps_and_follows_the_keys(page, web_server):
    url = _oregon_game(page, web_server)
    page.goto(f"{web_server.url}{url}")
    _log_loaded(page, "referee")
    decisions = int(page.locator("#slider").get_attribute("max"))
    assert _entries(page) == decisions
    assert page.locator("#log-list li.entry .time").count() > 0  # each choice's time is marked
    assert page.locator("#log-list li.current").get_attribute("data-number") == "0"

    page.select_option("#log-filter", "1")
    visible = page.locator("#log-list li.entry:visible")
    assert visible.count() > 0
    assert set(visible.evaluate_all("(items) => items.map((i) => i.dataset.seat)")) == {"1"}
    third = visible.nth(2)
    number = int(third.get_attribute("data-number"))
    third.click()
    wait_shown(page, number)
    assert f"d={number}" in page.url
    assert page.locator("#log-list li.current").get_attribute("data-number") == str(number)

    page.select_option("#log-filter", "all")
    seats = page.locator("#log-list li.entry").evaluate_all(
        "(items) => items.map((i) => Number(i.dataset.seat))"
    )
    after = next(n for n in range(number + 1, decisions) if seats[n] == 0)
    page.keyboard.press("Digit0")  # the next decision of seat 0
    wait_shown(page, after)
    before = max(n for n in range(after) if seats[n] == 1)
    page.keyboard.press("Shift+Digit1")  # the previous decision of seat 1
    wait_shown(page, before)
    page.keyboard.press("ArrowRight")  # the replay's own keys still work
    wait_shown(page, before + 1)
    screenshot(page, "decision-log")


def test_watched_as_a_seat_the_log_holds_only_what_it_saw(page, web_server):
    url = _oregon_game(page, web_server)
    game_id = int(url.rsplit("/", 1)[1])
    referee = _json(f"{web_server.url}/api/games/{game_id}/log")
    own = _json(f"{web_server.url}/api/games/{game_id}/log?seat=1")

    def about_seat_0(log: dict) -> set[str]:
        events = [event for entry in log["entries"] for event in entry["events"]] + log["setup"]
        return {event["text"] for event in events if event["seat"] == 0}

    secrets = about_seat_0(referee) - about_seat_0(own)  # e.g. the cards seat 0 drew
    assert secrets, "the referee sees seat 0's cards, seat 1 does not"

    page.goto(f"{web_server.url}{url}?seat=1")
    _log_loaded(page, "1")
    assert shown(page) == 0
    told = set(page.locator("#log-list ul.events li.seat-0").all_inner_texts())
    assert told and not {text.strip() for text in told} & secrets
    others = page.locator("#log-list li.entry[data-seat='0']")
    assert others.count() > 0 and others.locator(".log-action").count() == 0
    assert page.locator("#log-list li.entry[data-seat='1'] .log-action").count() > 0
    logs = page.evaluate(
        "() => Arena.replay.received.filter((r) => r.url.includes('/log?')).map((r) => r.url)"
    )
    assert logs and all(url.endswith("/log?seat=1") for url in logs)

    page.select_option("#seat", "referee")  # the referee's log tells everything
    _log_loaded(page, "referee")
    told = set(page.locator("#log-list ul.events li.seat-0").all_inner_texts())
    assert secrets <= {text.strip() for text in told}
