"""A real bot that stops reading its socket and floods the referee with HTTP/2 PINGs
(tests/bots/stall-socket) held its Decide call past any deadline: the game, its tournament and
Ctrl-C waited for ever (outside review, December 5). Through the real ``arena match`` command,
which is killed if it outlives a generous bound, so a regression fails here instead of hanging.

Read through the filter of its HTTP/2 (a sandboxed or remote bot: ``arena.sandbox.relay``), the
staller cannot stall the referee at all since the filter rations PINGs (December 7): its flood
ends its connection, and it forfeits at once. Unfiltered (``--sandbox none``) the stall happens,
and the stall guard ends it at the deadline."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.sandbox.relay import FLOODED
from tests.support.bots import ROOT, SAMPLE_BOTS, TEST_BOTS
from tests.support.ports import free_port
from tests.support.signals import popen_with_sigint
from tests.tournament.helpers import query

pytestmark = pytest.mark.slow

ARENA = Path(sys.executable).parent / "arena"
STALLER = TEST_BOTS / "stall-socket"
BOUND_SECONDS = 90  # the hang lasted for ever; a game of these bots takes a few seconds


def match_command(*extra: str) -> list[str]:
    # The staller in seat 1: the outside review saw the hang there in 4 runs of 5.
    return [str(ARENA), "match", "--game", "oregon", str(SAMPLE_BOTS / "random-python"),
            str(STALLER), "--no-store", *extra]  # fmt: skip


def finish(process: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        return process.communicate(timeout=BOUND_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"arena match still ran {BOUND_SECONDS} s on: the stalled call held it")


@contextmanager
def remote_staller() -> Iterator[str]:
    """The staller serving elsewhere (NAME@HOST:PORT): its address, while the block runs."""
    port = free_port()
    bot = subprocess.Popen(
        [sys.executable, "bot.py"],
        cwd=STALLER,
        # over TCP the kernel buffers more of the ACKs: more PINGs to fill them
        env={**os.environ, "ARENA_BOT_ADDRESS": f"127.0.0.1:{port}", "STALL_PINGS": "1000000"},
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield f"127.0.0.1:{port}"
    finally:
        bot.kill()
        bot.communicate()


def stalled(stdout: str, filtered: bool) -> bool:
    """Whether the staller's seat forfeited as it should: unfiltered, stalled until the deadline
    (TIMEOUT); filtered, its PING flood ended at once (CRASH)."""
    if filtered:
        return '"outcome": "CRASH"' in stdout and FLOODED in stdout
    return '"outcome": "TIMEOUT"' in stdout and "no Decide reply within 2 s" in stdout


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
def test_a_bot_that_stops_reading_its_socket_times_out_and_the_game_goes_on(sandbox):
    started = time.monotonic()
    process = subprocess.Popen(
        match_command("--move-time", "2", "--sandbox", sandbox, "--json"),
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    stdout, stderr = finish(process)
    assert process.returncode == 3, stderr  # played, a seat forfeited
    assert stalled(stdout, filtered=sandbox == "bwrap"), stdout
    assert '"outcome": "FINISHED"' in stdout  # the other seat played the game to its end
    assert time.monotonic() - started < BOUND_SECONDS


def test_a_remote_bot_that_stops_reading_its_socket_times_out_and_the_game_goes_on(tmp_path):
    """A bot elsewhere (NAME@HOST:PORT) is no process of the arena's to kill: its stalled call is
    given up past its deadline, and the game goes on (it was held for ever)."""
    with remote_staller() as address:
        process = subprocess.Popen(
            [str(ARENA), "match", "--game", "oregon", str(SAMPLE_BOTS / "random-python"),
             f"stall-socket@{address}", "--no-store", "--move-time", "2", "--json"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        stdout, stderr = finish(process)
    assert process.returncode == 3, stderr
    assert stalled(stdout, filtered=True), stdout
    assert '"outcome": "FINISHED"' in stdout


def test_a_remote_bot_stalled_in_one_game_gets_a_connection_of_its_own_in_the_next(tmp_path):
    """gRPC handed the connection left stalled in a game to the next game's client: every later
    game of that bot ended in CRASH after waiting 10 s for its handshake (outside review E)."""
    with remote_staller() as address:
        process = subprocess.Popen(
            [str(ARENA), "tournament", "--db", str(tmp_path / "arena.db"), "--game", "oregon",
             "--bots", f"stall-socket@{address},{SAMPLE_BOTS / 'random-python'}",
             "--deals", "1", "--move-time", "1", "--concurrency", "1", "--json"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        finish(process)
    reasons = query(
        tmp_path / "arena.db",
        "SELECT s.outcome, s.reason FROM seat s JOIN bot_version v ON v.id = s.bot_version_id "
        "WHERE v.address IS NOT NULL ORDER BY s.game_id",
    )
    # each game's own connection, whose flood the filter ended (a reused one failed the next
    # game's handshake: "never became ready")
    assert [outcome for outcome, _ in reasons] == ["CRASH", "CRASH"], reasons
    assert all(FLOODED in reason for _, reason in reasons), reasons


def test_ctrl_c_during_the_stall_stops_arena_match(tmp_path):
    """With a move time of 10 minutes the guard is far off: Ctrl-C alone must end the call."""
    process = popen_with_sigint(  # unfiltered: through the filter the flood ends the stall
        match_command("--move-time", "600", "--bot-logs", str(tmp_path), "--sandbox", "none"),
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not any("stalling" in log.read_text() for log in tmp_path.glob("*stall-socket*.log")):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"the staller never stalled: {process.communicate()}")
        time.sleep(0.1)
    time.sleep(1)  # the PINGs are sent and the Decide call is under way
    process.send_signal(signal.SIGINT)
    _, stderr = finish(process)
    assert process.returncode == 130, stderr
    assert (
        stderr.splitlines()[-1] == "error: interrupted; the game was abandoned and its bots stopped"
    )
