"""The ways out of the sandbox that a hostile-bot audit found, each tried for real: code of the
bot's choosing run outside the sandbox through its [env] (LD_PRELOAD, LD_DEBUG_OUTPUT), the
kernel's settings and surface (sysctls, user namespaces, mounts, raw sockets, keyrings, BPF),
a uid that maps to root, and limits outrun faster than any poll (fallocate).

As root (CI) these prove the privilege drop; as an ordinary user the same bots must hold too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import trio

from arena.records import Outcome
from arena.sandbox import bwrap, seccomp
from arena.sandbox.limits import BotLimits
from tests.sandbox.conftest import (
    HOSTILE_SOURCE,
    MEMORY_MIB,
    PATIENT,
    assert_other_seat_unharmed,
    is_uid_inside,
    needs_bwrap,
    play,
)

pytestmark = needs_bwrap


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc) to build preload.so")
async def test_ld_preload_in_env_runs_only_in_the_bots_own_program(tmp_path):
    library = tmp_path / "preload.so"
    source = HOSTILE_SOURCE / "preload" / "preload.c"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", library, source], check=True)
    marker = tmp_path / "escaped"

    record, log = await play(
        tmp_path,
        "inspect",
        files={"preload.so": library.read_bytes()},
        LD_PRELOAD="./preload.so",
        HOSTILE_MARKER=str(marker),
    )

    assert not marker.exists(), marker.read_text()  # nothing ran outside the sandbox
    ran_as = set(re.findall(r"PRELOAD ran as uid (\d+)", log))
    # only in the bot, in its sandbox
    assert len(ran_as) == 1 and is_uid_inside(0, ran_as.pop()), log
    assert_other_seat_unharmed(record)


async def test_ld_debug_output_writes_nothing_outside_the_sandbox(tmp_path):
    host_path = tmp_path / "lddebug"
    _, log = await play(tmp_path, "list-tmp", LD_DEBUG="libs", LD_DEBUG_OUTPUT=str(host_path))
    assert not list(tmp_path.glob("lddebug*")), "the dynamic linker wrote on the host"

    inside = tmp_path / "inside"
    inside.mkdir()
    _, log = await play(inside, "list-tmp", LD_DEBUG="libs", LD_DEBUG_OUTPUT="/tmp/lddebug")
    assert "'lddebug." in log, log  # the variable works, in the bot's own /tmp


async def test_a_bot_maps_to_no_privileged_user_and_cannot_change_the_kernel(tmp_path):
    host_uids: set[tuple[str, str]] = set()

    async def watch_from_the_host() -> None:
        # The bot's processes as the host sees them (real and effective uid and gid).
        while True:
            for pid in _processes_with(b"HOSTILE_MODE=kernel"):
                status = _status(pid)
                if status:
                    host_uids.add((status["Uid"], status["Gid"]))
            await trio.sleep(0.05)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(watch_from_the_host)
        record, log = await play(tmp_path, "kernel", time_control=PATIENT, HOSTILE_DELAY="1")
        nursery.cancel_scope.cancel()

    assert host_uids, "the bot's processes were never seen"
    for uids, gids in host_uids:
        assert "0" not in uids.split() and "0" not in gids.split(), (uids, gids)
        if os.geteuid() == 0:  # a leased host uid (arena.sandbox.uids), as real and effective
            assert len(set(uids.split())) == 1 and is_uid_inside(0, uids.split()[0]), uids
            assert set(gids.split()) == set(uids.split()), (uids, gids)
    for forbidden in ("WROTE", "MADE", "CALLED", "OPENED", "LISTED"):
        assert f"\n{forbidden} " not in f"\n{log}", log
    assert "cannot write /proc/sys/kernel/core_pattern" in log
    assert "cannot make user namespace" in log
    assert "cannot open a vsock socket" in log
    assert "kernel: done" in log
    assert_other_seat_unharmed(record)


def _processes_with(marker: bytes) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if marker in (proc / "environ").read_bytes().split(b"\0"):
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


def _status(pid: int) -> dict[str, str]:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return {}
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


async def test_an_instant_fallocate_cannot_pass_the_disk_budget(tmp_path):
    # 48 MiB (under the 64 MiB file-size limit) at StartGame, in a few milliseconds: no poll
    # is that fast, the file systems themselves refuse it
    limits = BotLimits(memory_mib=MEMORY_MIB, disk_mib=16)
    record, log = await play(tmp_path, "fallocate", limits=limits, HOSTILE_MIB="48")

    assert "FALLOCATED" not in log, log
    for place in ("/run/arena", "/tmp", "/home/bot", "/dev/shm"):
        assert f"fallocate: {place} refused: No space left on device" in log, log
    for read_only in ("/", "/dev"):
        assert f"fallocate: {read_only} refused: Read-only file system" in log, log
    assert record.seats[0].outcome is Outcome.FINISHED  # refused, not killed: it plays on
    assert_other_seat_unharmed(record)


async def test_files_written_one_by_one_stop_at_the_disk_budget(tmp_path):
    limits = BotLimits(memory_mib=MEMORY_MIB, disk_mib=16)
    record, log = await play(tmp_path, "disk-fill", time_control=PATIENT, limits=limits)

    taken = {place: int(mib) for place, mib in re.findall(r"disk-fill: (\S+) took (\d+) MiB", log)}
    assert set(taken) == {"/run/arena", "/tmp", "/home/bot", "/dev/shm", "/", "/dev"}, log
    for place in ("/run/arena", "/tmp", "/home/bot", "/dev/shm"):
        assert 10 <= taken[place] <= 16, (place, log)
    assert taken["/"] == taken["/dev"] == 0
    assert_other_seat_unharmed(record)


async def test_a_bot_that_fills_a_directory_and_crashes_is_told_which(tmp_path):
    limits = BotLimits(memory_mib=MEMORY_MIB, disk_mib=16)
    record, _ = await play(
        tmp_path, "disk-fill", time_control=PATIENT, limits=limits, HOSTILE_THEN_EXIT="1"
    )

    hostile = record.seats[0]
    assert hostile.outcome is Outcome.CRASH
    assert "it filled /run/arena to the 16 MiB disk limit" in hostile.reason
    assert_other_seat_unharmed(record)


def test_without_libseccomp_bwrap_refuses_user_namespaces_and_the_limits_line_says_so(
    tmp_path, monkeypatch
):
    from arena.sandbox import SandboxPolicy, describe_limits, seccomp

    def argv(kind: str, seccomp_fd: int | None) -> list[str]:
        return bwrap.bwrap_argv(
            ["true"],
            kind=kind,
            bot_dir=tmp_path,
            seat=0,
            network=False,
            disk_bytes=1,
            env_fd=3,
            seccomp_fd=seccomp_fd,
            host_uid=None if kind == bwrap.UNPRIVILEGED else bwrap.HOST_UID_BASE,
        )

    for kind in (bwrap.UNPRIVILEGED, bwrap.ROOT_NESTED):  # no filter: bwrap refuses them
        unfiltered = argv(kind, None)
        assert "--disable-userns" in unfiltered and "--seccomp" not in unfiltered
    for kind in (bwrap.UNPRIVILEGED, bwrap.ROOT):
        filtered = argv(kind, 4)
        assert filtered[filtered.index("--seccomp") + 1] == "4"
    assert bwrap.sandbox_kind(filtered=False) != bwrap.ROOT  # root never goes unfiltered alone

    monkeypatch.setattr(seccomp, "filter_problem", lambda: "libseccomp cannot be loaded")
    assert "no seccomp filter" in describe_limits(SandboxPolicy(), BotLimits())


@pytest.mark.skipif(
    seccomp.filter_problem() is not None, reason=f"no seccomp: {seccomp.filter_problem()}"
)
async def test_no_lock_or_watch_on_a_shared_file_can_signal_another_seat(tmp_path):
    """Two seats' bots passed a hand from one to the other by locking files that every sandbox
    sees (/usr/bin) and testing for the other's lock (outside review): locks now succeed and
    hold nothing, watches are refused."""
    record, log = await play(tmp_path, "locks")
    assert "locks: done" in log, log
    assert "flock: no lock held" in log and "fcntl: no lock held" in log, log
    assert "cannot watch: Operation not permitted" in log, log
    assert "cannot dnotify: Operation not permitted" in log, log
    assert "LOCKED" not in log and "WATCHING" not in log, log
    assert_other_seat_unharmed(record)


def test_the_filter_refuses_what_the_docs_list():
    from arena.sandbox import seccomp

    assert seccomp.filter_program()  # libseccomp is there (Debian's libseccomp2)
    for name in ("mount", "ptrace", "keyctl", "bpf", "perf_event_open", "setns", "kexec_load"):
        assert name in seccomp.REFUSED


UNPRIVILEGED = "65534"  # nobody
AS_NOBODY = ["setpriv", "--reuid", UNPRIVILEGED, "--regid", UNPRIVILEGED, "--clear-groups"]


def _unprivileged_run_problem() -> str | None:
    """Why root cannot run this arena as an ordinary user here (or None): no setpriv, or the
    arena's interpreter or this checkout out of that user's reach (a pyenv under /root).
    scripts/test-unprivileged then runs this file as that user, from a venv of its own."""
    if shutil.which("setpriv") is None:
        return "setpriv (util-linux) is not installed"
    for path in (os.path.realpath(sys.executable), str(Path(__file__).resolve().parents[2])):
        if subprocess.run([*AS_NOBODY, "test", "-x", path], capture_output=True).returncode:
            return (
                f"{path} is out of uid {UNPRIVILEGED}'s reach "
                "(scripts/test-unprivileged runs these tests as that user)"
            )
    return None


@pytest.fixture(scope="module")
def run_as_ordinary_user() -> list[str]:
    """The prefix that runs a command as an ordinary user: none for one, setpriv for root."""
    if os.geteuid() != 0:
        return []
    if (problem := _unprivileged_run_problem()) is not None:
        pytest.skip(f"no run as an ordinary user here: {problem}")
    return AS_NOBODY


def _kernel_refused(log: str, _: Path) -> None:
    assert "kernel: done" in log, log
    for forbidden in ("WROTE", "MADE", "CALLED", "OPENED", "LISTED"):
        assert f"\n{forbidden} " not in f"\n{log}", log


def _no_token_found(log: str, _: Path) -> None:
    assert "visible pids:" in log and "FOUND" not in log, log


def _other_seat_not_reached(log: str, _: Path) -> None:
    assert "trying" in log and "REACHED" not in log, log


def _nobody_killed(log: str, _: Path) -> None:
    assert "KILLED" not in log, log


def _database_untouched(log: str, database: Path) -> None:
    assert "OPENED" not in log and f"cannot open {database}" in log, log
    assert database.read_bytes() == b"the arena's own file\n"


@pytest.mark.parametrize(
    ("mode", "check"),
    [
        ("kernel", _kernel_refused),
        ("spy-tokens", _no_token_found),
        ("call-other-seat", _other_seat_not_reached),
        ("signal-others", _nobody_killed),
        ("open-database", _database_untouched),
    ],
)
def test_as_an_ordinary_user_a_bot_is_as_confined_as_under_root(run_as_ordinary_user, mode, check):
    """`arena match`, run as an ordinary user (nobody), against a hostile bot: the bot runs as
    that same user, so only the sandbox stands between it and the kernel, the other seat, its
    token and the arena's files (which that user owns): the same refusals as under root."""
    from tests.sandbox.conftest import hostile_dir
    from tests.support.bots import SAMPLE_BOTS

    with tempfile.TemporaryDirectory(prefix="arena-unprivileged-") as shared:
        tmp_path = Path(shared)
        tmp_path.chmod(0o777)  # pytest's own temp directories are root's alone
        database = tmp_path / "arena.db"  # a file of the arena's user, which the bot runs as
        database.write_bytes(b"the arena's own file\n")
        database.chmod(0o600)
        if os.geteuid() == 0:
            os.chown(database, int(UNPRIVILEGED), int(UNPRIVILEGED))
        bot = hostile_dir(tmp_path, mode, HOSTILE_DB=str(database))
        logs = tmp_path / "logs"
        arena = Path(sys.executable).parent / "arena"
        command = [str(arena), "match", "--game", "oregon", str(bot), "--json"]
        command += [str(SAMPLE_BOTS / "random-python"), "--bot-logs", str(logs), "--no-store"]
        done = subprocess.run(
            run_as_ordinary_user + command,
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env={**os.environ, "TMPDIR": str(tmp_path), "HOME": str(tmp_path)},
        )
        assert done.returncode in (0, 3), done.stderr
        check(next(logs.glob("*-seat0-*.log")).read_text(), database)
        other = json.loads(done.stdout)["seats"][1]
        assert (other["outcome"], other["reason"]) == ("FINISHED", ""), other


