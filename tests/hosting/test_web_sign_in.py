"""Signing in on the web and the author pages, over real HTTP (uvicorn, as the upload API's
tests): the session cookie's flags, CSRF on every form, the sign-in rate limit, the upload form,
and authorization route by route: every route of the app that is not listed public here must
refuse a signed-out visitor and show another author nothing of alice's, so a new private route
without a check fails this test."""

from __future__ import annotations

import http.client
import json
import re
import secrets
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from starlette.routing import Mount, Route

import arena.web.submissions as upload_api
from arena.cli import app
from arena.manifest import remote_bot
from arena.storage import bots, submissions
from arena.storage.database import open_database
from arena.storage.models import SubmissionState
from arena.storage.target import DatabaseTarget
from arena.uploads.pack import pack
from arena.web.app import create_app
from tests.hosting.stored_games import log_file, stored_game
from tests.hosting.test_unpack import tar_info
from tests.hosting.test_upload_api import Arena, Served, bot_dir, hostile_tar, runner

ALICES_BOT = "alices-bot"
ALICES_LOG = "alice's build said SECRET-7f3a"


class Browser:
    """A visitor over real HTTP that keeps its cookies and follows no redirect."""

    def __init__(self, served: Served, headers: dict[str, str] | None = None) -> None:
        self.port = served.port
        self.cookies: dict[str, str] = {}
        self.headers = headers or {}
        self.set_cookies: list[str] = []  # every Set-Cookie header received, as it came

    def request(
        self, method: str, path: str, body: bytes | None = None, content_type: str | None = None
    ) -> tuple[int, str, dict[str, str]]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = dict(self.headers)
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if content_type:
            headers["Content-Type"] = content_type
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
            for header in response.headers.get_all("set-cookie") or []:
                self.set_cookies.append(header)
                for name, morsel in SimpleCookie(header).items():
                    if morsel["max-age"] == "0" or morsel["expires"].startswith("Thu, 01 Jan 1970"):
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value
            return response.status, text, {k.lower(): v for k, v in response.getheaders()}
        finally:
            connection.close()

    def get(self, path: str) -> tuple[int, str, dict[str, str]]:
        return self.request("GET", path)

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, str, dict[str, str]]:
        body = urlencode(fields).encode()
        return self.request("POST", path, body, "application/x-www-form-urlencoded")

    def upload(
        self, fields: dict[str, str], archive: bytes, path: str = "/me/upload"
    ) -> tuple[int, str, dict[str, str]]:
        boundary = secrets.token_hex(16)
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
            for k, v in fields.items()
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="archive"; '
            f'filename="bot.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n'.encode()
            + archive
            + b"\r\n"
        )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.request("POST", path, body, f"multipart/form-data; boundary={boundary}")

    def form_csrf(self, path: str) -> str:
        status, html, _ = self.get(path)
        assert status == 200, html
        found = re.search(r'name="csrf" value="([^"]+)"', html)
        assert found, f"no CSRF field on {path}"
        return found[1]

    def sign_in(self, token: str) -> tuple[int, str, dict[str, str]]:
        return self.post("/signin", {"csrf": self.form_csrf("/signin"), "token": token})


@pytest.fixture
def arena(tmp_path: Path, db_target: DatabaseTarget) -> Arena:
    arena = Arena(tmp_path, db_target)
    database = open_database(arena.db, create=False)
    with database.write() as session:  # alice's bot, and an upload of hers that failed
        bots.register(
            session, remote_bot("127.0.0.1:1", ALICES_BOT), "h", author_id=arena.author_id("alice")
        )
        failed = submissions.queue(session, arena.author_id("alice"), ALICES_BOT, "0" * 64)
        submissions.advance(session, failed, SubmissionState.FAILED, ALICES_LOG)
    database.close()
    return arena


@pytest.fixture
def web(arena: Arena) -> Iterator[Served]:
    served = Served(create_app(arena.db, warm_up=False))
    yield served
    served.stop()


def signed_in(web: Served, arena: Arena, author: str) -> Browser:
    browser = Browser(web)
    status, _, headers = browser.sign_in(arena.tokens[author])
    assert status == 303 and headers["location"] == "/me"
    return browser


def session_cookie(browser: Browser) -> SimpleCookie:
    header = next(h for h in browser.set_cookies if h.startswith("arena_session="))
    return SimpleCookie(header)


