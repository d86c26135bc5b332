"""A bot's kept logs together stay under its quota (``BotLimits.logs_mib``, ``arena.referee.
log_names``): a bot that floods its log and is started again and again (a crash every other game)
cannot fill the disk, nor can several of its processes started at once (in one arena process or
in several: ``--workers``), and no bot can spend another's quota by a name that looks like its
own. Its newest logs are kept whole: its oldest logs are removed to make room, never one that a
live process is writing, nor another bot's."""

from __future__ import annotations

import multiprocessing
import os
import struct
import time
from functools import partial
from pathlib import Path
from typing import Any

import trio

from arena.log_names import (
    kept_log_bytes,
    kept_log_names,
    kept_process_log_name,
    safe_name,
)
from arena.manifest import BotSpec, load_manifest
from arena.referee.botprocess import bot_seed, connect, run_bot
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


def flood_bot(tmp_path: Path, name: str, said: bytes = b"") -> BotSpec:
    """A bot named ``name`` that writes ``said``, then 3 MiB, to its stdout as it starts, then
    plays."""
    directory = tmp_path / "bots" / (safe_name(name) + ("-said" if said else ""))
    if not directory.exists():
        directory.mkdir(parents=True)
        (directory / "bot.toml").write_text(
            f'name = "{name}"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
        )
        (directory / "bot.py").write_text(
            "import os, sys\nimport arena_sdk as sdk\n"
            f"sys.stdout.buffer.write({said!r}.replace(b'SEED', os.environb[b'ARENA_BOT_SEED']))\n"
            "sys.stdout.buffer.write(b'x' * (3 << 20))\nsys.stdout.flush()\n"
            "sdk.run(lambda request: 0)\n"
        )
    return load_manifest(directory)


async def flood(
    tmp_path: Path,
    name: str,
    limits: BotLimits = LIMITS,
    seat: int = 0,
    *,
    game_seed: int = 1,
    said: bytes = b"",
    logs: Path | None = None,
) -> Path:
    """Start the flood bot as ``name`` with logs kept (in ``logs``, by default tmp_path/logs),
    talk to it, stop it: the path of its log, which another process of the same bot may already
    have removed to make room."""
    work, logs = tmp_path / "work", logs or tmp_path / "logs"
    work.mkdir(exist_ok=True)
    logs.mkdir(parents=True, exist_ok=True)
    spec = flood_bot(tmp_path, name, said)
    async with run_bot(spec, seat, game_seed, work, limits=limits, log_dir=logs) as bot:
        client, _ = await connect(bot, "oregon", timeout=30)  # it plays: the flood is written
        client.close()
    assert bot.log_path is not None
    return bot.log_path


async def flood_once(tmp_path: Path, name: str, *args: Any, **options: Any) -> tuple[Path, bytes]:
    """``flood``, then the log and what it held: for a test where no other process of the bot
    is left to remove it."""
    path = await flood(tmp_path, name, *args, **options)
    return path, path.read_bytes()


async def start_once(tmp_path: Path, name: str, limits: BotLimits = LIMITS, seat: int = 0) -> bytes:
    """Start the flood bot as ``name`` with logs kept, talk to it, stop it: its log."""
    return (await flood_once(tmp_path, name, limits, seat))[1]


def said_first(name: str, game_seed: int) -> bytes:
    """What the flood bot ``name`` says before its flood when started with ``said=SAID``."""
    return b"game %d\n" % bot_seed(game_seed, 0, name)


SAID = b"game SEED\n"


def count_of(logs: Path, name: str) -> int:
    """The bytes the shared count of ``name``'s logs says they hold."""
    used, _ = struct.unpack("<qq", (logs / BUDGETS / budget_name(name)).read_bytes())
    return used


