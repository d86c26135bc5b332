"""The game boards in a real Chromium: each drawn as the game looks (Merkator's map with its trade
routes, time board and contract piles; Ogallala's cards as cards; Oregon's stacks and piles
labelled), counted in English, with every card id explained on hover and on tap, for the referee
and for each seat, at desktop and phone sizes.

The positions are the session database's games (tests/web/conftest.py); each check compares the
drawing with the view the page received, so it holds for whatever position the bots reached.

Set ARENA_WEB_SCREENSHOTS=DIR to save each board's picture there (docs/images/ holds them)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engine.merkator.data import DATA as MERKATOR
from engine.ogallala.data import DATA as OGALLALA
from tests.web.conftest import PHONE, browser_page

# Importing test_browser skips this module too when Chromium or Playwright is missing.
from tests.web.test_browser import screenshot, wait_shown

DESKTOP = {"width": 1400, "height": 900}
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@contextmanager
def watched_page(browser, size: str) -> Iterator[Any]:
    """A page at ``size`` (a phone: a touch screen), failing its test on any console error,
    uncaught exception or failed request."""
    phone = size == "phone"
    with browser_page(browser, SIZES[size], is_mobile=phone, has_touch=phone) as opened:
        opened.size = size
        yield opened


@pytest.fixture(params=list(SIZES))
def any_page(request, browser):
    """A page at desktop size, then at phone size."""
    with watched_page(browser, request.param) as opened:
        yield opened


@pytest.fixture
def desktop(browser):
    with watched_page(browser, "desktop") as opened:
        yield opened


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.load(response)


def game_id(server, game: str) -> int:
    """The session database's first game of ``game``."""
    games = get_json(f"{server.url}/api/games?game={game}")
    rows = games["games"] if isinstance(games, dict) else games
    return min(row["id"] for row in rows)


def frames(server, game_number: int, seat: str = "referee") -> list[dict]:
    outline = get_json(f"{server.url}/api/games/{game_number}/replay?seat={seat}")
    total = len(outline["outline"])
    found: list[dict] = []
    while len(found) < total:
        chunk = get_json(
            f"{server.url}/api/games/{game_number}/frames?seat={seat}&start={len(found)}&count=200"
        )
        found.extend(chunk["frames"])
    return found


def open_game(page, server, game_number: int, decision: int, seat: str = "referee") -> None:
    query = f"?d={decision}" + ("" if seat == "referee" else f"&seat={seat}")
    page.goto(f"{server.url}/games/{game_number}{query}")
    wait_shown(page, decision)


def panel_texts(page) -> list[str]:
    return page.locator("#players .player").all_inner_texts()


