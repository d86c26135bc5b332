"""A worker holds its submission's claim lock while it handles it (``arena.storage.submissions``):
a real ``arena submissions work`` killed with kill -9 mid-build leaves an upload that the web and
the CLI show queued and that the next worker takes at once (it waited 40 minutes); a live
worker's claim is never taken. Over HTTP, on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from arena.cli import app
from arena.sandbox import bwrap_problem
from arena.storage import submissions
from arena.storage.database import open_database
from arena.storage.target import DatabaseTarget
from arena.submissions.worker import work_once
from arena.uploads.pack import pack
from tests.hosting.test_upload_api import Arena, Served, call, runner, upload_url
from tests.hosting.test_worker import SETTINGS, bot_dir
from tests.tournament.helpers import ROOT, query

pytestmark = [
    pytest.mark.slow,  # real worker processes, builds and validations in the sandbox
    pytest.mark.skipif(bwrap_problem() is not None, reason=f"no sandbox: {bwrap_problem()}"),
]


def uploaded(arena: Arena, web: Served, tmp_path: Path, build_seconds: int) -> int:
    """Alice's upload of a bot whose build takes ``build_seconds``; its id."""
    archive = pack(bot_dir(tmp_path, "slow-bot", **{"build.sh": f"sleep {build_seconds}\n"}))
    status, answer, _ = call(upload_url(web, "slow-bot"), arena.tokens["alice"], archive)
    assert status == 202, answer
    return int(answer["id"])


def start_worker(db: DatabaseTarget, tmp: Path | None = None) -> subprocess.Popen[str]:
    """``arena submissions work --once``, its temporary files (the build's) in ``tmp`` if given
    (a short path: a bot's socket is made there in validation)."""
    return subprocess.Popen(
        [sys.executable, "-c", "from arena.cli import main; main()"]
        + ["submissions", "work", "--once", "--move-time", "5", "--db", str(db)],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp)} if tmp else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_the_build(arena: Arena, submission: int, worker: subprocess.Popen[str]) -> None:
    """Until the worker has moved the upload to its version's place: its build starts next."""
    deadline = time.monotonic() + 60
    while not (arena.files.bots / str(submission)).exists():
        assert worker.poll() is None, worker.communicate()
        assert time.monotonic() < deadline, "the worker did not start the build"
        time.sleep(0.05)


@contextmanager
def worker(db: DatabaseTarget) -> Iterator[subprocess.Popen[str]]:
    """A worker that the block may kill with kill -9 (or that a failing test kills): its
    build's tmpfs (mounted as root), which nothing unmounts then, is unmounted after."""
    tmp = Path(tempfile.mkdtemp(prefix="arena-worker-"))
    process = start_worker(db, tmp)
    try:
        yield process
    finally:
        process.kill()
        process.communicate()
        for line in Path("/proc/self/mounts").read_text().splitlines():
            if (mount_point := line.split()[1]).startswith(f"{tmp}/"):
                subprocess.run(["umount", "--lazy", mount_point], check=True)
        shutil.rmtree(tmp)


def cli_row(arena: Arena) -> dict[str, Any]:
    """The upload as ``arena submissions list`` shows it."""
    listed = runner.invoke(app, ["submissions", "list", "--json", "--db", str(arena.db)])
    [row] = json.loads(listed.stdout)
    return row


def shown(arena: Arena, web: Served) -> dict[str, Any]:
    """The upload as ``arena submissions list`` shows it, and the same state in the author's API
    and /me (its JSON twin /api/me): requests the token's rate limit counts, so polled with
    ``cli_row`` alone."""
    row = cli_row(arena)
    bearer = arena.tokens["alice"]
    for path, key in (("/api/submissions", None), ("/api/me", "submissions")):
        status, answer, _ = call(f"{web.url}{path}", bearer)
        assert status == 200, answer
        [served] = answer[key] if key else answer
        assert served["state"] == row["state"], (path, served)
    return row


def test_a_killed_workers_upload_shows_queued_and_the_next_worker_takes_it_at_once(
    arena: Arena, web: Served, tmp_path: Path
):
    submission = uploaded(arena, web, tmp_path, 5)  # killed in it; the next worker builds it
    with worker(arena.db) as first:
        wait_for_the_build(arena, submission, first)
        assert shown(arena, web)["state"] == "building"
        first.send_signal(signal.SIGKILL)
        first.communicate(timeout=60)
    killed_at = time.monotonic()
    # as stored it stays building; its lock went with the worker (a PostgreSQL server may take
    # a moment to see the connection gone)
    assert query(arena.db, "SELECT state, attempts FROM submission") == [("building", 1)]
    while (row := cli_row(arena))["state"] != "queued":
        assert time.monotonic() < killed_at + 10, row
        time.sleep(0.1)
    assert shown(arena, web)["log"] == submissions.WORKER_STOPPED

    with worker(arena.db) as second:
        out, err = second.communicate(timeout=600)
        assert second.returncode == 0, err
    assert out.startswith(f"#{submission} slow-bot: active: registered as slow-bot@1.0#"), out
    assert time.monotonic() - killed_at < SETTINGS.claim_stale_seconds / 10  # not stale: let go
    assert query(arena.db, "SELECT state, attempts FROM submission") == [("active", 2)]
    assert shown(arena, web)["state"] == "active"


def test_a_live_workers_claim_is_never_taken(arena: Arena, web: Served, tmp_path: Path):
    submission = uploaded(arena, web, tmp_path, 30)  # time for the probes below, under load
    database = open_database(arena.db, create=False)
    try:
        with worker(arena.db) as first:
            wait_for_the_build(arena, submission, first)
            # not even by one that takes any claim as stale: the lock says the worker lives
            eager = replace(SETTINGS, stale_seconds=0.0)
            assert work_once(database, arena.files, eager) is None
            assert shown(arena, web)["state"] == "building"
            second = start_worker(arena.db)
            out, err = second.communicate(timeout=120)
            assert (second.returncode, out) == (0, ""), err  # nothing for it to do
            assert first.poll() is None, "the first worker finished: nothing was probed"
            out, err = first.communicate(timeout=600)
            assert first.returncode == 0, err
            assert out.startswith(f"#{submission} slow-bot: active: registered as slow-bot@1.0#")
    finally:
        database.close()
    assert query(arena.db, "SELECT state, attempts FROM submission") == [("active", 1)]
