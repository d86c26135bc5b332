"""``arena serve``: one command, its URL printed, loopback only by default, a one-line error
for a file that is no arena database."""

from __future__ import annotations

import json
import time
import urllib.request

from tests.tournament.helpers import start_cli
from tests.web.conftest import free_port, run_arena


def test_serve_prints_its_url_and_serves_on_the_loopback(arena_db):
    port = free_port()
    server = start_cli("serve", "--db", str(arena_db), "--port", str(port))
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.strip() == (
            f"arena: serving {arena_db} at http://127.0.0.1:{port}/ (Ctrl-C stops)"
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/api/bots", timeout=5
                ) as response:
                    assert len(json.load(response)["bots"]) == 2
                break
            except OSError:
                assert time.monotonic() < deadline, "arena serve did not answer"
                time.sleep(0.2)
    finally:
        server.terminate()
        server.communicate(timeout=30)


def test_serve_refuses_a_missing_database_in_one_line(tmp_path):
    done = run_arena("serve", "--db", str(tmp_path / "none.db"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"error: {tmp_path / 'none.db'}: no arena database here "
        "(run a tournament first, or pass --db PATH)"
    )


def test_serve_binds_the_loopback_unless_told():
    done = run_arena("serve", "--help")
    assert "127.0.0.1" in done.stdout and "--host" in done.stdout
