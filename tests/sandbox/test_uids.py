"""As root every live sandbox runs as a host uid of its own (``arena.sandbox.uids``): bots of
two games at once, in the same seat, never share the kernel's per-user counts; a dead arena's
uids are free again."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import subprocess
import sys
import textwrap

import pytest
import trio

from arena.sandbox import uids
from arena.sandbox.uids import HOST_UID_BASE, UID_SLOTS, UidLeaseError, lease_host_uid
from tests.sandbox.conftest import needs_bwrap, play

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="host uids are leased only as root")


def _is_free(uid: int) -> bool:
    path = uids._lease_dir() / str(uid - HOST_UID_BASE)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


@as_root
def test_leases_held_at_once_are_different_and_come_back_when_released():
    held = [lease_host_uid() for _ in range(5)]
    try:
        numbers = [lease.uid for lease in held]
        assert len(set(numbers)) == 5
        assert all(HOST_UID_BASE <= uid < HOST_UID_BASE + UID_SLOTS for uid in numbers)
        assert not any(_is_free(uid) for uid in numbers)
    finally:
        for lease in held:
            lease.release()
    assert all(_is_free(uid) for uid in numbers)
    held[0].release()  # a second release does nothing


@as_root
def test_another_arenas_lease_is_not_given_and_is_free_once_it_is_killed():
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                """
                import sys, time
                from arena.sandbox.uids import lease_host_uid
                print(lease_host_uid().uid, flush=True)
                time.sleep(60)
                """
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        theirs = int(holder.stdout.readline())
        mine = [lease_host_uid() for _ in range(3)]
        assert theirs not in {lease.uid for lease in mine}
        for lease in mine:
            lease.release()
        assert not _is_free(theirs)
    finally:
        holder.kill()  # as kill -9 ends an arena: no clean-up of its own
        holder.wait()
    assert _is_free(theirs)


@as_root
def test_a_lease_directory_another_user_could_write_is_refused(tmp_path, monkeypatch):
    planted = tmp_path / "arena-uids"
    planted.mkdir(mode=0o777)
    os.chmod(planted, 0o777)  # as a local user who made it first would leave it
    os.chown(planted, 65534, 65534)
    monkeypatch.setattr(uids, "_RUN_DIR", planted)
    with pytest.raises(UidLeaseError, match="only root may write"):
        lease_host_uid()


@as_root
@needs_bwrap
async def test_the_same_seat_of_two_games_at_once_runs_as_two_host_uids(tmp_path):
    seen: dict[int, str] = {}

    async def game(number: int) -> None:
        directory = tmp_path / f"game{number}"
        directory.mkdir()
        _, log = await play(directory, "inspect")
        seen[number] = log

    async with trio.open_nursery() as nursery:
        for number in range(2):
            nursery.start_soon(game, number)

    found = [re.search(r"\buid (\d+) gid (\d+)", log).groups() for log in seen.values()]
    assert all(uid == gid for uid, gid in found), found
    first, second = (int(uid) for uid, _ in found)
    assert first != second  # both seat 0: the same uid before leases
    assert _is_free(first) and _is_free(second)  # released with their games


_HOG = """
import ctypes, sys, time
libc = ctypes.CDLL(None, use_errno=True)
held = []
while libc.inotify_init1(0) >= 0:
    held.append(1)
print("held", len(held), "then errno", ctypes.get_errno(), flush=True)
time.sleep(60)
"""
_PROBE = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print("probe", libc.inotify_init1(0), ctypes.get_errno(), flush=True)
"""


def _sandboxed(code: str, directory) -> tuple[subprocess.Popen, object]:
    from arena.sandbox import SandboxPolicy, prepare_launch
    from arena.sandbox.limits import BotLimits

    launch = prepare_launch(
        SandboxPolicy(),
        [sys.executable, "-c", code],
        bot_dir=directory,
        seat=0,
        env={},
        inherited_env={},
        limits=BotLimits(),
        wants_network=False,
    )
    process = subprocess.Popen(
        launch.argv,
        env=launch.env,
        pass_fds=launch.pass_fds,
        cwd=directory,
        stdout=subprocess.PIPE,
        text=True,
    )
    launch.started()
    return process, launch


@as_root
@needs_bwrap
def test_a_bot_that_takes_every_inotify_instance_of_its_uid_leaves_the_next_sandbox_its_own(
    tmp_path,
):
    """The attack the leases answer: the kernel counts inotify instances per user (128 by
    default), so a hog sharing its uid with an opponent, in another game or a build, broke
    every program of that opponent that watches files (Node, the JVM). Where the seccomp filter
    is in force no bot makes an inotify instance at all (a watch on a file every sandbox sees
    tells one seat when another reads it: ``arena.sandbox.seccomp``), so none can be hogged."""
    from arena.sandbox import seccomp

    directory = tmp_path / "bot"
    directory.mkdir()
    os.chmod(tmp_path, 0o755)
    hog, hog_launch = _sandboxed(_HOG, directory)
    try:
        line = hog.stdout.readline()
        assert line.startswith("held"), line
        probe, probe_launch = _sandboxed(_PROBE, directory)
        try:
            output, _ = probe.communicate(timeout=30)
        finally:
            probe_launch.close()
        descriptor, error = output.split()[1:3]
        if seccomp.filter_problem() is None:
            assert line.startswith(f"held 0 then errno {errno.EPERM}"), line
            assert (int(descriptor), int(error)) == (-1, errno.EPERM), output
        else:
            assert int(descriptor) >= 0, f"the probe could not make an inotify instance: {output}"
    finally:
        hog.kill()
        hog.wait()
        hog_launch.close()
