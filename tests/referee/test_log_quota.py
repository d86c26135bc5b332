"""A bot's kept logs together stay under its quota (``BotLimits.logs_mib``, ``arena.referee.
log_names``): a bot that floods its log and is started again and again (a crash every other game)
cannot fill the disk, nor can several of its processes started at once (in one arena process or
in several: ``--workers``), and no bot can spend another's quota by a name that looks like its
own."""

from __future__ import annotations

import multiprocessing
import os
from functools import partial
from pathlib import Path

import trio

from arena.log_names import (
    kept_log_bytes,
    kept_log_names,
    kept_process_log_name,
    safe_name,
)
from arena.manifest import BotSpec, load_manifest
from arena.referee.botprocess import connect, run_bot
from arena.referee.log_sink import BUDGETS, budget_name, cap_note, quota_note
from arena.sandbox.limits import BotLimits

MIB = 1 << 20
TIME = "20261204T101010Z"
# One file of 1 MiB at most, 2 MiB for all of a bot's files: the flood below fills three.
LIMITS = BotLimits(file_mib=1, logs_mib=2)


def write(path: Path, size: int) -> None:
    path.write_bytes(b"x" * size)


def test_a_bots_kept_logs_are_counted_and_no_one_elses(tmp_path):
    write(tmp_path / next(kept_log_names(7, 1, "bot")), 100)
    write(tmp_path / next(kept_log_names(-3, 0, "bot")), 20)  # a bench's negative seed
    write(tmp_path / kept_process_log_name("bot", TIME, 4), 3)
    write(tmp_path / f"7-seat1-bot-{TIME}-2.log", 1000)  # a clash's next name
    write(tmp_path / f"bot-{TIME}-slot2-process0.log", 10_000)  # a copy from a Ray node
    # Other bots, some with names that begin or end like this one's logs
    for other in ("bot-2", f"bot-{TIME}", "bot-seat1-bot", "abot", "bo", f"7-seat1-bot-{TIME}"):
        write(tmp_path / next(kept_log_names(7, 1, other)), 10_000)
        write(tmp_path / kept_process_log_name(other, TIME, 1), 10_000)
    # Not logs of it: a link and a directory named like one, another kind of file
    (tmp_path / f"bot-{TIME}-process9.log").symlink_to(tmp_path / f"7-seat1-bot-{TIME}-2.log")
    (tmp_path / f"bot-{TIME}-process8.log").mkdir()
    write(tmp_path / "build-bot.log", 10_000)

    assert kept_log_bytes(tmp_path, "bot") == 11_123
    assert kept_log_bytes(tmp_path, "bot-2") == 20_000
    assert kept_log_bytes(tmp_path / "missing", "bot") == 0


def test_names_that_differ_only_in_characters_unsafe_in_a_file_name_do_not_share_logs(tmp_path):
    assert safe_name("my_bot") == "my_bot"
    assert len({safe_name(name) for name in ("my_bot", "my/bot", "my:bot", "my bot")}) == 4
    assert safe_name("../x").startswith(".._x~")  # no path separator either
    write(tmp_path / next(kept_log_names(1, 0, "my/bot")), 5)

    assert kept_log_bytes(tmp_path, "my/bot") == 5
    assert kept_log_bytes(tmp_path, "my_bot") == 0


def flood_bot(tmp_path: Path, name: str) -> BotSpec:
    """A bot named ``name`` that writes 3 MiB to its stdout as it starts, then plays."""
    directory = tmp_path / "bots" / safe_name(name)
    if not directory.exists():
        directory.mkdir(parents=True)
        (directory / "bot.toml").write_text(
            f'name = "{name}"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
        )
        (directory / "bot.py").write_text(
            "import sys\nimport arena_sdk as sdk\n"
            "sys.stdout.buffer.write(b'x' * (3 << 20))\nsys.stdout.flush()\n"
            "sdk.run(lambda request: 0)\n"
        )
    return load_manifest(directory)


async def start_once(tmp_path: Path, name: str, limits: BotLimits = LIMITS, seat: int = 0) -> bytes:
    """Start the flood bot as ``name`` with logs kept, talk to it, stop it: its log."""
    work, logs = tmp_path / "work", tmp_path / "logs"
    work.mkdir(exist_ok=True)
    logs.mkdir(exist_ok=True)
    async with run_bot(
        flood_bot(tmp_path, name), seat, 1, work, limits=limits, log_dir=logs
    ) as bot:
        client, _ = await connect(bot, "oregon", timeout=30)  # it plays: the flood is written
        client.close()
    assert bot.log_path is not None
    return bot.log_path.read_bytes()


