"""A hosted arena's old logs removed by ``arena logs prune``, or to make room for a bot's newest
logs within its quota: their owner's download says the log is kept no more (410, not an error),
another author still gets 404, and a newer log is served."""

from __future__ import annotations

import os
import time
from functools import partial

import trio
from typer.testing import CliRunner

import arena.web.bot_logs as bot_logs
from arena.cli import app
from arena.records import LogSlice
from tests.hosting.stored_games import log_file, stored_game
from tests.hosting.test_bot_logs import with_token
from tests.hosting.test_upload_api import Arena, Served
from tests.referee.test_log_quota import flood_once


def test_a_pruned_log_is_kept_no_more_for_its_owner(arena: Arena, web: Served):
    alice = arena.author_id("alice")
    old_path, (old,) = log_file(arena.files.root, b"last month\n")
    _, (new,) = log_file(arena.files.root, b"today\n")
    old_game = stored_game(arena.db, [("alices-bot", alice, old)])
    new_game = stored_game(arena.db, [("alices-bot", alice, new)])
    month_ago = time.time() - 31 * 86400
    os.utime(old_path, (month_ago, month_ago))

    pruned = CliRunner().invoke(
        app, ["logs", "prune", "--older-than", "30d", "--db", str(arena.db)]
    )
    assert pruned.exit_code == 0, pruned.output

    status, body, _ = with_token(web, bot_logs.log_path(old_game, 0), arena.tokens["alice"])
    assert status == 410 and b"is kept no more" in body
    assert with_token(web, bot_logs.log_path(old_game, 0), arena.tokens["bob"])[0] == 404
    status, body, _ = with_token(web, bot_logs.log_path(new_game, 0), arena.tokens["alice"])
    assert (status, body) == (200, b"today\n")


def test_a_log_removed_to_make_room_is_kept_no_more_for_its_owner(
    arena: Arena, web: Served, tmp_path
):
    # A flood of 3 MiB per game against a file cap of 1 MiB and a quota of 2 MiB: each game's
    # log makes room by removing the bot's oldest.
    alice = arena.author_id("alice")
    games = []
    for seed in (1, 2, 3):
        path, data = trio.run(
            partial(
                flood_once,
                tmp_path,
                "alices-bot",
                game_seed=seed,
                said=b"SEED\n",
                logs=arena.files.logs,
            )
        )
        stored = stored_game(arena.db, [("alices-bot", alice, LogSlice(str(path), 0, len(data)))])
        games.append((stored, data))

    (first, _), (newest, data) = games[0], games[-1]
    status, body, _ = with_token(web, bot_logs.log_path(first, 0), arena.tokens["alice"])
    assert status == 410 and b"is kept no more" in body
    assert with_token(web, bot_logs.log_path(first, 0), arena.tokens["bob"])[0] == 404
    status, body, _ = with_token(web, bot_logs.log_path(newest, 0), arena.tokens["alice"])
    assert (status, body) == (200, data) and len(data) > 1 << 20