def test_sign_in_sets_a_strict_cookie_and_sign_out_ends_the_session(arena: Arena, web: Served):
    alice = signed_in(web, arena, "alice")
    cookie = session_cookie(alice)["arena_session"]
    assert cookie["httponly"] is True and cookie["samesite"].lower() == "lax"
    assert cookie["path"] == "/" and not cookie["secure"]  # plain HTTP: no Secure
    status, html, headers = alice.get("/me")
    assert status == 200 and "signed in as alice" in html and ALICES_BOT in html
    assert arena.tokens["alice"] not in html  # the token is never shown again
    # never kept by the browser: Back after signing out showed the page again (outside review)
    assert headers["cache-control"] == "private, no-store"
    status, text, headers = alice.get("/api/me")  # the JSON twin
    assert headers["cache-control"] == "private, no-store"
    mine = json.loads(text)
    assert status == 200 and mine["author"] == "alice"
    assert [b["name"] for b in mine["bots"]] == [ALICES_BOT]
    assert [u["state"] for u in mine["submissions"]] == ["failed"]
    upload = mine["submissions"][0]["id"]
    assert alice.get(f"/me/submissions/{upload}")[2]["cache-control"] == "private, no-store"
    listed = Browser(web, {"Authorization": f"Bearer {arena.tokens['alice']}"})
    assert listed.get("/api/submissions")[2]["cache-control"] == "private, no-store"
    stolen = dict(alice.cookies)
    status, _, headers = alice.post("/signout", {"csrf": alice.form_csrf("/me")})
    assert status == 303 and "arena_session" not in alice.cookies
    assert alice.get("/me")[0] == 303
    assert alice.get("/api/me")[0] == 401
    replayed = Browser(web)
    replayed.cookies = stolen  # the session is gone from the server, not just the browser
    status, _, headers = replayed.get("/me")
    assert status == 303 and headers["location"] == "/signin"


def test_a_script_reads_its_authors_json_with_the_token_alone(arena: Arena, web: Served):
    """/api/me with ``Authorization: Bearer TOKEN``, as the upload API takes it: a script lists
    its author's bots, uploads and games without a web session (outside review)."""
    status, text, _ = Browser(web, {"Authorization": f"Bearer {arena.tokens['alice']}"}).get(
        "/api/me"
    )
    mine = json.loads(text)
    assert status == 200 and mine["author"] == "alice" and "games" in mine
    assert [b["name"] for b in mine["bots"]] == [ALICES_BOT]
    wrong = Browser(web, {"Authorization": f"Bearer {arena.tokens['alice'][:-2]}xx"})
    assert wrong.get("/api/me")[0] == 401
    # forms still need the session and its CSRF token
    bearer = Browser(web, {"Authorization": f"Bearer {arena.tokens['alice']}"})
    assert bearer.post("/signout", {"csrf": ""})[0] == 403


def test_the_cookie_is_secure_behind_a_proxy_that_says_https(arena: Arena, web: Served):
    """uvicorn trusts X-Forwarded-Proto from 127.0.0.1 (its forwarded_allow_ips default)."""
    browser = Browser(web, {"X-Forwarded-Proto": "https"})
    status, _, _ = browser.sign_in(arena.tokens["bob"])
    assert status == 303
    assert session_cookie(browser)["arena_session"]["secure"] is True
    assert all("secure" in h.lower() for h in browser.set_cookies)


def test_a_bad_or_revoked_token_opens_no_session(arena: Arena, web: Served):
    browser = Browser(web)
    forged = arena.tokens["alice"][:-2] + "AA"
    for token in (forged, "not-a-token", ""):
        status, html, _ = browser.sign_in(token)
        assert status == 401 and "arena_session" not in browser.cookies, html
    alice = signed_in(web, arena, "alice")
    runner.invoke(app, ["authors", "revoke", "alice", "--db", str(arena.db)])
    assert alice.get("/me")[0] == 303  # revoking the token signs its sessions out


def test_wrong_secrets_lock_nobody_out_and_sign_ins_are_rate_limited_per_token(
    arena: Arena, tmp_path, monkeypatch
):
    monkeypatch.setattr(upload_api, "REQUESTS_PER_MINUTE", 3)
    served = Served(create_app(arena.db, warm_up=False))
    try:
        forged = arena.tokens["bob"][:-2] + "AA"  # bob's token id, a wrong secret
        assert [Browser(served).sign_in(forged)[0] for _ in range(5)] == [401] * 5
        codes = [Browser(served).sign_in(arena.tokens["bob"])[0] for _ in range(4)]
        assert codes == [303] * 3 + [429]  # bob is not locked out; his own sign-ins count
        assert Browser(served).sign_in(arena.tokens["alice"])[0] == 303  # another token's own
    finally:
        served.stop()


