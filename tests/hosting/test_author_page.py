"""The author's page (``/me``, ``/api/me``): games in pages of whole games, newest first
(``?before=GAME``: every game of theirs reachable, none twice, never another's), and why the
operator withdrew a bot of theirs."""

from __future__ import annotations

import json

import pytest

import arena.web.authors as web_authors
from arena.cli import app
from tests.hosting.stored_games import stored_game
from tests.hosting.test_bot_logs import with_token
from tests.hosting.test_upload_api import Arena, Served, runner
from tests.hosting.test_web_sign_in import signed_in


def test_every_game_is_on_one_page_of_whole_games(arena: Arena, web: Served, monkeypatch):
    monkeypatch.setattr(web_authors, "GAMES_LISTED", 3)
    alice, bob = arena.author_id("alice"), arena.author_id("bob")
    mine = []
    for i in range(8):
        if i % 3 == 0:  # both of alice's bots in one game: its two seats stay on one page
            mine.append(stored_game(arena.db, [("a1", alice, None), ("a2", alice, None)]))
        else:
            mine.append(stored_game(arena.db, [("a1", alice, None), ("b1", bob, None)]))
        stored_game(arena.db, [("b1", bob, None), ("b2", bob, None)])  # bob's alone
    token, path, pages = arena.tokens["alice"], "/api/me", []
    while path is not None:
        status, body, _ = with_token(web, path, token)
        assert status == 200, body
        page = json.loads(body)
        pages.append(page["games"])
        path = page["older_games"]
    assert [len({g["game_id"] for g in page}) for page in pages] == [3, 3, 2]
    seen = [(g["game_id"], g["seat"]) for page in pages for g in page]
    expected = [(game, 0) for game in reversed(mine)]
    expected += [(game, 1) for game in mine if game in mine[::3]]
    assert sorted(seen) == sorted(expected) and len(seen) == len(set(seen))
    assert {g["bot"] for page in pages for g in page} == {"a1", "a2"}
    assert pages[0][0]["game_id"] == mine[-1]  # newest first

    browser = signed_in(web, arena, "alice")
    status, html, _ = browser.get("/me")
    assert status == 200 and "older games" in html and "newest games" not in html
    status, html, _ = browser.get(f"/me?before={mine[2]}")
    assert status == 200 and "newest games" in html and "older games" not in html


def test_a_script_takes_more_games_a_page(arena: Arena, web: Served):
    alice = arena.author_id("alice")
    made = [stored_game(arena.db, [("a1", alice, None)]) for _ in range(5)]
    token, path, pages = arena.tokens["alice"], "/api/me?games=2", []
    while path is not None:
        page = json.loads(with_token(web, path, token)[1])
        pages.append([g["game_id"] for g in page["games"]])
        path = page["older_games"]
    assert pages == [made[:2:-1], made[2:0:-1], made[:1]]
    for bad in ("0", "501", "x"):
        status, body, _ = with_token(web, f"/api/me?games={bad}", token)
        assert status == 400 and b"games must be a whole number from 1 to 500" in body


@pytest.mark.parametrize("before", ["x", "-1", "1.5", "9" * 30, "%C2%B2"])
def test_a_malformed_page_is_a_400(arena: Arena, web: Served, before: str):
    status, body, _ = with_token(web, f"/api/me?before={before}", arena.tokens["alice"])
    assert status == 400 and b"before must be a game's number" in body


def test_an_author_sees_why_a_bot_of_theirs_was_withdrawn(arena: Arena, web: Served):
    stored_game(arena.db, [("a1", arena.author_id("alice"), None)])
    stored_game(arena.db, [("b1", arena.author_id("bob"), None)])
    withdrawn = runner.invoke(
        app, ["bots", "withdraw", "a1", "--reason", "floods the log", "--db", str(arena.db)]
    )
    assert withdrawn.exit_code == 0, withdrawn.output
    status, body, _ = with_token(web, "/api/me", arena.tokens["alice"])
    [bot] = json.loads(body)["bots"]
    assert bot["withdrawn"].startswith("withdrawn by the operator on ")
    assert bot["withdrawn"].endswith("UTC: floods the log")
    status, body, _ = with_token(web, "/api/me", arena.tokens["bob"])
    assert [bot["withdrawn"] for bot in json.loads(body)["bots"]] == [None]
    status, html, _ = signed_in(web, arena, "alice").get("/me")
    assert "floods the log; it plays no games until the operator restores it" in html
    # and its author's command line says so under the uploads (it said "active" alone)
    status_line = runner.invoke(
        app,
        ["submit", "--to", f"http://127.0.0.1:{web.port}", "--token-file",
         str(arena.token_files["alice"]), "--status"],
    )  # fmt: skip
    assert status_line.exit_code == 0, status_line.output
    assert "a1: withdrawn by the operator on " in status_line.stdout
    assert "floods the log" in status_line.stdout
