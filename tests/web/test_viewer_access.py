"""The replay viewer with a keyboard and a screen reader, the pages' contrast in dark and light
mode, the Merkator Kontor at desktop widths and the decision log at the final position, in a
real Chromium (outside review C: M3, M4, L1 and L4).

Contrast is computed as WCAG 2 defines it, from the colours Chromium computes (the text's colour
on the first background behind it that is not transparent)."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import browser_page
from tests.web.test_browser import (  # the module skips when Chromium or Playwright is missing
    game_url,
    shown,
    wait_shown,
)


@pytest.fixture
def dark(browser):
    with browser_page(browser, color_scheme="dark") as opened:
        yield opened


def _playing(page) -> bool:
    return page.evaluate("() => Arena.replay.state.timer !== null")


# --- M3: the keyboard ---------------------------------------------------------------------------


def test_space_presses_the_focused_button_and_spares_a_link(page, web_server):
    page.goto(game_url(page, web_server, "oregon") + "?d=5")
    wait_shown(page, 5)
    page.locator("#next").focus()
    page.keyboard.press(" ")  # presses "next": one step, no playback
    wait_shown(page, 6)
    assert not _playing(page)
    page.locator("#first").focus()
    page.keyboard.press(" ")
    wait_shown(page, 0)
    assert not _playing(page)
    page.locator(".seats-table a").first.focus()
    page.keyboard.press(" ")  # a link's Space scrolls the page: the viewer does not play
    assert not _playing(page)
    assert shown(page) == 0


def test_the_browsers_shortcuts_stay_the_browsers(page, web_server):
    page.goto(game_url(page, web_server, "oregon") + "?d=5")
    wait_shown(page, 5)
    # Dispatched (not pressed): a real Alt+← would go Back, which is what is to be left alone.
    for key, modifier in [
        ("ArrowLeft", "altKey"),
        ("ArrowRight", "altKey"),
        ("End", "ctrlKey"),
        ("Home", "metaKey"),
        (" ", "ctrlKey"),
    ]:
        taken = page.evaluate(
            """([key, modifier]) => !document.body.dispatchEvent(new KeyboardEvent('keydown',
                   {key, [modifier]: true, bubbles: true, cancelable: true}))""",
            [key, modifier],
        )
        assert not taken, (key, modifier)
    page.keyboard.press("Control+End")
    page.keyboard.press("ArrowRight")  # without a modifier the viewer steps, from where it was
    wait_shown(page, 6)
    assert not _playing(page)


def test_after_a_click_on_a_box_that_scrolls_the_keys_still_step(page, web_server):
    """The legal actions scroll, so the Tab key reaches them (their arrows scroll them then); a
    click on them leaves the viewer's keys as they were."""
    page.goto(game_url(page, web_server, "oregon") + "?d=2")
    wait_shown(page, 2)
    assert page.locator("ol.legal").get_attribute("tabindex") == "0"
    page.locator("ol.legal li").first.click()
    page.keyboard.press("ArrowRight")
    wait_shown(page, 3)
    page.keyboard.press(" ")
    page.wait_for_function("() => Arena.replay.state.timer !== null")
    page.keyboard.press(" ")
    page.wait_for_function("() => Arena.replay.state.timer === null")


def test_the_watch_as_menu_keeps_the_focus_for_its_arrow_keys(page, web_server):
    page.goto(game_url(page, web_server, "oregon"))
    shown(page)
    page.locator("#seat").focus()
    page.keyboard.press("ArrowDown")  # referee -> seat 0
    page.wait_for_url(re.compile(r"seat=0"))
    assert page.evaluate("() => document.activeElement.id") == "seat"
    page.keyboard.press("ArrowDown")  # seat 0 -> seat 1, not a step of the viewer
    page.wait_for_url(re.compile(r"seat=1"))
    wait_shown(page, 0)
    assert page.evaluate("() => document.activeElement.id") == "seat"