@pytest.mark.parametrize("tool", ["bwrap", "none"])
def test_submit_and_a_tournaments_registration_start_the_bot_in_the_sandbox(tmp_path, tool):
    # The handshake that `arena submit` (and a tournament registering a directory) checks runs
    # the author's code: in the sandbox, it cannot write on the host (before: as the arena's
    # user, root in CI). With --sandbox none it can: the test sees the difference.
    from typer.testing import CliRunner

    from arena.cli import app
    from tests.support.bots import SAMPLE_BOTS

    bot = tmp_path / "writer"
    shutil.copytree(SAMPLE_BOTS / "random-python", bot)
    marker = tmp_path / "written-by-the-bot"
    code = (bot / "bot.py").read_text()
    (bot / "bot.py").write_text(
        "import os\ntry:\n    open(os.environ['MARKER'], 'w').write(str(os.getuid()))\n"
        "except OSError:\n    pass\n" + code
    )
    (bot / "bot.toml").write_text(
        (bot / "bot.toml").read_text() + f'\n[env]\nMARKER = "{marker}"\n'
    )
    result = CliRunner().invoke(
        app, ["submit", str(bot), "--db", str(tmp_path / "arena.db"), "--sandbox", tool]
    )
    assert result.exit_code == 0, result.output
    assert marker.exists() is (tool == "none")