def test_every_form_refuses_a_missing_or_forged_csrf_token(arena: Arena, web: Served, tmp_path):
    archive = pack(bot_dir(tmp_path, "new-bot"))
    visitor = Browser(web)
    visitor.form_csrf("/signin")  # has the sign-in cookie, but sends another value
    for fields in ({"token": arena.tokens["alice"]}, {"csrf": "x", "token": arena.tokens["alice"]}):
        status, _, _ = visitor.post("/signin", fields)
        assert status == 403 and "arena_session" not in visitor.cookies
    huge = {"csrf": visitor.form_csrf("/signin"), "token": "x" * 100_000}
    assert visitor.post("/signin", huge)[0] == 413  # a sign-in form is a few fields
    cookieless = Browser(web)  # a page elsewhere posting the form: no sign-in cookie at all
    status, _, _ = cookieless.post("/signin", {"csrf": "x", "token": arena.tokens["alice"]})
    assert status == 403

    alice, bob = signed_in(web, arena, "alice"), signed_in(web, arena, "bob")
    bobs_csrf = bob.form_csrf("/me")  # a real token, but of another session
    for fields in ({}, {"csrf": ""}, {"csrf": bobs_csrf}):
        assert alice.upload({"bot": "new-bot", **fields}, archive)[0] == 403
        assert alice.post("/signout", fields)[0] == 403
    assert alice.get("/me")[0] == 200  # still signed in
    assert [v.bot_name for v in arena.queued()] == [ALICES_BOT]  # nothing queued


def test_an_author_uploads_with_the_form_and_sees_only_their_own(
    arena: Arena, web: Served, tmp_path
):
    bob = signed_in(web, arena, "bob")
    csrf = bob.form_csrf("/me")
    status, _, headers = bob.upload(
        {"csrf": csrf, "bot": "bobs-bot"}, pack(bot_dir(tmp_path, "bobs-bot"))
    )
    assert status == 303 and re.fullmatch(r"/me/submissions/\d+", headers["location"])
    status, html, _ = bob.get(headers["location"])
    assert status == 200 and "bobs-bot" in html and "queued" in html
    status, html, _ = bob.get("/me")
    assert "bobs-bot" in html and ALICES_BOT not in html and ALICES_LOG not in html
    # the API sees the form's upload: the same queue
    assert [v.bot_name for v in arena.queued()] == ["bobs-bot", ALICES_BOT]

    refused = [
        ({"csrf": csrf, "bot": ALICES_BOT}, pack(bot_dir(tmp_path, ALICES_BOT)), 409),
        ({"csrf": csrf, "bot": "x"}, hostile_tar(tar_info("../escape", size=1)), 400),
        ({"csrf": csrf, "bot": "has space"}, pack(bot_dir(tmp_path, "y")), 400),
    ]
    for fields, archive, expected in refused:
        status, html, _ = bob.upload(fields, archive)
        assert status == expected, html
        assert '<a href="/me">Back to your page</a>' in html  # not only to the leaderboard
    # the form's own words: the API's "?bot=NAME" named a field the form does not have
    status, html, _ = bob.upload({"csrf": csrf, "bot": ""}, pack(bot_dir(tmp_path, "z")))
    assert status == 400 and "fill in &#34;Bot name&#34;" in html and "?bot=" not in html, html
    assert len(arena.queued()) == 2


def test_the_form_keeps_the_size_limit(arena: Arena, web: Served):
    bob = signed_in(web, arena, "bob")
    too_big = bytes(upload_api.DEFAULT_LIMITS.archive_bytes + 1)
    status, html, _ = bob.upload({"csrf": bob.form_csrf("/me"), "bot": "big"}, too_big)
    assert status == 413, html
    assert len(arena.queued()) == 1


def test_a_bots_page_shows_its_owner(arena: Arena, web: Served):
    visitor = Browser(web)
    status, html, _ = visitor.get(f"/bots/{ALICES_BOT}")
    assert status == 200 and "by alice" in html
    status, text, _ = visitor.get(f"/api/bots/{ALICES_BOT}")
    assert status == 200 and '"owner":"alice"' in text.replace(" ", "")