def test_each_decision_of_the_log_is_reached_and_shown_with_the_keyboard(page, web_server):
    page.goto(game_url(page, web_server, "oregon"))
    page.wait_for_function("() => document.getElementById('log').dataset.loaded === 'referee'")
    entries = page.locator("#log-list li.entry")
    buttons = page.locator("#log-list li.entry button.number")
    assert buttons.count() == entries.count() > 10
    buttons.nth(7).focus()
    page.keyboard.press("Enter")
    wait_shown(page, 7)
    page.keyboard.press("Tab")  # the next decision's button
    assert page.evaluate("() => document.activeElement.closest('li').dataset.number") == "8"
    page.keyboard.press(" ")
    wait_shown(page, 8)
    assert not _playing(page)
    assert "show decision #8" == buttons.nth(8).get_attribute("aria-label")


def test_play_is_named_as_it_shows_and_a_step_is_announced(page, web_server):
    page.goto(game_url(page, web_server, "oregon"))
    shown(page)
    play = page.locator("#play")
    said = page.locator("#position-said")
    assert said.get_attribute("aria-live") == "polite"
    page.keyboard.press("ArrowRight")
    wait_shown(page, 1)
    assert (
        said.inner_text()
        == page.locator("#position").inner_text()
        == "decision 1 / " + str(page.locator("#slider").get_attribute("max"))
    )
    assert play.get_attribute("aria-label") == "play"
    play.click()
    assert play.get_attribute("aria-label") == "pause"
    page.wait_for_function("() => Number(document.getElementById('replay').dataset.shown) >= 3")
    play.click()
    assert play.get_attribute("aria-label") == "play"
    page.wait_for_function(
        "() => document.getElementById('position-said').textContent"
        " === document.getElementById('position').textContent"
    )


def test_a_skip_link_leads_past_the_navigation(page, web_server):
    page.goto(game_url(page, web_server, "oregon"))
    shown(page)
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    assert page.evaluate("() => document.activeElement.className") == "skip-link"
    assert skip.is_visible()
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"
    page.keyboard.press("ArrowRight")  # the viewer's keys work from there
    wait_shown(page, 1)


# --- a table that scrolls sideways (WCAG: a scrollable region is focusable) -------------------

TABLE_PAGES = ("/leaderboard", "/games", "/bots", "/bots/random-python", "/tournaments",
               "/tournaments/1", "/games/1", "/live")  # fmt: skip
TABLE_BOXES = """() => [...document.querySelectorAll('.table-box')].map((box) => ({
    role: box.getAttribute('role'), name: box.getAttribute('aria-label'),
    wide: box.scrollWidth > box.clientWidth + 1, stop: box.getAttribute('tabindex') === '0'}))"""
# every box a stop of the Tab key while its table is wider than it, and only then
STOPS_FIT = """() => [...document.querySelectorAll('.table-box')].every((box) =>
    (box.scrollWidth > box.clientWidth + 1) === (box.getAttribute('tabindex') === '0'))"""


def test_a_table_wider_than_a_phone_is_a_named_region_the_tab_key_reaches(phone, web_server):
    wide = 0
    for path in TABLE_PAGES:
        phone.goto(web_server.url + path)
        boxes = phone.evaluate(TABLE_BOXES)
        assert boxes, path
        assert all(box["role"] == "region" and box["name"] for box in boxes), (path, boxes)
        phone.wait_for_function(STOPS_FIT)
        wide += sum(box["wide"] for box in phone.evaluate(TABLE_BOXES))
    assert wide >= 3, "no table is wider than a phone: nothing was checked"
    # /games on a phone: the Tab key reaches the table's box, and its arrow keys scroll it
    phone.goto(web_server.url + "/games")
    box = phone.locator(".table-box")
    assert box.get_attribute("tabindex") == "0"
    for _ in range(60):
        phone.keyboard.press("Tab")
        if phone.evaluate("document.activeElement.classList.contains('table-box')"):
            break
    else:
        pytest.fail("the Tab key never reached the games table's box")
    assert box.evaluate("(b) => b.scrollLeft") == 0
    phone.keyboard.press("ArrowRight")
    phone.wait_for_function("() => document.querySelector('.table-box').scrollLeft > 0")


