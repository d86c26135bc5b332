"""A bot's log under a hostile bot or host (``arena.referee.log_sink``): a link planted where a
log would go is never followed, a bot that writes without end is never stalled and its log stops
at the cap, and a child that escaped with the pipe does not hold the referee up."""

from __future__ import annotations

import os
import subprocess
import threading
import time

from arena.log_names import numbered
from arena.referee.botprocess import connect, run_bot
from arena.referee.log_sink import LogSink, cap_note, create_log
from tests.support.bots import sample_bot

SECRET = b"root:$y$j9T$not-for-bots:19000:0:99999:7:::\n"


def plant_links(tmp_path):
    """``logs/x.log`` links to an existing file, ``logs/x-2.log`` to one that does not exist."""
    logs, secret = tmp_path / "logs", tmp_path / "shadow"
    logs.mkdir()
    secret.write_bytes(SECRET)
    (logs / "x.log").symlink_to(secret)
    (logs / "x-2.log").symlink_to(tmp_path / "made-through-the-link")
    return logs, secret


def test_a_new_log_never_follows_a_planted_link_nor_opens_an_existing_file(tmp_path):
    logs, secret = plant_links(tmp_path)
    (logs / "x-3.log").write_bytes(b"an earlier game's log\n")

    path, fd = create_log(logs, numbered("x"))
    os.write(fd, b"new\n")
    os.close(fd)

    assert path == logs / "x-4.log" and path.read_bytes() == b"new\n"
    assert secret.read_bytes() == SECRET
    assert not (tmp_path / "made-through-the-link").exists()
    assert (logs / "x-3.log").read_bytes() == b"an earlier game's log\n"


async def test_a_bot_logs_into_a_file_of_its_own_past_links_planted_in_its_way(tmp_path):
    logs, secret = plant_links(tmp_path)
    work = tmp_path / "work"
    work.mkdir()

    async with run_bot(
        sample_bot("random-python"), 0, 1, work, log_dir=logs, log_names=numbered("x")
    ) as bot:
        client, _ = await connect(bot, "oregon", timeout=30)
        client.close()

    assert bot.log_path == logs / "x-3.log" and bot.log_path.is_file()
    assert not bot.log_path.is_symlink()
    assert secret.read_bytes() == SECRET
    assert not (tmp_path / "made-through-the-link").exists()


def test_a_writer_without_end_is_never_stalled_and_the_log_stops_at_the_cap(tmp_path):
    sink = LogSink(*create_log(tmp_path, numbered("flood")), cap=1 << 20)
    chunk = b"y" * 65536 + b"\n"
    writes = 0

    def flood() -> None:  # as a bot would: blocking writes, four times the cap
        nonlocal writes
        while writes * len(chunk) < 4 << 20:
            os.write(sink.write_fd, chunk)
            writes += 1

    writer = threading.Thread(target=flood)
    writer.start()
    writer.join(timeout=30)
    assert not writer.is_alive(), "the writer stalled on a full pipe"
    sink.close()

    log = sink.path.read_bytes()
    assert log == (chunk * 20)[: 1 << 20] + cap_note(1 << 20)
    assert sink.size() == len(log)


def test_a_child_that_keeps_the_pipe_does_not_hold_the_close_up(tmp_path):
    sink = LogSink(*create_log(tmp_path, numbered("escaped")), cap=1 << 20)
    # a grandchild that left the bot's process group would keep the write end open
    holder = subprocess.Popen(
        ["sh", "-c", "echo still here; exec sleep 30"], stdout=sink.write_fd, pass_fds=()
    )
    sink.started()
    try:
        began = time.monotonic()
        sink.close(seconds=0.5)
        assert time.monotonic() - began < 5
    finally:
        holder.kill()
        holder.wait()
    assert sink.path.read_bytes() == b"still here\n"


async def test_a_log_not_kept_is_removed_when_its_bot_stops(tmp_path):
    # a pool restarts a crashing bot game after game: each process's unkept log must not pile up
    for _ in range(2):
        async with run_bot(sample_bot("random-python"), 0, 1, tmp_path) as bot:
            client, _ = await connect(bot, "oregon", timeout=30)
            client.close()
            assert bot.log_path is not None and bot.log_path.parent == tmp_path
            assert bot.log_path.is_file()
    assert list(tmp_path.glob("*.log")) == []