async def test_a_bot_started_again_and_again_stops_logging_at_its_quota(tmp_path):
    first = await start_once(tmp_path, "flood")
    second = await start_once(tmp_path, "flood")
    third = await start_once(tmp_path, "flood")

    assert first == b"x" * MIB + cap_note(MIB)
    assert second == b"x" * (MIB - len(cap_note(MIB))) + quota_note(2)  # what was left
    assert third == quota_note(2)  # it still plays; its log says why it is empty
    assert kept_log_bytes(tmp_path / "logs", "flood") <= 2 * MIB + 2 * len(quota_note(2))


async def test_processes_of_one_bot_started_at_once_share_what_is_left_of_its_quota(tmp_path):
    # A file may take 2 MiB of the 3: three floods, each given the whole remainder as it starts,
    # would keep 6 MiB.
    limits = BotLimits(file_mib=2, logs_mib=3)
    notes = (cap_note(2 * MIB), quota_note(3))
    logs: list[bytes] = []

    async def start(seat: int) -> None:
        logs.append(await start_once(tmp_path, "flood", limits, seat))

    async with trio.open_nursery() as nursery:
        for seat in range(3):
            nursery.start_soon(start, seat)

    assert sum(log.count(b"x") for log in logs) <= 3 * MIB
    assert all(log.endswith(notes) for log in logs), [log[-120:] for log in logs]
    assert quota_note(3) in b"".join(logs)  # the last to write was stopped by the quota
    assert kept_log_bytes(tmp_path / "logs", "flood") <= 3 * MIB + 3 * len(quota_note(3))


def _flood_in_a_process_of_its_own(tmp_path: Path, seat: int, go: object) -> None:
    """Body of one arena-like process (module level: ``spawn`` imports it by name)."""
    go.wait()  # type: ignore[attr-defined]  # a multiprocessing Barrier: all start together
    trio.run(partial(start_once, tmp_path, "flood", BotLimits(file_mib=2, logs_mib=3), seat))


def test_processes_of_one_bot_in_several_arena_processes_share_its_quota(tmp_path):
    # As worker processes run them: each process keeps its own sinks, the quota is the bot's.
    flood_bot(tmp_path, "flood")  # written once, before the processes race to
    context = multiprocessing.get_context("spawn")
    go = context.Barrier(3)
    processes = [
        context.Process(target=_flood_in_a_process_of_its_own, args=(tmp_path, seat, go))
        for seat in range(3)
    ]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    assert [process.exitcode for process in processes] == [0, 0, 0]
    logs = tmp_path / "logs"
    assert kept_log_bytes(logs, "flood") <= 3 * MIB + 3 * len(quota_note(3))
    assert (logs / BUDGETS / budget_name("flood")).exists()  # the shared count, beside the logs


async def test_a_bot_cannot_spend_the_quota_of_a_bot_whose_name_looks_like_its_own(tmp_path):
    for _ in range(3):
        await start_once(tmp_path, "my/bot")

    assert await start_once(tmp_path, "my_bot") == b"x" * MIB + cap_note(MIB)


async def test_a_bot_logs_again_once_its_older_logs_are_pruned(tmp_path):
    for _ in range(3):
        await start_once(tmp_path, "flood")
    for log in (tmp_path / "logs").glob("*.log"):
        os.unlink(log)  # as arena logs prune does

    assert await start_once(tmp_path, "flood") == b"x" * MIB + cap_note(MIB)


async def test_a_link_planted_as_a_bots_count_is_never_followed(tmp_path):
    # Only a bot run without the sandbox can reach the logs directory; still, a link planted
    # where its count would be is not opened, written or truncated: the bot's output is dropped.
    victim = tmp_path / "victim"
    victim.write_bytes(b"the operator's file")
    counts = tmp_path / "logs" / BUDGETS
    counts.mkdir(parents=True)
    (counts / budget_name("flood")).symlink_to(victim)

    assert await start_once(tmp_path, "flood") == quota_note(2)
    assert victim.read_bytes() == b"the operator's file"
