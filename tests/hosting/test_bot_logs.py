"""An author downloads each game's log of their own bot (``/me/games/ID/seats/N/log``), over
real HTTP: with the session or the token, as a plain-text attachment, its tail past the limit;
another author, a visitor, a bad token and the operator's bot's seat get nothing. (That every
private route refuses strangers is walked in test_web_sign_in; the whole way from an upload to
a download is test_hosted_end_to_end.)"""

from __future__ import annotations

import http.client
import json
import re

import arena.web.bot_logs as bot_logs
from arena.log_names import QUOTA_MIB, kept_log_names, kept_process_log_name
from arena.storage import tournaments
from arena.storage.database import open_database
from tests.hosting.stored_games import log_file, stored_game
from tests.hosting.test_upload_api import Arena, Served
from tests.hosting.test_web_sign_in import signed_in

# A bot's log holds anything: markup in it must reach the author as text, never as a page.
ALICE_SAID = b"<script>alert('alice')</script> alice's move SECRET-a11ce\n"
OPERATOR_SAID = b"the operator's bot says SECRET-0per\n"


def with_token(web: Served, path: str, token: str | None) -> tuple[int, bytes, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", web.port, timeout=30)
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read(), {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


def test_an_author_downloads_their_bots_log_of_a_game_and_nobody_else_does(
    arena: Arena, web: Served, tmp_path
):
    _, (first, second) = log_file(arena.files.root, b"game one\n", ALICE_SAID)
    _, (operators,) = log_file(arena.files.root, OPERATOR_SAID)
    alice = arena.author_id("alice")
    game = stored_game(arena.db, [("alices-bot", alice, second), ("house-bot", None, operators)])
    stored_game(arena.db, [("alices-bot", alice, first), ("house-bot", None, None)])
    mine, operators_seat = bot_logs.log_path(game, 0), bot_logs.log_path(game, 1)

    status, body, headers = with_token(web, mine, arena.tokens["alice"])
    assert status == 200 and body == ALICE_SAID  # this game's part of the file, no more
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert headers["x-content-type-options"] == "nosniff"
    assert (
        headers["content-disposition"] == f'attachment; filename="game{game}-seat0-alices-bot.log"'
    )
    browser = signed_in(web, arena, "alice")
    status, page, _ = browser.get("/me")  # her games, with a link to her bot's log of each
    assert status == 200 and f'href="{mine}"' in page and operators_seat not in page
    status, text, _ = browser.get(mine)
    assert status == 200 and text.encode() == ALICE_SAID

    nothing = with_token(web, bot_logs.log_path(game + 100, 0), arena.tokens["alice"])
    assert nothing[0] == 404
    refused = [
        with_token(web, mine, arena.tokens["bob"]),  # another author's token
        with_token(web, mine, None),  # no token, no session
        with_token(web, operators_seat, arena.tokens["alice"]),  # the operator's bot
        (lambda r: (r[0], r[1].encode(), r[2]))(signed_in(web, arena, "bob").get(mine)),
    ]
    for status, body, _ in refused:
        assert status == 404 and b"SECRET" not in body
        assert re.sub(rb"\d+", b"N", body) == re.sub(
            rb"\d+", b"N", nothing[1]
        )  # the very answer a game that does not exist gets
    forged = arena.tokens["alice"][:-2] + "AA"
    status, body, _ = with_token(web, mine, forged)
    assert status == 401 and b"SECRET" not in body


def test_a_log_of_a_deal_still_in_play_is_held_back_until_its_tournament_ends(
    arena: Arena, web: Served
):
    """Every seat rotation of a deal is dealt the same cards, and a bot's log may hold what it
    was shown at the end (every seat's final view): it was served while the deal's other
    rotations were still to be played, as the replay is not (outside review)."""
    _, (part,) = log_file(arena.files.root, ALICE_SAID)
    database = open_database(arena.db, create=False)
    with database.write() as session:
        tournament = tournaments.create(session, "deals", "oregon", 1, {}, []).id
    game = stored_game(arena.db, [("alices-bot", arena.author_id("alice"), part)], tournament)

    status, body, _ = with_token(web, bot_logs.log_path(game, 0), arena.tokens["alice"])
    assert status == 403 and b"held back until every seat rotation of its deal" in body
    assert b"SECRET" not in body
    [listed] = json.loads(with_token(web, "/api/me", arena.tokens["alice"])[1])["games"]
    assert (listed["log"], listed["log_held"]) == (None, True)  # not a link to a refusal
    with database.write() as session:
        tournaments.set_state(session, tournament, tournaments.FINISHED)
    database.close()
    status, body, _ = with_token(web, bot_logs.log_path(game, 0), arena.tokens["alice"])
    assert status == 200 and body == ALICE_SAID
    [listed] = json.loads(with_token(web, "/api/me", arena.tokens["alice"])[1])["games"]
    assert (listed["log"], listed["log_held"]) == (bot_logs.log_path(game, 0), False)


def test_a_long_log_is_sent_from_its_end_and_says_so(
    arena: Arena, web: Served, tmp_path, monkeypatch
):
    big = b"".join(b"line %d\n" % i for i in range(100)) + b"the crash\n"
    _, (piece,) = log_file(arena.files.root, big)
    game = stored_game(arena.db, [("alices-bot", arena.author_id("alice"), piece)])
    limit = 50
    monkeypatch.setattr(bot_logs, "LOG_LIMIT", limit)
    status, body, _ = with_token(web, bot_logs.log_path(game, 0), arena.tokens["alice"])
    first, rest = body.split(b"\n", 1)
    assert status == 200 and rest == big[-limit:] and rest.endswith(b"the crash\n")
    assert re.fullmatch(
        rb"\[arena: this game's log has %d bytes; the first %d are left out, the last %d follow\]"
        % (len(big), len(big) - limit, limit),
        first,
    )


def test_a_log_the_operator_cleared_away_is_gone(arena: Arena, web: Served, tmp_path):
    path, (piece,) = log_file(arena.files.root, ALICE_SAID)
    game = stored_game(arena.db, [("alices-bot", arena.author_id("alice"), piece)])

    def listed() -> dict:
        [seat] = json.loads(with_token(web, "/api/me", arena.tokens["alice"])[1])["games"]
        return seat

    assert listed()["log"] == bot_logs.log_path(game, 0) and not listed()["log_removed"]
    path.unlink()
    status, body, _ = with_token(web, bot_logs.log_path(game, 0), arena.tokens["alice"])
    assert status == 410 and b"kept no more" in body
    # the author's page says so instead of a link whose download fails (outside review)
    assert listed()["log"] is None and listed()["log_removed"] is True
    bobs = with_token(web, bot_logs.log_path(game, 0), arena.tokens["bob"])
    assert bobs[0] == 404  # gone or not, never said to another author


def test_an_author_sees_how_much_of_its_log_quota_each_of_their_bots_holds(
    arena: Arena, web: Served
):
    logs = arena.files.logs
    logs.mkdir(parents=True, exist_ok=True)
    (logs / kept_process_log_name("alices-bot", "20261204T101010Z", 0)).write_bytes(b"a" * 3000)
    (logs / next(kept_log_names(7, 1, "alices-bot"))).write_bytes(b"a" * 500)
    (logs / kept_process_log_name("bobs-bot", "20261204T101010Z", 1)).write_bytes(b"b" * 7000)
    stored_game(arena.db, [("alices-bot", arena.author_id("alice"), None)])
    stored_game(arena.db, [("bobs-bot", arena.author_id("bob"), None)])

    alice = signed_in(web, arena, "alice")
    status, text, _ = alice.get("/api/me")
    mine = json.loads(text)

    assert status == 200 and mine["log_quota_bytes"] == QUOTA_MIB << 20
    assert [(b["name"], b["log_bytes"]) for b in mine["bots"]] == [("alices-bot", 3500)]
    status, page, _ = alice.get("/me")
    # a few KiB read as such, not "0.0 MiB" (outside review)
    assert status == 200 and f"3.4 KiB of {QUOTA_MIB} MiB" in page and "bobs-bot" not in page
    # every time as the CLI writes it, its zone said (a version registered, an upload changed)
    shown = re.sub(r"<script.*?</script>", "", page, flags=re.DOTALL)  # its JSON keeps ISO
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", shown)
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d", shown)