def test_a_table_that_fits_its_box_is_no_stop_of_the_tab_key(page, web_server):
    """On a desktop the tables fit: the Tab key does not stop at each for nothing."""
    for path in TABLE_PAGES:
        page.goto(web_server.url + path)
        page.wait_for_function(STOPS_FIT)
        boxes = page.evaluate(TABLE_BOXES)
        assert all(box["role"] == "region" and box["name"] for box in boxes), (path, boxes)
        assert not any(box["stop"] for box in boxes if not box["wide"]), (path, boxes)


# --- M4: contrast and structure -----------------------------------------------------------------

CONTRAST = """(elements) => elements.map((element) => {
    const rgb = (css) => (css.match(/[\\d.]+/g) || []).map(Number);
    const luminance = ([r, g, b]) => {
        const linear = (c) => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    let behind = element, background;
    for (;;) {
        background = rgb(getComputedStyle(behind).backgroundColor);
        if (background.length === 3 || background[3] > 0) break;
        if (!behind.parentElement) { background = [255, 255, 255]; break; }
        behind = behind.parentElement;
    }
    let faded = 1;
    for (let up = element; up; up = up.parentElement) faded *= Number(getComputedStyle(up).opacity);
    const [a, b] = [luminance(rgb(getComputedStyle(element).color)), luminance(background)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    return [element.textContent.trim().slice(0, 30), faded < 1 ? 1 : Math.round(ratio * 100) / 100];
})"""


def _contrasts(page, selector: str) -> list[tuple[str, float]]:
    found = page.locator(selector)
    assert found.count() > 0, selector
    return [tuple(pair) for pair in found.evaluate_all(CONTRAST)]


def _too_low(pairs: list[tuple[str, float]], least: float = 4.5) -> list[tuple[str, float]]:
    return [pair for pair in pairs if pair[1] < least]


@pytest.mark.parametrize(
    "game, selectors",
    [
        ("oregon", ["#board .field-label", "#board .info", ".player .token.used .token-label"]),
        ("merkator", ["#board figcaption", "#board .info", ".player .kontor-good.none"]),
        ("ogallala", ["#board .og-pile[data-piece=stack] div", "#board svg .row-number"]),
    ],
)
def test_the_boards_text_reads_in_dark_mode(dark, web_server, game, selectors):
    """The board's card stays light in dark mode: its captions keep dark ink (they had the dark
    theme's light grey: 2.1:1); the pieces' labels are not faded under 4.5:1."""
    dark.goto(game_url(dark, web_server, game) + "?d=30")
    wait_shown(dark, 30)
    if game == "oregon":  # a used token: a joker or an extra turn (ready at the start)
        dark.evaluate(
            """() => {
                const frame = structuredClone(Arena.replay.received
                    .find((r) => r.url.includes('/frames?')).body.frames[30]);
                for (const player of Object.values(frame.views)[0].players) {
                    player.joker_active = false;
                }
                const players = document.getElementById('players');
                players.replaceChildren();
                Arena.boards.oregon({board: document.createElement('div'), players, frame});
            }"""
        )
    for selector in selectors:
        if selector.startswith("#board svg"):
            continue  # SVG text has a fill, not a colour: checked below
        assert _too_low(_contrasts(dark, selector)) == [], selector
    if game == "ogallala":
        fill = dark.locator("#board svg .row-number").first.evaluate(
            "(text) => getComputedStyle(text).fill"
        )
        assert fill == "rgb(92, 99, 112)", fill  # the light theme's grey on the light card


