"""What a bot sees inside its sandbox (uid, environment, network, writable places), secrets it
cannot find through the `arena match` command, and nothing left behind by a killed or
interrupted arena."""

from __future__ import annotations

import ast
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from typer.testing import CliRunner

from arena.cli import app
from arena.commands import sandbox_options
from arena.manifest import load_manifest
from arena.records import Outcome
from arena.referee.botprocess import connect, run_bot
from arena.sandbox import SandboxPolicy, cgroups, tempdirs
from arena.tournament.settings import TournamentSettings
from tests.sandbox.conftest import (
    assert_other_seat_unharmed,
    hostile_dir,
    is_uid_inside,
    needs_bwrap,
    play,
)
from tests.support.bots import ROOT, SAMPLE_BOTS
from tests.support.processes import bot_processes

ARENA = Path(sys.executable).parent / "arena"
runner = CliRunner()


@needs_bwrap
async def test_a_bot_sees_its_own_uid_environment_and_private_temp_only(tmp_path):
    with socket.socket() as listener:  # a service on the host's loopback
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        record, log = await play(tmp_path, "inspect", HOSTILE_PORT=str(port))

    bot_dir = tmp_path / "hostile-inspect"
    uid, gid = re.search(r"\buid (\d+) gid (\d+)", log).groups()
    assert uid == gid and is_uid_inside(0, uid), log
    env = ast.literal_eval(re.search(r"^env (\[.*\])$", log, re.MULTILINE).group(1))
    assert set(env) == {
        "ARENA_BOT_ADDRESS",
        "ARENA_BOT_TOKEN",
        "ARENA_BOT_SEED",
        "PYTHONUNBUFFERED",  # so that a Python bot's print() reaches its log
        "PATH",
        "LANG",
        "HOME",
        "TMPDIR",
        "HOSTILE_MODE",
        "HOSTILE_PORT",
        "ARENA_TEST_SESSION",
        "PWD",
    }  # PWD: bwrap's --chdir sets it
    assert f"cannot reach tcp 127.0.0.1:{port}" in log
    for read_only in (bot_dir, Path(sys.prefix), Path("/usr")):
        assert f"cannot write {read_only}: Read-only file system" in log
    assert "WROTE /tmp" in log and "WROTE /home/bot" in log  # its own tmpfs, gone afterwards
    assert not (bot_dir / "hostile-was-here").exists()
    assert not Path("/tmp/hostile-was-here").exists()
    assert_other_seat_unharmed(record)


@needs_bwrap
async def test_network_needs_the_manifest_and_the_operator(tmp_path):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = str(listener.getsockname()[1])
        for asked, allowed in [(True, False), (False, True), (True, True)]:
            where = tmp_path / f"{asked}-{allowed}"
            where.mkdir()
            _, log = await play(
                where,
                "inspect",
                network=asked,
                HOSTILE_PORT=port,
                policy=SandboxPolicy(allow_network=allowed),
            )
            assert ("REACHED tcp" in log) == (asked and allowed), (asked, allowed)


def arena_roots(pid: int) -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob(f"arena-run-{pid}-*"))


def arena_cgroups(pid: int) -> list[Path]:
    found = cgroups.hierarchy()
    if found is None:
        return []
    return [
        entry for parent in found.parents.values() for entry in parent.glob(f"arena-run-{pid}-*")
    ]