# Every route anyone may see, signed in or not. A route that is not here is private: the test
# below requires it to refuse a signed-out visitor and to show another author nothing of alice's.
PUBLIC = {
    ("/", "GET"),
    ("/leaderboard", "GET"),
    ("/bots", "GET"),
    ("/bots/{name:path}", "GET"),
    ("/tournaments", "GET"),
    ("/tournaments/{tournament_id:int}", "GET"),
    ("/games", "GET"),
    ("/games/{game_id:int}", "GET"),
    ("/ladder", "GET"),
    ("/signin", "GET"),
    ("/signin", "POST"),  # its own CSRF and rate limit: tested above
    ("/api/leaderboard", "GET"),
    ("/api/bots", "GET"),
    ("/api/bots/{name:path}", "GET"),
    ("/api/tournaments", "GET"),
    ("/api/tournaments/{tournament_id:int}", "GET"),
    ("/api/games", "GET"),
    ("/api/games/{game_id:int}", "GET"),
    ("/api/games/{game_id:int}/replay", "GET"),
    ("/api/games/{game_id:int}/frames", "GET"),
    ("/api/games/{game_id:int}/record.json", "GET"),
    ("/api/games/{game_id:int}/moves.txt", "GET"),
    ("/api/ladder", "GET"),
    ("/api/ladder/now", "GET"),
    ("/api/games/{game_id:int}/log", "GET"),  # the decision log in words, as the replay shows
    ("/live", "GET"),
    ("/live/{live_id:int}", "GET"),
    ("/api/live", "GET"),
    ("/api/live/{live_id:int}", "GET"),
    ("/api/live/{live_id:int}/frames", "GET"),
}


def filled(template: str, values: dict[str, str]) -> str:
    """A route's path with its parameters given: alice's things."""

    def value(match: re.Match[str]) -> str:
        if match[1] not in values:
            pytest.fail(f"{template}: which of alice's things is {match[1]}?")
        return values[match[1]]

    return re.sub(r"\{(\w+)(:\w+)?\}", value, template)


def test_every_private_route_refuses_strangers_and_other_authors(arena: Arena, web: Served):
    alices_upload = arena.queued()[0].id
    # her bot's log of a game, where a hosted arena keeps its logs
    _, (alices_log,) = log_file(arena.files.root, ALICES_LOG.encode())
    game = stored_game(arena.db, [(ALICES_BOT, arena.author_id("alice"), alices_log)])
    values = {
        "submission_id": str(alices_upload),
        "name": ALICES_BOT,
        "game_id": str(game),
        "seat": "0",
    }
    application = create_app(arena.db, warm_up=False)
    private = []
    for route in application.routes:
        if isinstance(route, Mount):
            assert route.path == "/static"  # files only; another mount must be looked at
            continue
        assert isinstance(route, Route)
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            if (route.path, method) not in PUBLIC:
                private.append((route.path, method))
    assert ("/me", "GET") in private and ("/api/submissions", "POST") in private

    bob = signed_in(web, arena, "bob")
    bobs_csrf = bob.form_csrf("/me")
    for template, method in sorted(private, key=lambda found: found[1] != "GET"):  # /signout last
        path = filled(template, values)
        stranger = Browser(web)
        status, body, headers = (
            stranger.get(path) if method == "GET" else stranger.post(path, {"csrf": "x"})
        )
        # (a 404: a route that answers strangers as it does a missing thing, as a bot's log)
        refused = status in (401, 403, 404) or (status == 303 and headers["location"] == "/signin")
        assert refused, f"{method} {template} served a signed-out visitor ({status})"
        assert ALICES_LOG not in body and ALICES_BOT not in body
        if method == "GET":  # another author: nothing of alice's
            status, body, _ = bob.get(path)
            assert ALICES_LOG not in body and ALICES_BOT not in body, f"{template} leaks"
            if "{" in template:
                assert status == 404, f"{template} serves alice's to bob ({status})"
        else:  # a form of bob's own acts for bob only: it cannot name alice's things
            status, body, _ = bob.post(path, {"csrf": bobs_csrf, "bot": ALICES_BOT})
            assert ALICES_LOG not in body
    assert ALICES_LOG not in bob.get("/api/submissions")[1]  # cookies are not API tokens
    status, body, _ = signed_in(web, arena, "alice").get(f"/me/games/{game}/seats/0/log")
    assert status == 200 and ALICES_LOG in body  # refused to others, not to everyone