def test_the_decision_logs_events_read_in_dark_mode(dark, web_server):
    dark.goto(game_url(dark, web_server, "oregon") + "?d=10")
    dark.wait_for_function("() => document.getElementById('log').dataset.loaded === 'referee'")
    assert _too_low(_contrasts(dark, "#log-list ul.events li")) == []
    assert _too_low(_contrasts(dark, "#log-list li.entry .number")) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_muted_text_and_links_in_text_are_readable(browser, web_server, scheme):
    with browser_page(browser, color_scheme=scheme) as page:
        for path in ("/games", "/tournaments/1", "/games/1?d=3"):
            page.goto(web_server.url + path)
            assert _too_low(_contrasts(page, "main .muted:visible")) == [], path
            # a link among words is underlined: not told apart by its colour alone
            for link in page.locator("main p a, .game-head a").all():
                line = link.evaluate("(a) => getComputedStyle(a).textDecorationLine")
                assert "underline" in line, (path, link.inner_text())


def test_the_viewers_headings_go_down_one_level_at_a_time_and_no_header_is_empty(page, web_server):
    for game in ("oregon", "merkator", "ogallala"):
        page.goto(game_url(page, web_server, game) + "?d=10")
        wait_shown(page, 10)
        levels = page.evaluate(
            "() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')]"
            ".map((h) => Number(h.tagName[1]))"
        )
        assert levels[0] == 1
        jumps = [(a, b) for a, b in zip(levels, levels[1:], strict=False) if b > a + 1]
        assert jumps == [], (game, levels)
        headers = page.locator(".seats-table th").all_text_contents()
        assert all(text.strip() for text in headers), headers


# --- L1: the Kontor at desktop widths -----------------------------------------------------------

OVERLAPS = """() => {
    const frame = structuredClone(Arena.replay.received
        .find((r) => r.url.includes('/frames?')).body.frames[0]);
    for (const player of Object.values(frame.views)[0].players) {
        player.kontor = player.kontor.map(() => 12);
    }
    const [board, players] = [document.getElementById('board'), document.getElementById('players')];
    board.replaceChildren();
    players.replaceChildren();
    Arena.boards.merkator({board, players, frame});
    const box = (node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return range.getBoundingClientRect();
    };
    const wrong = [];
    for (const cell of document.querySelectorAll('#players .kontor-good')) {
        const count = cell.querySelector('.n');
        const name = [...cell.childNodes].filter((node) => node.textContent.trim()).at(-1);
        const column = cell.closest('.kontor-column').getBoundingClientRect();
        const [n, words] = [box(count), box(name)];
        if (n.right > words.left + 0.5 || words.right > column.right + 0.5) {
            wrong.push(cell.textContent);
        }
    }
    return [document.querySelectorAll('#players .kontor-good').length, wrong];
}"""


@pytest.mark.parametrize("width", [1280, 1920])
def test_two_digit_kontor_counts_never_overprint_the_goods_name(browser, web_server, width):
    with browser_page(browser, {"width": width, "height": 900}) as page:
        page.goto(game_url(page, web_server, "merkator"))
        shown(page)
        cells, wrong = page.evaluate(OVERLAPS)
        assert cells == 32
        assert wrong == [], wrong


# --- L4: the decision log at the final position -------------------------------------------------


@pytest.mark.parametrize("game", ["oregon", "merkator"])
def test_at_the_final_position_the_log_shows_its_end(page, web_server, game):
    url = game_url(page, web_server, game)
    page.goto(url)
    last = int(page.locator("#slider").get_attribute("max"))
    page.goto(f"{url}?d={last}")  # where the live page hands over
    wait_shown(page, last)
    page.wait_for_function("() => document.getElementById('log').dataset.loaded === 'referee'")
    at_end = page.locator("#log-list").evaluate(
        "(list) => list.scrollHeight > list.clientHeight"
        " && list.scrollTop + list.clientHeight >= list.scrollHeight - 2"
    )
    assert at_end
    result = page.locator("#log-list li.ending")
    assert result.inner_text().startswith("Result:")
    box, line = page.locator("#log-list").bounding_box(), result.bounding_box()
    assert (
        box
        and line
        and box["y"] <= line["y"]
        and line["y"] + line["height"] <= box["y"] + box["height"] + 1
    )
