"""Helpers for the sandbox tests: hostile bots made from tests/bots/hostile, and a check that
no bot process, cgroup or temp directory outlives a test.

Sandboxed bots do not inherit the arena's environment, so each test bot carries this session's
marker (tests/support/processes.py) in its bot.toml's [env]: every process it starts inherits it.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import time
from pathlib import Path

import pytest

from arena.manifest import BotSpec, load_manifest
from arena.records import MatchRecord, Outcome, TimeControl
from arena.referee.match import play_match
from arena.sandbox import SandboxPolicy, bwrap, bwrap_problem, cgroups, seccomp
from arena.sandbox.limits import BotLimits
from arena.sandbox.tempdirs import arena_root
from tests.support.bots import ROOT, SAMPLE_BOTS
from tests.support.processes import SESSION_MARKER, bot_processes

HOSTILE_SOURCE = ROOT / "tests" / "bots" / "hostile"
MARKER = SESSION_MARKER.decode().split("=", 1)[1]


def is_uid_inside(seat: int, uid: int | str) -> bool:
    """Whether ``uid`` is one the bot in ``seat`` may see in its sandbox, on this machine, as
    this user (as root: a leased host uid)."""
    kind = bwrap.sandbox_kind(filtered=seccomp.filter_program() is not None)
    return bwrap.is_uid_inside(kind, seat, int(uid))


needs_bwrap = pytest.mark.skipif(
    bwrap_problem() is not None,
    reason=f"no sandbox on this machine: {bwrap_problem()} (scripts/setup installs bubblewrap)",
)


def hostile_dir(
    parent: Path,
    mode: str,
    network: bool = False,
    files: dict[str, bytes] | None = None,
    **env: str,
) -> Path:
    """A bot directory running hostile.py in ``mode``, with ``env`` added to its [env] and
    ``files`` beside it."""
    directory = parent / f"hostile-{mode}"
    directory.mkdir()
    shutil.copy(HOSTILE_SOURCE / "hostile.py", directory)
    for name, content in (files or {}).items():
        (directory / name).write_bytes(content)
    variables = {"HOSTILE_MODE": mode, "ARENA_TEST_SESSION": MARKER, **env}
    lines = [
        f'name = "hostile-{mode}"',
        'version = "1.0.0"',
        'command = ["python", "hostile.py"]',
        'games = ["oregon"]',
        f"network = {'true' if network else 'false'}",
        "",
        "[env]",
        *(f'{key} = "{value}"' for key, value in variables.items()),
    ]
    (directory / "bot.toml").write_text("\n".join(lines) + "\n")
    return directory


def marked(spec: BotSpec) -> BotSpec:
    """``spec`` with this session's marker in its environment."""
    return dataclasses.replace(spec, env={**spec.env, "ARENA_TEST_SESSION": MARKER})


def opponent() -> BotSpec:
    return marked(load_manifest(SAMPLE_BOTS / "random-python"))


SEED = 11
FAST = TimeControl(move_seconds=1.0, ready_seconds=4.0)
# For attacks that take time before they reply (starting processes, touching memory) on a
# loaded machine; their bots cannot use more than one CPU core.
PATIENT = TimeControl(move_seconds=15.0, ready_seconds=4.0)
MEMORY_MIB = 512


async def play(
    tmp_path,
    mode: str,
    *,
    time_control: TimeControl = FAST,
    policy: SandboxPolicy = SandboxPolicy(),
    network: bool = False,
    limits: BotLimits = BotLimits(memory_mib=MEMORY_MIB),
    files: dict[str, bytes] | None = None,
    **env: str,
) -> tuple[MatchRecord, str]:
    """A game of the hostile bot in ``mode`` (seat 0) against random-python; the record and
    the hostile seat's log."""
    hostile = load_manifest(hostile_dir(tmp_path, mode, network=network, files=files, **env))
    logs = tmp_path / "logs"
    logs.mkdir()
    record = await play_match(
        "oregon",
        [hostile, opponent()],
        SEED,
        time_control=time_control,
        limits=limits,
        bot_logs=logs,
        sandbox=policy,
    )
    assert record.seats[0].log is not None
    log = Path(record.seats[0].log.path).read_text(errors="replace")
    return record, log


def assert_other_seat_unharmed(record: MatchRecord) -> None:
    other = record.seats[1]
    assert not record.voided, record.void_reason
    assert (other.outcome, other.reason) == (Outcome.FINISHED, "")
    assert other.decisions > 0


def our_cgroups() -> list[Path]:
    """Cgroups this test session's arena made and has not removed."""
    found = cgroups.hierarchy()
    if found is None:
        return []
    prefix = f"arena-run-{os.getpid()}-"
    return [
        entry
        for parent in found.parents.values()
        for entry in parent.iterdir()
        if entry.name.startswith(prefix)
    ]


def match_dirs() -> list[Path]:
    return list(arena_root().iterdir())


@pytest.fixture(autouse=True)
def nothing_left_behind():
    """After each test: no bot process (grandchildren included), no cgroup, no match directory."""
    assert not bot_processes(), "bot processes were running before the test"
    yield
    deadline = time.monotonic() + 5.0
    while (bot_processes() or our_cgroups()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not bot_processes(), f"bot processes left behind: {bot_processes()}"
    assert not our_cgroups(), f"cgroups left behind: {our_cgroups()}"
    assert not match_dirs(), f"temp directories left behind: {match_dirs()}"
