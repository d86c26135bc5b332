"""Hostile bots in the sandbox: each attack gets the right outcome for its seat, the other seat
(random-python, sandboxed too) finishes unharmed, and nothing is left behind (conftest)."""

from __future__ import annotations

import os
import re
import sqlite3

import pytest

from arena.records import Outcome
from arena.referee.log_sink import cap_note
from arena.sandbox import SandboxPolicy, cgroups
from tests.sandbox.conftest import (
    FAST,
    MEMORY_MIB,
    PATIENT,
    assert_other_seat_unharmed,
    needs_bwrap,
    play,
)

pytestmark = needs_bwrap


@pytest.mark.parametrize(
    ("mode", "outcome", "reason"),
    [
        ("hang-handshake", Outcome.CRASH, "never became ready: did not answer the handshake"),
        ("socket-link", Outcome.CRASH, "never became ready: its address"),
        ("hang-start", Outcome.TIMEOUT, "no StartGame reply within 4 s"),
        ("hang-decide", Outcome.TIMEOUT, "no Decide reply within 1 s"),
        ("hang-end", Outcome.FINISHED, ""),
        ("exit-midgame", Outcome.CRASH, "process exited with code 3"),
        ("index-out-of-range", Outcome.ILLEGAL, "out of range"),
        ("index-negative", Outcome.ILLEGAL, "index -1 out of range"),
        ("stale-number", Outcome.ILLEGAL, "replied for decision"),
        ("malformed-reply", Outcome.ILLEGAL, "malformed Decide reply"),
        ("raise-in-decide", Outcome.CRASH, "Decide failed: UNKNOWN"),
        ("ignore-sigterm", Outcome.TIMEOUT, "no Decide reply within 1 s"),
        ("memory-hog", Outcome.CRASH, f"out of memory under the {MEMORY_MIB} MiB"),
    ],
)
async def test_a_misbehaving_bot_forfeits_alone(tmp_path, mode, outcome, reason):
    slow_attack = mode == "memory-hog"
    record, _ = await play(tmp_path, mode, time_control=PATIENT if slow_attack else FAST)

    hostile = record.seats[0]
    assert hostile.outcome is outcome, hostile.reason
    assert reason in hostile.reason
    assert_other_seat_unharmed(record)


async def test_a_stdout_flood_plays_on_and_its_log_stops_at_the_cap(tmp_path):
    record, log = await play(tmp_path, "stdout-flood", time_control=PATIENT)  # 100 MiB

    hostile = record.seats[0]
    assert (hostile.outcome, hostile.reason) == (Outcome.FINISHED, "")
    assert hostile.log is not None and hostile.log.end == (64 << 20) + len(cap_note(64 << 20))
    assert log.endswith(cap_note(64 << 20).decode())
    assert_other_seat_unharmed(record)


async def test_a_slow_start_within_the_limit_plays_and_beyond_it_crashes(tmp_path):
    (tmp_path / "within").mkdir()
    (tmp_path / "beyond").mkdir()
    within, _ = await play(tmp_path / "within", "slow-start", HOSTILE_DELAY="1")
    beyond, _ = await play(tmp_path / "beyond", "slow-start", HOSTILE_DELAY="6")

    assert within.seats[0].outcome is Outcome.FINISHED
    assert beyond.seats[0].outcome is Outcome.CRASH
    assert "never became ready" in beyond.seats[0].reason
    assert_other_seat_unharmed(within)
    assert_other_seat_unharmed(beyond)


needs_cgroups = pytest.mark.skipif(
    cgroups.cgroup_kind() is None, reason="the arena cannot make cgroups on this machine"
)


@needs_cgroups
async def test_memory_split_over_children_stays_under_the_bots_limit(tmp_path):
    record, log = await play(tmp_path, "memory-split", time_control=PATIENT)

    # 4 x 200 MiB do not fit in 512 MiB for all the bot's processes together
    assert "memory-split: 4 of 4" not in log
    # (the bot may finish, or forfeit as its children die; the attack fails either way)
    assert_other_seat_unharmed(record)


@needs_cgroups
async def test_a_fork_bomb_is_stopped_by_the_process_limit(tmp_path):
    record, log = await play(tmp_path, "fork-bomb", time_control=PATIENT)

    # the bot reports every 16 sleepers; it may hang or crash once it cannot make threads
    counts = [int(n) for n in re.findall(r"fork-bomb: (\d+) sleepers", log)]
    assert counts and max(counts) < SandboxPolicy().max_processes, log[-2000:]
    assert_other_seat_unharmed(record)


async def test_a_double_fork_and_setsid_grandchild_dies_with_the_game(tmp_path):
    record, log = await play(tmp_path, "setsid-escape")

    assert "setsid-escape: grandchild started" in log
    assert record.seats[0].outcome is Outcome.FINISHED
    assert_other_seat_unharmed(record)  # and conftest finds no process left


async def test_a_bot_cannot_read_other_seats_tokens_in_proc(tmp_path):
    record, log = await play(tmp_path, "spy-tokens")

    assert "FOUND" not in log
    visible = int(re.search(r"visible pids: (\d+)", log).group(1))
    assert visible <= 3  # bwrap's init, the bot, at most one short-lived helper
    assert_other_seat_unharmed(record)


async def test_a_bot_cannot_reach_another_seats_socket(tmp_path):
    record, log = await play(tmp_path, "call-other-seat")

    assert "trying" in log and "REACHED" not in log
    assert_other_seat_unharmed(record)


async def test_a_bot_cannot_signal_another_seat_or_the_arena(tmp_path):
    record, log = await play(tmp_path, "signal-others")

    assert "KILLED" not in log
    assert record.seats[0].outcome is Outcome.FINISHED
    assert_other_seat_unharmed(record)


async def test_a_bot_cannot_open_the_database(tmp_path):
    database = tmp_path / "arena.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE rating (bot TEXT, elo REAL)")
        connection.execute("INSERT INTO rating VALUES ('hostile-open-database', 1500)")
    before = database.read_bytes()

    record, log = await play(tmp_path, "open-database", HOSTILE_DB=str(database))

    assert "OPENED" not in log and f"cannot open {database}" in log
    assert database.read_bytes() == before
    assert_other_seat_unharmed(record)


async def test_a_huge_reply_is_illegal_and_named_by_its_size(tmp_path):
    record, _ = await play(tmp_path, "huge-reply", time_control=PATIENT)  # 20 MiB to make

    hostile = record.seats[0]
    assert hostile.outcome is Outcome.ILLEGAL
    assert re.fullmatch(r"Decide reply over the 1048576 byte limit", hostile.reason), hostile.reason
    assert_other_seat_unharmed(record)


@pytest.mark.skipif(os.geteuid() != 0, reason="as root only: a sandbox's uid is then its own")
async def test_without_cgroups_a_fork_bomb_is_stopped_by_its_uids_process_limit(
    tmp_path, monkeypatch
):
    """Where no cgroup can be made (a container without delegation), root still bounds a bot's
    processes: RLIMIT_NPROC on the sandbox's own uid (arena.sandbox.uids)."""
    monkeypatch.setattr(cgroups, "create_bot_cgroup", lambda label, limits: None)
    record, log = await play(tmp_path, "fork-bomb", time_control=PATIENT)

    counts = [int(n) for n in re.findall(r"fork-bomb: (\d+) sleepers", log)]
    assert counts and max(counts) < SandboxPolicy().max_processes, log[-2000:]
    assert_other_seat_unharmed(record)
