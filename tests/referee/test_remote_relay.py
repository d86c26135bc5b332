"""A remote bot (NAME@HOST:PORT) is read through the filter of its HTTP/2 too
(``arena.sandbox.relay``), a process beside the arena: a flood of frames that need no answer is
spent there, not in the referee's interpreter (outside review E), and a call the bot stalls ends
when the arena kills the relay, where grpcio kept the call's thread for ever (grpc/grpc#28434)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import trio

from arena.manifest import remote_bot
from arena.records import Outcome, TimeControl
from arena.referee.match import MatchObserver, play_match
from arena.sandbox import cgroups
from arena.sandbox.tempdirs import arena_tag
from tests.referee.test_stalled_socket import remote_staller
from tests.support.bots import TEST_BOTS, sample_bot
from tests.support.ports import free_port
from tests.support.relays import running_relays


class _RelayUpstreams(MatchObserver):
    """Where each relay this process started relays to, and the cgroup it runs in, looked for
    at every decision."""

    def __init__(self) -> None:
        self.upstreams: set[bytes] = set()
        self.cgroups: set[str] = set()

    def decision_made(self, decision, state) -> None:
        for pid, argv in running_relays().items():
            self.upstreams.add(argv[5])
            try:
                self.cgroups.add(Path(f"/proc/{pid}/cgroup").read_text())
            except OSError:
                continue


def _cgroup_dirs() -> list[Path]:
    """The cgroups in the places where the arena makes its own (``arena.sandbox.cgroups``)."""
    found = cgroups.hierarchy()
    assert found is not None
    return [d for parent in found.parents.values() for d in parent.iterdir() if d.is_dir()]


@pytest.mark.parametrize("per_second", [3_000, None], ids=["under-budget", "unpaced"])
async def test_a_remote_flooding_bot_is_read_through_a_relay(per_second):
    """Under the relay's budget the flood is absorbed there and the game goes on; past it the
    connection ends and the flooder's call fails (its relay took a core of the arena's machine,
    outside review E3)."""
    port = free_port()
    pace = {} if per_second is None else {"FLOOD_PER_SECOND": str(per_second)}
    flood = subprocess.Popen(
        [sys.executable, "bot.py"],
        cwd=TEST_BOTS / "flood",
        env={**os.environ, "ARENA_BOT_ADDRESS": f"127.0.0.1:{port}", **pace},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    relays = _RelayUpstreams()
    try:
        with trio.fail_after(120):  # guard only
            record = await play_match(
                "oregon",
                [remote_bot(f"127.0.0.1:{port}", "flood", games=("oregon",)),
                 sample_bot("random-python")],
                11,
                time_control=TimeControl(move_seconds=2.0, ready_seconds=10.0),
                observer=relays,
            )  # fmt: skip
    finally:
        flood.kill()
        flood.wait()
    assert not record.voided, record.void_reason
    if per_second is None:
        assert record.seats[0].outcome is Outcome.CRASH, record.seats[0]
    else:
        assert record.seats[0].outcome in (Outcome.FINISHED, Outcome.TIMEOUT), record.seats[0]
        assert relays.upstreams == {f"127.0.0.1:{port}".encode()}  # the local bot: direct
        if cgroups.cgroup_kind() is not None:  # its own, with a CPU quota: not the arena's
            assert relays.cgroups and Path("/proc/self/cgroup").read_text() not in relays.cgroups
            assert all("relay0" in text for text in relays.cgroups), relays.cgroups
    if cgroups.cgroup_kind() is not None:  # removed with the relay
        mine = [d for d in _cgroup_dirs() if d.name.startswith(arena_tag())]  # not others'
        assert not [d for d in mine if "relay0" in d.name], mine
    assert record.seats[1].outcome is Outcome.FINISHED


async def test_a_remote_bot_s_stalled_call_ends_and_leaves_no_thread_behind():
    """Its PING flood (what stalled the referee's writes) ends its connection at the filter now,
    before any call stalls; no thread is left behind either way."""
    from arena.sandbox.relay import FLOODED

    with remote_staller() as address:
        with trio.fail_after(120):  # guard only: the stall lasted for ever before the guard
            record = await play_match(
                "oregon",
                [sample_bot("random-python"),
                 remote_bot(address, "stall-socket", games=("oregon",))],
                11,
                time_control=TimeControl(move_seconds=2.0, ready_seconds=10.0),
            )  # fmt: skip
    assert record.seats[1].outcome is Outcome.CRASH, record.seats[1].reason
    assert FLOODED in record.seats[1].reason
    assert record.seats[0].outcome is Outcome.FINISHED
    # before, the call was given up on a thread of its own that grpcio never let go
    leftover = [t.name for t in threading.enumerate() if t.name.startswith("arena-remote-call")]
    assert leftover == []


def test_a_long_temp_directory_leaves_the_filter_on(tmp_path: Path):
    """A match's sockets lie under the temp directory, and a Unix socket's path holds 107 bytes:
    with a TMPDIR of 54 characters a remote bot was read directly, unfiltered and without a
    word, and its flood cost the arena 22 s of CPU and 1.2 GB (outside review). The arena's
    temp root goes to /tmp then."""
    from arena.sandbox.relay import FLOODED

    long_tmp = tmp_path / ("t" * 80)
    long_tmp.mkdir()
    port = free_port()
    flood = subprocess.Popen(
        [sys.executable, "bot.py"],
        cwd=TEST_BOTS / "flood",
        env={**os.environ, "ARENA_BOT_ADDRESS": f"127.0.0.1:{port}"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        played = subprocess.run(
            [sys.executable, "-c", "from arena.cli import main; main()", "match", "--game",
             "oregon", "--no-store",
             "--json", "--seed", "11", f"flood@127.0.0.1:{port}",
             str(Path(__file__).parents[2] / "sample_bots" / "random-python")],
            env={**os.environ, "TMPDIR": str(long_tmp)},
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        flood.kill()
        flood.wait()
    assert played.returncode == 3, played.stdout + played.stderr  # a seat forfeited
    assert FLOODED in played.stdout, played.stdout