def start_match(tmp_path: Path, mode: str, *extra: str) -> tuple[subprocess.Popen, Path]:
    """``arena match`` of the hostile bot in ``mode`` against random-python, sandboxed, with
    the seats' logs kept; the process and the hostile seat's log."""
    bot = hostile_dir(tmp_path, mode)
    logs = tmp_path / "logs"
    command = [
        str(ARENA),
        "match",
        "--game",
        "oregon",
        str(bot),
        str(SAMPLE_BOTS / "random-python"),
        "--bot-logs",
        str(logs),
        "--move-time",
        "600",
        *extra,
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return process, logs


def wait_for_log(logs: Path, text: str, process: subprocess.Popen) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        for log in logs.glob("*-seat0-*.log"):
            if text in (content := log.read_text(errors="replace")):
                return content
        time.sleep(0.1)
    raise AssertionError(
        f"no {text!r} in the hostile seat's log; arena: "
        f"{process.communicate(timeout=10) if process.poll() is not None else ''}"
    )


def wait_until_no_bot_process() -> None:
    deadline = time.monotonic() + 10
    while bot_processes() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert bot_processes() == []


@needs_bwrap
def test_a_killed_arena_leaves_no_process_and_the_next_arena_removes_its_files(tmp_path):
    process, logs = start_match(tmp_path, "many-children")
    wait_for_log(logs, "many-children:", process)
    assert len(bot_processes()) >= 22  # the arena, 20 children, a setsid grandchild, ...

    process.kill()
    process.communicate(timeout=10)

    wait_until_no_bot_process()
    assert arena_roots(process.pid), "a SIGKILLed arena cannot remove its temp root"
    next_arena = subprocess.run(
        [
            str(ARENA),
            "match",
            "--game",
            "oregon",
            str(SAMPLE_BOTS / "random-python"),
            str(SAMPLE_BOTS / "random-python"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert next_arena.returncode == 0, next_arena.stderr
    assert arena_roots(process.pid) == []
    assert arena_cgroups(process.pid) == []


@needs_bwrap
def test_ctrl_c_stops_a_sandboxed_match_and_removes_its_files(tmp_path):
    process, logs = start_match(tmp_path, "many-children")
    wait_for_log(logs, "many-children:", process)

    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)

    assert process.returncode == 130, stderr
    wait_until_no_bot_process()
    assert arena_roots(process.pid) == []
    assert arena_cgroups(process.pid) == []


@needs_bwrap
def test_a_bot_finds_no_seed_in_command_lines_environments_or_files(tmp_path):
    seed = 987654321987654321
    process, logs = start_match(tmp_path, "seek-seed", "--seed", str(seed))
    wait_for_log(logs, "cmdline 1:", process)  # the attack runs, seeing only its sandbox
    time.sleep(3)  # let it look through the files it can see
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=30)

    log = next(logs.glob("*-seat0-*.log")).read_text(errors="replace")
    assert "file " in log  # it found files to read (its own, the arena's code)
    assert str(seed) not in log
    # No command line or environment names a seed (the arena's own source files, which the
    # bot may read, mention the option: only the seed's value is a secret there).
    seen = [line for line in log.splitlines() if line.startswith(("cmdline ", "environ "))]
    assert seen and not [line for line in seen if "--seed" in line]
    wait_until_no_bot_process()


def test_stale_temp_roots_are_removed_only_when_their_arena_is_gone(tmp_path):
    pid = os.getpid()
    live = tmp_path / f"arena-run-{pid}-{tempdirs.process_start_time(pid)}-abc"
    reused_pid = tmp_path / f"arena-run-{pid}-1-abc"  # same pid, another start time
    gone = tmp_path / "arena-run-999999999-5-abc"
    unrelated = tmp_path / "arena-runner-notes"
    for directory in (live, reused_pid, gone, unrelated):
        directory.mkdir()

    removed = tempdirs.remove_stale_roots(tmp_path)

    assert sorted(removed) == sorted([reused_pid, gone])
    assert live.is_dir() and unrelated.is_dir()


def test_without_bwrap_a_match_warns_and_a_tournament_refuses(tmp_path, monkeypatch):
    problem = "bubblewrap (bwrap) is not installed: bots cannot be sandboxed"
    monkeypatch.setattr(sandbox_options, "bwrap_problem", lambda: problem)

    policy = sandbox_options.resolve_policy(None, False, strict=False)
    refused = runner.invoke(app, ["tournament", "--game", "oregon", "--db", str(tmp_path / "t.db")])

    assert policy.tool == "none"
    assert refused.exit_code == 2
    assert f"error: {problem}; give --sandbox none to run bots unsandboxed" in refused.output
    assert not (tmp_path / "t.db").exists()


async def test_an_unsandboxed_policy_still_finishes_a_game(tmp_path):
    record, _ = await play(tmp_path, "hang-end", policy=SandboxPolicy(tool="none"))

    assert record.seats[0].outcome is Outcome.FINISHED
    assert_other_seat_unharmed(record)


def test_a_tournament_stores_its_sandbox_and_resume_keeps_it(tmp_path):
    db = tmp_path / "arena.db"
    bots = f"{SAMPLE_BOTS / 'random-python'},{SAMPLE_BOTS / 'heuristic-python'}"

    result = runner.invoke(
        app,
        [
            "tournament",
            "--game",
            "oregon",
            "--bots",
            bots,
            "--deals",
            "1",
            "--name",
            "t",
            "--sandbox",
            "none",
            "--allow-network",
            "--db",
            str(db),
        ],
    )
    resumed = runner.invoke(
        app, ["tournament", "--resume", "t", "--sandbox", "bwrap", "--db", str(db)]
    )

    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as connection:
        ((settings,),) = connection.execute("SELECT settings FROM tournament").fetchall()
    assert TournamentSettings.from_stored(json.loads(settings)).sandbox == SandboxPolicy(
        tool="none", allow_network=True
    )
    assert resumed.exit_code == 0, resumed.output
    assert "ignored: --sandbox" in resumed.stderr


def test_a_tournament_stored_before_sandboxes_resumes_sandboxed():
    stored = {"players": 2, "deals": 1}
    assert TournamentSettings.from_stored(stored).sandbox == SandboxPolicy()


@needs_bwrap
async def test_a_stopped_sandbox_leaves_no_zombie_for_the_machines_init(tmp_path):
    # bwrap's child is the sandbox's init: bwrap must reap it, or it ends a zombie adopted by
    # PID 1 (which reaps when it gets to it), once bwrap has died.
    spec = load_manifest(SAMPLE_BOTS / "random-python")
    async with run_bot(spec, 0, 1, tmp_path, sandbox=SandboxPolicy()) as bot:
        client, _ = await connect(bot, "oregon", 10.0)
        client.close()
        assert bot.process is not None
        inits = Path(f"/proc/{bot.process.pid}/task/{bot.process.pid}/children").read_text()
    assert inits.split(), "bwrap started no sandbox"
    assert [pid for pid in inits.split() if Path(f"/proc/{pid}").exists()] == []
    assert bot.exit_description() == "killed by SIGKILL"
