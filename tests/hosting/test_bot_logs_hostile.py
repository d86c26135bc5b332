"""A bot's log download (``/me/games/ID/seats/N/log``) when its file was tampered with, over
real HTTP: whatever is planted where the log was (a link to a secret or to another author's log,
a FIFO, a hard link), or a stored path outside the arena's logs directory, the owner gets 410 and
never the other file's bytes; bytes that are not UTF-8, or that hold terminal escapes and markup,
reach the owner exactly, as a plain-text attachment that no browser renders."""

from __future__ import annotations

import os

import pytest

import arena.web.bot_logs as bot_logs
from tests.hosting.stored_games import log_file, stored_game
from tests.hosting.test_bot_logs import with_token
from tests.hosting.test_upload_api import Arena, Served

SECRET = b"root:$y$j9T$SECRET-hash:19000:0:99999:7:::\n"
BOBS = b"bob's bot thinks SECRET-b0b\n"


def alices_game(arena: Arena, data: bytes) -> tuple[int, str]:
    path, (piece,) = log_file(arena.files.root, data)
    game = stored_game(arena.db, [("alices-bot", arena.author_id("alice"), piece)])
    return game, str(path)


@pytest.mark.parametrize("planted", ["link to a secret", "link to bob's log", "fifo", "hard link"])
def test_whatever_is_planted_in_place_of_a_log_is_never_served(
    arena: Arena, web: Served, tmp_path, planted
):
    game, path = alices_game(arena, b"alice " * 8)  # as long as what is planted
    secret = tmp_path / "shadow"
    secret.write_bytes(SECRET)
    bobs_path, (bobs_piece,) = log_file(arena.files.root, BOBS)
    stored_game(arena.db, [("bobs-bot", arena.author_id("bob"), bobs_piece)])
    os.unlink(path)
    if planted == "link to a secret":
        os.symlink(secret, path)
    elif planted == "link to bob's log":
        os.symlink(bobs_path, path)
    elif planted == "fifo":
        os.mkfifo(path)
    else:
        os.link(secret, path)

    status, body, _ = with_token(web, bot_logs.log_path(game, 0), arena.tokens["alice"])

    assert status == 410 and b"kept no more" in body and b"SECRET" not in body


def test_a_stored_path_outside_the_logs_directory_is_never_read(
    arena: Arena, web: Served, tmp_path
):
    outside, (piece,) = log_file(tmp_path, SECRET)  # tmp_path/logs: not the arena's
    game = stored_game(arena.db, [("alices-bot", arena.author_id("alice"), piece)])
    assert outside.read_bytes() == SECRET

    status, body, _ = with_token(web, bot_logs.log_path(game, 0), arena.tokens["alice"])

    assert status == 410 and b"SECRET" not in body


def test_bytes_that_are_not_text_reach_the_owner_exactly_as_an_attachment(
    arena: Arena, web: Served
):
    hostile = (
        b"\xff\xfe\x00not utf-8 \xc3\x28 \xed\xa0\x80\n"  # invalid UTF-8, a NUL, a surrogate
        b"\x1b[2J\x1b[31mred\x1b[0m \x1b]8;;https://evil.example/\x07link\x1b]8;;\x07\r\n"
        b"<html><script>alert(1)</script></html>\n"
    )
    game, _ = alices_game(arena, hostile)

    status, body, headers = with_token(web, bot_logs.log_path(game, 0), arena.tokens["alice"])

    assert status == 200 and body == hostile  # neither decoded, escaped nor cleaned: hers
    assert headers["content-type"] == "text/plain; charset=utf-8"
    assert headers["content-disposition"].startswith("attachment;")
    assert headers["x-content-type-options"] == "nosniff"
    assert "script-src" in headers["content-security-policy"]