async def test_a_bot_started_again_and_again_keeps_its_newest_logs_within_its_quota(tmp_path):
    logs = tmp_path / "logs"
    games = [await flood_once(tmp_path, "flood", game_seed=seed, said=SAID) for seed in range(1, 5)]

    for seed, (_, log) in enumerate(games, 1):  # each whole, as its game ended
        said = said_first("flood", seed)
        assert log == said + b"x" * (MIB - len(said)) + cap_note(MIB)
    # room was made by removing the oldest: two logs (and their notes) pass the quota of 2 MiB
    assert [path.exists() for path, _ in games] == [False, False, False, True]
    assert kept_log_bytes(logs, "flood") == len(games[-1][1]) == count_of(logs, "flood")

    # A process whose own log alone would pass the quota: the others are removed, and its own,
    # which cannot be, stops at the quota and says so; the bot plays on.
    path, log = await flood_once(
        tmp_path, "flood", BotLimits(file_mib=4, logs_mib=2), game_seed=5, said=SAID
    )
    said = said_first("flood", 5)
    assert log == said + b"x" * (2 * MIB - len(said)) + quota_note(2)
    assert [path.name] == [kept.name for kept in logs.glob("*.log")]
    assert kept_log_bytes(logs, "flood") == len(log) == count_of(logs, "flood")


def _hold_a_log(tmp_path: Path, written: object, stop: object) -> None:
    """Body of another arena process whose bot stays up, its log written: the flood bot's
    (module level: ``spawn`` imports it by name)."""

    async def hold() -> None:
        work = tmp_path / "held"
        work.mkdir()
        (tmp_path / "logs").mkdir()
        spec = flood_bot(tmp_path, "flood")
        async with run_bot(spec, 0, 1, work, limits=LIMITS, log_dir=tmp_path / "logs") as bot:
            client, _ = await connect(bot, "oregon", timeout=30)
            while bot.log is not None and bot.log.size() < MIB + len(cap_note(MIB)):
                await trio.sleep(0.01)
            written.set()  # type: ignore[attr-defined]
            await trio.to_thread.run_sync(stop.wait)  # type: ignore[attr-defined]
            client.close()

    trio.run(hold)


async def test_a_log_that_a_live_process_is_writing_is_never_removed(tmp_path):
    context = multiprocessing.get_context("spawn")
    written, stop = context.Event(), context.Event()
    holder = context.Process(target=_hold_a_log, args=(tmp_path, written, stop))
    holder.start()
    try:

        def wait() -> bool:  # until its log is written, or the process failed
            deadline = time.monotonic() + 60
            while holder.is_alive() and time.monotonic() < deadline:
                if written.wait(0.1):
                    return True
            return False

        assert await trio.to_thread.run_sync(wait)
        (held,) = (tmp_path / "logs").glob("*.log")
        # the oldest log, but in use: kept, and the new one stops at what is left of the quota
        _, log = await flood_once(tmp_path, "flood", game_seed=2, said=SAID)
        assert held.read_bytes() == b"x" * MIB + cap_note(MIB)
        said = said_first("flood", 2)
        left = MIB - len(cap_note(MIB))
        assert log == (said + b"x" * (left - len(said))) + quota_note(2)
    finally:
        stop.set()
        await trio.to_thread.run_sync(holder.join, 60)
    assert holder.exitcode == 0

    # its process gone, it is the first removed to make room
    path, log = await flood_once(tmp_path, "flood", game_seed=3, said=SAID)
    said = said_first("flood", 3)
    assert log == said + b"x" * (MIB - len(said)) + cap_note(MIB)
    assert not held.exists() and path.exists()
    assert kept_log_bytes(tmp_path / "logs", "flood") == count_of(tmp_path / "logs", "flood")


