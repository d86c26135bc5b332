"""An author in a real Chromium (as tests/web/test_browser.py drives it): signs in with the
token, uploads a bot's archive through the form, sees the upload queued on its page and in "my
bots", and signs out; no JavaScript or CSP error on the way. On SQLite and on PostgreSQL: the
browser test that runs on both, as it writes through the web (a session, an upload)."""

from __future__ import annotations

from pathlib import Path

from arena.uploads.pack import pack
from tests.hosting.test_upload_api import Arena, Served, bot_dir
from tests.web.test_browser import CHROMIUM, LAUNCH_ARGS, Problems, sync_api


def test_an_author_signs_in_and_uploads_in_chromium(arena: Arena, web: Served, tmp_path: Path):
    archive = tmp_path / "alices-bot.tar.gz"
    archive.write_bytes(pack(bot_dir(tmp_path, "alices-bot")))
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        try:
            page = browser.new_page()
            problems = Problems(page)
            page.goto(f"{web.url}/me")
            assert page.url == f"{web.url}/signin"  # signed out: sent to sign in
            page.fill("input[name=token]", arena.tokens["alice"])
            page.click("button[type=submit]")
            page.wait_for_url(f"{web.url}/me")
            assert "signed in as alice" in page.inner_text("h1")
            page.fill("input[name=bot]", "alices-bot")
            page.set_input_files("input[name=archive]", str(archive))
            page.click("form[action='/me/upload'] button")
            page.wait_for_url(f"{web.url}/me/submissions/*")
            assert "queued" in page.inner_text("h1")
            page.goto(f"{web.url}/me")
            assert "alices-bot" in page.inner_text("main")  # in the uploads
            page.click("form.signout button")
            page.wait_for_url(f"{web.url}/leaderboard")
            page.goto(f"{web.url}/me")
            assert page.url == f"{web.url}/signin"
            assert problems.seen == [], problems.seen
        finally:
            browser.close()
    assert [v.bot_name for v in arena.queued()] == ["alices-bot"]
