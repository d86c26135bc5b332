"""Links in a bot's directory: into the arena's public code they are followed (the sample bots
do it); a loop, or a link anywhere else outside the directory, is a one-line manifest error from
the version hash, in bounded time; and none of them stops a sandboxed game."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.errors import ManifestError
from arena.manifest import load_manifest
from arena.records import Outcome
from arena.referee.match import play_match
from arena.storage.bots import directory_hash
from tests.sandbox.conftest import FAST, needs_bwrap, opponent
from tests.support.bots import SAMPLE_BOTS

runner = CliRunner()


def bot_with(tmp_path: Path, make_links) -> Path:
    bot = tmp_path / "linked"
    shutil.copytree(SAMPLE_BOTS / "random-python", bot)
    make_links(bot)
    return bot


def loop(bot: Path) -> None:
    (bot / "loop").symlink_to("loop")


def mutual(bot: Path) -> None:
    (bot / "a").mkdir()
    (bot / "b").mkdir()
    (bot / "a" / "to-b").symlink_to("../b")
    (bot / "b" / "to-a").symlink_to("../a")
    (bot / "a" / "up").symlink_to("..")


def system(bot: Path) -> None:
    (bot / "usr").symlink_to("/usr")


@pytest.mark.parametrize(
    ("make_links", "message"),
    [(loop, "loop: a link loop"), (system, "usr: links outside the bot's directory (to /usr)")],
)
def test_a_loop_or_a_link_out_is_a_manifest_error(tmp_path, make_links, message):
    bot = bot_with(tmp_path, make_links)
    started = time.monotonic()
    with pytest.raises(ManifestError, match=message.replace("(", r"\(").replace(")", r"\)")):
        directory_hash(bot)
    assert time.monotonic() - started < 5


def test_links_between_the_bots_own_directories_are_hashed_once_in_bounded_time(tmp_path):
    bot = bot_with(tmp_path, mutual)
    started = time.monotonic()
    first = directory_hash(bot)
    assert time.monotonic() - started < 5
    assert directory_hash(bot) == first


def test_a_link_into_the_sample_bots_is_followed_and_hashed():
    # search-python links to the heuristic bot's strategies: its version covers that code
    assert (SAMPLE_BOTS / "search-python" / "heuristics").is_symlink()
    directory_hash(SAMPLE_BOTS / "search-python")


def test_storing_a_match_of_a_bot_with_a_loop_says_so_in_one_line(tmp_path):
    bot = bot_with(tmp_path, loop)
    result = runner.invoke(
        app,
        [
            "match",
            "--game",
            "oregon",
            str(bot),
            str(SAMPLE_BOTS / "random-python"),
            "--db",
            str(tmp_path / "arena.db"),
            "--sandbox",
            "none",
        ],
    )
    assert result.exit_code == 2, result.output
    assert "a link loop" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("seed", [2**70, 2**63, -7])
def test_a_seed_beyond_what_the_database_stores_is_refused_in_one_line(tmp_path, seed):
    result = runner.invoke(
        app,
        [
            "match",
            "--game",
            "oregon",
            str(SAMPLE_BOTS / "random-python"),
            str(SAMPLE_BOTS / "random-python"),
            "--seed",
            str(seed),
            "--db",
            str(tmp_path / "arena.db"),
        ],
    )
    assert result.exit_code == 2, result.output
    assert "--seed must be between 0 and 9223372036854775807" in result.output


@needs_bwrap
@pytest.mark.parametrize("make_links", [loop, mutual, system])
async def test_links_of_any_kind_do_not_stop_a_sandboxed_game(tmp_path, make_links):
    bot = load_manifest(bot_with(tmp_path, make_links))
    record = await play_match("oregon", [bot, opponent()], 5, time_control=FAST)
    assert not record.voided, record.void_reason
    assert [seat.outcome for seat in record.seats] == [Outcome.FINISHED] * 2