async def test_making_room_never_removes_another_bots_log(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    # Other bots' logs, older than any of the flood's (the first to go if they were its), some
    # with names that begin or end like its logs: kept_log_names and kept_process_log_name
    # would read them as the flood's if they read them loosely.
    others = ("flood-2", f"flood-{TIME}", "flood-seat1-flood", "xflood", "floo", "flood/")
    others += (f"7-seat1-flood-{TIME}", f"flood-{TIME}-slot1", f"flood-{TIME}-process1.log")
    for other in others:
        write(logs / next(kept_log_names(7, 1, other)), 1000)
        write(logs / kept_process_log_name(other, TIME, 1), 1000)
    # Not logs: a link and a directory named like the flood's, and what the link points to
    write(tmp_path / "target", 1000)
    (logs / f"flood-{TIME}-process9.log").symlink_to(tmp_path / "target")
    (logs / f"flood-{TIME}-process8.log").mkdir()
    hour_ago = time.time() - 3600
    planted = sorted(logs.iterdir())
    for path in planted:
        os.utime(path, (hour_ago, hour_ago), follow_symlinks=False)
    # and real bots whose names begin like its own, or it like theirs, their logs closed
    for other in ("flood-2", "floo"):
        await flood_once(tmp_path, other)
    before = {path.name: path.read_bytes() for path in logs.glob("*.log") if path.is_file()}

    games = [await flood_once(tmp_path, "flood", game_seed=seed, said=SAID) for seed in (1, 2, 3)]

    assert [path.exists() for path, _ in games] == [False, False, True]  # room was made
    said = said_first("flood", 3)
    assert games[-1][1] == said + b"x" * (MIB - len(said)) + cap_note(MIB)
    for name, data in before.items():
        assert (logs / name).read_bytes() == data, name
    assert all(path.exists() or path.is_symlink() for path in planted)
    assert (tmp_path / "target").read_bytes() == b"x" * 1000


async def test_processes_of_one_bot_started_at_once_share_what_is_left_of_its_quota(tmp_path):
    # A file may take 2 MiB of the 3: three floods, each given the whole remainder as it starts,
    # would keep 6 MiB.
    limits = BotLimits(file_mib=2, logs_mib=3)
    notes = (cap_note(2 * MIB), quota_note(3))
    logs: list[bytes] = []
    (tmp_path / "work").mkdir()
    (tmp_path / "logs").mkdir()
    all_written = trio.Event()

    async def start(seat: int) -> None:
        spec = flood_bot(tmp_path, "flood")
        work, log_dir = tmp_path / "work", tmp_path / "logs"
        async with run_bot(spec, seat, 1, work, limits=limits, log_dir=log_dir) as bot:
            client, _ = await connect(bot, "oregon", timeout=30)
            assert bot.log_path is not None
            while not _tail(bot.log_path).endswith(notes):
                await trio.sleep(0.01)
            logs.append(bot.log_path.read_bytes())
            if len(logs) == 3:
                all_written.set()
            # up until all have written: a log no longer written may be removed to make room
            await all_written.wait()
            client.close()

    async with trio.open_nursery() as nursery:
        for seat in range(3):
            nursery.start_soon(start, seat)

    assert sum(log.count(b"x") for log in logs) <= 3 * MIB
    assert all(log.endswith(notes) for log in logs), [log[-120:] for log in logs]
    assert quota_note(3) in b"".join(logs)  # the last to write was stopped by the quota
    assert kept_log_bytes(tmp_path / "logs", "flood") <= 3 * MIB + 3 * len(quota_note(3))


def _tail(path: Path) -> bytes:
    with path.open("rb") as file:
        file.seek(max(0, path.stat().st_size - 1000))
        return file.read()


def _flood_in_a_process_of_its_own(tmp_path: Path, seat: int, go: object) -> None:
    """Body of one arena-like process (module level: ``spawn`` imports it by name)."""
    go.wait()  # type: ignore[attr-defined]  # a multiprocessing Barrier: all start together
    # Only run it: once its bot has ended, a log may be removed by another process's bot at once
    trio.run(partial(flood, tmp_path, "flood", BotLimits(file_mib=2, logs_mib=3), seat))


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
        await start_once(tmp_path, "my:bot")

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