def counted(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


# JavaScript: the shown frame (as the page received it) and boxes of drawn elements.
SHOWN_FRAME = """() => {
    const number = Number(document.getElementById('replay').dataset.shown);
    return Arena.replay.received.filter((r) => r.url.includes('/frames?'))
        .flatMap((r) => r.body.frames).find((f) => f.number === number);
}"""
OVERLAP_HELPERS = """
    const box = (el) => el.getBoundingClientRect();
    const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const titled = (pattern) => [...document.querySelectorAll('#board svg *')]
        .filter((el) => [...el.children]
            .some((c) => c.tagName === 'title' && pattern.test(c.textContent)));
    const redraw = (frame) => {
        const board = document.getElementById('board');
        const players = document.getElementById('players');
        board.replaceChildren(); players.replaceChildren();
        Arena.boards[document.getElementById('replay').dataset.game]({board, players, frame});
    };
"""


# --- defect 5: the Merkator map ------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
def test_the_merchant_never_covers_the_cube_pools_or_a_name(browser, web_server, size):
    """Issue 28, defect 5: in Sweden the merchant ▲ covered the cube-pool legend. Drawn at
    every location in turn, it overlaps no pool, no place name and no count of cubes."""
    with watched_page(browser, size) as page:
        open_game(page, web_server, game_id(web_server, "merkator"), 5)
        clashes = page.evaluate(
            "(shownFrame) => {"
            + OVERLAP_HELPERS
            + """
        const frame = eval(shownFrame)();
        const places = ['HAM', 'HOL', 'DAN', 'SWE', 'ENG', 'FRA', 'RUS', 'SPA',
                        'DEN', 'BOH', 'ITA', 'NEW'];
        const clashes = [];
        for (const place of places) {
            for (const view of Object.values(frame.views)) view.figure = place;
            redraw(frame);
            const merchant = titled(/merchant/i);
            if (merchant.length !== 1) {
                clashes.push(`${place}: ${merchant.length} merchants`);
                continue;
            }
            const svg = merchant[0].ownerSVGElement;
            const pools = [...svg.querySelectorAll('text, rect, circle')].filter((el) =>
                /pool/i.test(el.textContent) || titled(/pool/i).includes(el));
            if (!pools.length) clashes.push('no cube pools drawn');
            const labels = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim());
            for (const other of [...pools, ...labels]) {
                if (overlap(box(merchant[0]), box(other))) {
                    clashes.push(`${place}: over "${other.textContent}"`);
                }
            }
        }
        return clashes;
    }""",
            SHOWN_FRAME,
        )
    assert clashes == []


def test_trade_routes_join_the_majors_and_cross_no_count(desktop, web_server):
    """Issue 28, defect 5: lines to Hamburg were drawn over Hamburg's circle and struck through
    its count. The map draws the 11 trade routes of the rules (2.3), each from circle to circle
    (beneath them), crossing no city's count of cubes."""
    open_game(desktop, web_server, game_id(web_server, "merkator"), 5)
    found = desktop.evaluate(
        """() => {
        const svg = document.querySelector('#board svg');
        const circles = [...svg.querySelectorAll('circle')];
        const inside = (t, c) => {
            const b = t.getBBox();
            const [cx, cy, r] = ['cx', 'cy', 'r'].map((a) => Number(c.getAttribute(a)));
            return Math.hypot(b.x + b.width / 2 - cx, b.y + b.height / 2 - cy) < r;
        };
        const counts = [...svg.querySelectorAll('text')]
            .filter((t) => /^\\d+$/.test(t.textContent) && circles.some((c) => inside(t, c)));
        // Does the segment cross the box? Sampled along its length (boxes are 8+ units wide).
        const crosses = (line, b) => {
            const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2']
                .map((a) => Number(line.getAttribute(a)));
            for (let i = 0; i <= 200; i++) {
                const x = x1 + (x2 - x1) * i / 200, y = y1 + (y2 - y1) * i / 200;
                if (x > b.x && x < b.x + b.width && y > b.y && y < b.y + b.height) return true;
            }
            return false;
        };
        const lines = [...svg.querySelectorAll('line')];
        const struck = [];
        for (const line of lines) {
            for (const t of counts) if (crosses(line, t.getBBox())) struck.push(t.textContent);
        }
        const routes = [...svg.querySelectorAll('[data-route]')].map((l) => l.dataset.route).sort();
        const names = [...svg.querySelectorAll('.place-name')].map((t) => t.textContent);
        return {counts: counts.length, struck, routes, names};
    }"""
    )
    assert found["counts"] == 8, "a count of cubes on each of the 8 majors"
    assert found["struck"] == []
    # The drawing's copy of the rules' data (2.3) is the engine's.
    assert found["routes"] == sorted("-".join(line) for line in MERKATOR["lines"])
    assert sorted(found["names"]) == sorted(place["name"] for place in MERKATOR["locations"])


# --- defect 7: the panels ------------------------------------------------------------------


def oregon_position(server) -> tuple[int, int, int, dict]:
    """A decision at which some seat holds exactly one coal or gold tile (the first such), with
    the seat and the referee's frame."""
    number = game_id(server, "oregon")
    for frame in frames(server, number):
        view = frame["views"]["0"]
        for player in view["players"]:
            if 1 in (player["coal_tiles"], player["gold_tiles"]) and not frame.get("final"):
                return number, frame["number"], player["seat"], frame
    pytest.fail("no Oregon seat held a coal or gold tile in the session's game")


def test_oregon_panels_count_in_english_for_the_owner_and_the_others(desktop, web_server):
    """Issue 28, defect 7: "0 coal, 1 gold tiles" and "1 landscape + 1 building cards"; the owner
    read "coal – · gold 3, 4" while the others read "0 coal, 0 gold tiles". Each count is now
    written with its noun in the right number, the same for the owner and for the others (the
    owner also sees the values)."""
    number, decision, seat, frame = oregon_position(web_server)
    other = 1 - seat
    player = frame["views"][str(seat)]["players"][seat]
    tiles = [counted(player["coal_tiles"], "coal tile"), counted(player["gold_tiles"], "gold tile")]
    hidden = [
        counted(player["landscape_cards"], "landscape card"),
        counted(player["building_cards"], "building card"),
    ]
    for watcher in ("referee", str(seat), str(other)):
        open_game(desktop, web_server, number, decision, watcher)
        text = panel_texts(desktop)[seat]
        for words in tiles:
            assert words in text, (watcher, text)
        if watcher == str(other):  # the hand is hidden from the other seat: counted
            for words in hidden:
                assert words in text, (watcher, text)
        for bad in re.findall(r"\b1 (?:\w+ )?(?:tiles|cards|points|farmers)\b", text):
            pytest.fail(f"{bad!r} in {text!r}")
    values = player["coal_values"] + player["gold_values"]
    open_game(desktop, web_server, number, decision, str(seat))
    assert all(str(v) in panel_texts(desktop)[seat] for v in values)
    open_game(desktop, web_server, number, decision, str(other))
    assert "hidden" in panel_texts(desktop)[seat]


def test_oregon_tokens_stacks_and_piles_are_labelled(desktop, web_server):
    """Issue 28, defect 7: "joker – · extra turn –" and "stacks 4 4 4 3 3 3 3", "discards 21 / 4"
    said nothing to a reader. Each token says whether it is ready or used; each building stack is
    named with its tiles left; each deck and discard pile is named with its count."""
    number = game_id(web_server, "oregon")
    open_game(desktop, web_server, number, 20)
    frame = desktop.evaluate(SHOWN_FRAME)
    view = frame["views"]["0"]
    for text in panel_texts(desktop):
        assert not re.search(r"(^|\s)–(\s|$)", text), f"a bare dash in {text!r}"
        assert re.search(r"joker (ready|used)", text), text
        assert re.search(r"extra turn (ready|used)", text), text
    stacks = desktop.locator("#board [data-piece=building-stack]")
    assert stacks.count() == 7
    names = ["post office", "harbor", "church", "warehouse", "train station", "coal pit"]
    names.append("gold mine")
    for index, name in enumerate(names):
        text = stacks.nth(index).inner_text()
        assert name in stacks.nth(index).get_attribute("title")
        assert str(view["stacks"][index]) in text
    piles = desktop.locator("#board [data-piece=pile]").all_inner_texts()
    expected = {
        "landscape deck": view["landscape_deck_size"],
        "building deck": view["building_deck_size"],
        "landscape discard": len(view["landscape_discard"]),
        "building discard": len(view["building_discard"]),
        "coal tiles": view["coal_stack_size"],
        "gold tiles": view["gold_stack_size"],
    }
    for name, count in expected.items():
        assert any(name in pile and re.search(rf"\b{count}\b", pile) for pile in piles), (
            name,
            piles,
        )


def test_merkator_ids_are_explained_on_hover(desktop, web_server):
    """Issue 28, defect 7: bonus cards were bare ids (B03). Every contract, bonus card and
    building id on the board and in the panels carries its meaning as a tooltip."""
    number = game_id(web_server, "merkator")
    open_game(desktop, web_server, number, 30)
    explained = desktop.evaluate(
        """() => {
        const ids = [];
        const walker = document.createTreeWalker(document.getElementById('viewer-boards') ||
            document.querySelector('.viewer'), NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const node = walker.currentNode;
            if (node.parentElement.closest('#decision, .side, title')) continue;
            for (const id of node.textContent.match(/\\b[BCK]\\d\\d\\b/g) || []) {
                const holder = node.parentElement.closest('[data-explain]');
                ids.push([id, holder ? holder.dataset.explain : null]);
            }
        }
        return ids;
    }"""
    )
    assert explained, "ids are shown"
    for card, meaning in explained:
        assert meaning and card in meaning and len(meaning) > len(card) + 8, (card, meaning)


def test_an_id_in_the_decisions_options_is_explained(desktop, web_server):
    """ "sell contract C24", "fulfil contract C17": the ids in the decision's options say what
    the contract is, as on the board."""
    number = game_id(web_server, "merkator")
    for frame in frames(web_server, number):
        named = [words for words in frame.get("legal", []) if re.search(r"\bC\d\d\b", words)]
        if named:
            break
    else:
        pytest.fail("no decision of the session's game names a contract")
    open_game(desktop, web_server, number, frame["number"])
    for words in named:
        item = desktop.locator("ol.legal li", has_text=words).first
        card = re.search(r"\bC\d\d\b", words).group()
        meaning = item.get_attribute("data-explain")
        assert meaning and meaning.startswith(f"{card}: contract worth"), (words, meaning)
        assert item.get_attribute("title") == meaning


@pytest.fixture
def phone(browser):
    with watched_page(browser, "phone") as opened:
        yield opened


def test_an_id_is_explained_on_tap(phone, web_server):
    """A phone has no hover: tapping a card id shows what it is, tapping elsewhere hides it."""
    page = phone
    open_game(page, web_server, game_id(web_server, "merkator"), 30)
    card = page.locator("#players [data-piece=contract]").first
    card.scroll_into_view_if_needed()
    card.tap()
    tip = page.locator(".explain-tip")
    tip.wait_for(state="visible")
    assert tip.inner_text() == card.get_attribute("data-explain")
    tip_box, viewport = tip.bounding_box(), PHONE["width"]
    assert tip_box["x"] >= 0 and tip_box["x"] + tip_box["width"] <= viewport
    page.locator("h1").tap()
    tip.wait_for(state="hidden")


# --- the new drawings ----------------------------------------------------------------------


@pytest.mark.parametrize("watcher", ["referee", "0", "1"])
def test_merkator_board_draws_time_board_piles_and_slots(any_page, web_server, watcher):
    """The time board with one marker per occupied space (letters on face-up ones), every
    contract pile with its count and top card, the discard pile, the bonus and building slots
    and decks; a panel per trader with coins, markers, contracts, Kontor and supply tile."""
    page = any_page
    number = game_id(web_server, "merkator")
    open_game(page, web_server, number, 30, watcher)
    view = next(iter(page.evaluate(SHOWN_FRAME)["views"].values()))
    board = page.locator("#board")
    assert board.locator("[data-piece=time-marker]").count() == len(view["time_board"])
    assert board.locator("[data-piece=time-space]").count() == 36
    for marker in view["time_board"]:
        at = f"{marker['row']},{marker['space']}"
        drawn = board.locator(f"[data-piece=time-marker][data-at='{at}']")
        assert drawn.count() == 1
        assert "".join(drawn.locator("text").all_text_contents()) == marker["letters"]
    piles = board.locator("[data-piece=contract-pile]")
    assert piles.count() == len(view["piles"])
    for index, pile in enumerate(view["piles"]):
        text = piles.nth(index).inner_text()
        assert re.search(rf"\b{pile['value']}\b", text)
        assert counted(pile["count"], "card") in piles.nth(index).get_attribute("data-explain")
        if pile["top"]:
            assert pile["top"]["id"] in text
    discard = board.locator("[data-piece=contract-discard]")
    assert counted(view["discard_count"], "card") in discard.get_attribute("data-explain")
    assert board.locator("[data-piece=bonus-slot]").count() == len(view["bonus_slots"])
    assert board.locator("[data-piece=building-slot]").count() == len(view["building_slots"])
    assert board.locator("[data-piece=pool]").count() == 8
    for index, pool in enumerate(board.locator("[data-piece=pool]").all()):
        assert pool.locator("text").text_content() == str(view["pools"][index])
    panels = page.locator("#players .player")
    assert panels.count() == len(view["players"])
    for seat, player in enumerate(view["players"]):
        panel = panels.nth(seat)
        text = panel.inner_text()
        assert counted(player["coins"], "coin") in text
        assert counted(player["markers"], "time marker") in text
        assert panel.locator("[data-piece=contract]").count() == len(player["contracts"])
        assert panel.locator("[data-piece=kontor-good]").count() == 16
        kontor = panel.locator("[data-piece=kontor-good]").evaluate_all(
            "(goods) => goods.map((g) => "
            "[Number(g.dataset.index), Number(g.querySelector('.n').textContent)])"
        )
        assert [n for _, n in sorted(kontor)] == player["kontor"]
        columns = panel.locator(".kontor-column").evaluate_all(
            "(cs) => cs.map((c) => [c.querySelector('.kontor-letter').textContent,"
            " [...c.querySelectorAll('[data-index]')].map((g) => Number(g.dataset.index))])"
        )
        goods = [good["id"] for good in MERKATOR["goods"]]
        assert {letter: [goods[i] for i in held] for letter, held in columns} == (
            MERKATOR["kontor_columns"]
        )
        assert panel.locator("[data-piece=tile-cube]").count() == len(player["tile"])
    screenshot(page, f"board-merkator-{page.size}-{watcher}")


def test_the_chosen_merkator_card_is_outlined(desktop, web_server):
    """A contract sold or fulfilled, a bonus card or building bought: the card the chosen action
    names is outlined, once."""
    number = game_id(web_server, "merkator")
    for frame in frames(web_server, number):
        action = frame.get("action") or {}
        if action.get("contract") or action.get("option") in ("BUY_BONUS", "BUY_BUILDING"):
            break
    else:
        pytest.fail("no contract sold or fulfilled and nothing bought in the session's game")
    open_game(desktop, web_server, number, frame["number"])
    chosen = desktop.locator(".mcard.chosen")
    assert chosen.count() == 1
    if action.get("contract"):
        assert action["contract"] in chosen.inner_text()
    else:
        piece = "bonus-slot" if action["option"] == "BUY_BONUS" else "building-slot"
        slots = desktop.locator(f"[data-piece={piece}]")
        assert slots.nth(action["slot"] - 1).get_attribute("class").endswith("chosen")


def test_the_merkator_map_fits_a_phone_and_stays_readable(phone, web_server):
    """The map and the time board scale to a phone's width, their labels still 7 px or more."""
    page = phone
    open_game(page, web_server, game_id(web_server, "merkator"), 30)
    sizes = page.evaluate(
        """() => {
        const board = document.getElementById('board').getBoundingClientRect();
        const svgs = [...document.querySelectorAll('#board svg')];
        const labels = svgs.flatMap((s) => [...s.querySelectorAll('text')])
            .filter((t) => t.textContent.trim());
        return {board: board.width,
                widest: Math.max(...svgs.map((s) => s.getBoundingClientRect().right - board.left)),
                smallest: Math.min(...labels.map((t) => t.getBoundingClientRect().height))};
    }"""
    )
    assert sizes["widest"] <= sizes["board"] + 0.5, sizes
    assert sizes["smallest"] >= 7, sizes


@pytest.mark.parametrize("watcher", ["referee", "1"])
def test_ogallala_cards_are_drawn_as_cards_with_their_symbols(any_page, web_server, watcher):
    """Every card on every display is a card with its symbol and fight value or booty value, and
    says what it is on hover; the draw stacks and the discard pile are drawn with their counts."""
    page = any_page
    number = game_id(web_server, "ogallala")
    open_game(page, web_server, number, 40, watcher)
    view = next(iter(page.evaluate(SHOWN_FRAME)["views"].values()))
    displays = page.locator("#board .display")
    assert displays.count() == len(view["displays"])
    for index, display in enumerate(view["displays"]):
        cards = displays.nth(index).locator("[data-piece=card]")
        assert cards.count() == len(display["cards"])
        assert sorted(cards.evaluate_all("(cs) => cs.map((c) => c.dataset.kind)")) == sorted(
            card["kind"] for card in display["cards"]
        )
        for card in cards.all():
            assert card.locator("[data-piece=symbol]").count() >= 1
            assert len(card.get_attribute("data-explain")) > 8
    stacks = page.locator("#board [data-piece=stack]")
    assert stacks.count() == len(view["stacks"])
    for index, stack in enumerate(view["stacks"]):
        assert counted(stack["size"], "card") in stacks.nth(index).get_attribute("data-explain")
    discard = page.locator("#board [data-piece=discard]")
    assert counted(len(view["discard"]), "card") in discard.get_attribute("data-explain")
    unseen = page.locator("#players [data-piece=unseen]")
    assert unseen.count() == len(view["unseen"])
    for kind, token in zip(view["unseen"], unseen.all(), strict=True):
        assert token.inner_text().endswith(f"×{kind['count']}")
        assert counted(kind["count"], "card") in token.get_attribute("data-explain")
    total = sum(kind["count"] for kind in view["unseen"])
    assert f"Cards not yet seen ({total})" in page.locator("#players").inner_text()
    overflows = page.evaluate(
        "() => { const d = document.querySelector('#board .displays');"
        " return d.scrollWidth > d.clientWidth + 1; }"
    )
    assert page.locator("#board .scroll-hint").count() == (1 if overflows else 0)
    screenshot(page, f"board-ogallala-{page.size}-{watcher}")


def test_every_ogallala_card_kind_is_drawn_as_the_rules_list_it(desktop, web_server):
    """Each kind of the card list (rules 2.2, the engine's data) drawn: its name, and its fight
    value or booty value on the badge and in its explanation."""
    open_game(desktop, web_server, game_id(web_server, "ogallala"), 0)
    kinds = [card["kind"] for card in OGALLALA["cards"]]
    drawn = desktop.evaluate(
        "([shownFrame, kinds]) => {"
        + OVERLAP_HELPERS
        + """
        const frame = eval(shownFrame)();
        for (const view of Object.values(frame.views)) {
            view.displays[0].cards = kinds
                .map((kind, i) => ({row: i % 3, col: Math.floor(i / 3), kind}));
            view.displays[0].width = Math.ceil(kinds.length / 3);
            view.displays[0].height = 3;
            view.displays[0].segments = [];
        }
        redraw(frame);
        const cards = document.querySelectorAll('#board .display:first-child [data-piece=card]');
        return [...cards].map((card) => [card.dataset.kind, card.dataset.explain,
            card.querySelector('.badge-text')?.textContent || '']);
    }""",
        [SHOWN_FRAME, kinds],
    )
    assert [kind for kind, _, _ in drawn] == kinds
    for card, (kind, explanation, badge) in zip(OGALLALA["cards"], drawn, strict=True):
        value = card["fight"] or card["booty_value"]
        assert badge == (str(value) if value else ""), kind
        if card["fight"]:
            assert f"fight {card['fight']}" in explanation, kind
        if card["booty_value"]:
            assert f"booty worth {card['booty_value']}" in explanation, kind
        if card["set_id"]:
            assert f"{card['set_id']} set" in explanation, kind
        assert card["is_bow"] == ("a bow" in explanation), kind
        assert card["is_stern"] == ("a stern" in explanation), kind


def test_oregon_board_screenshots(any_page, web_server):
    """Not a check of its own (the Oregon board has its tests above): its pictures for the docs."""
    open_game(any_page, web_server, game_id(web_server, "oregon"), 40)
    assert any_page.locator("#board [data-piece=building-stack]").count() == 7
    screenshot(any_page, f"board-oregon-{any_page.size}")