async def test_without_the_filter_the_sandbox_still_maps_to_no_root_and_refuses_namespaces(
    tmp_path, monkeypatch
):
    # Where libseccomp is missing: as root, an outer bwrap drops privileges before an inner,
    # unprivileged one; bwrap's --disable-userns refuses user namespaces (keyrings, BPF and
    # perf are then left to the kernel's own rules for an unprivileged uid)
    from arena.sandbox import seccomp

    monkeypatch.setattr(seccomp, "filter_program", lambda: None)
    record, log = await play(tmp_path, "kernel")

    assert "kernel: done" in log, log
    assert "cannot write /proc/sys/kernel/core_pattern" in log
    assert "cannot make user namespace" in log and "cannot make tmpfs mount" in log
    assert "\nWROTE " not in f"\n{log}" and "\nMADE " not in f"\n{log}", log
    assert_other_seat_unharmed(record)


async def test_an_env_value_reaches_the_bot_verbatim_and_runs_nothing(tmp_path):
    # As root the sandbox's shell reads the environment from a file: an author's value full of
    # shell syntax must arrive as written, and run nothing
    marker = tmp_path / "ran"
    value = f"a'b\\\"c $(touch {marker}) `touch {marker}`; touch {marker} $HOME"
    _, log = await play(
        tmp_path, "inspect", HOSTILE_ECHO=value.replace("\\", "\\\\").replace('"', '\\"')
    )
    assert f"echo {value!r}" in log, log
    assert not marker.exists()
