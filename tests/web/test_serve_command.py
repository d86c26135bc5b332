"""``arena serve``: one command, its URL printed, loopback only by default, a one-line error
for a file that is no arena database."""

from __future__ import annotations

import json
import socket
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
        "(run a tournament or `arena authors add` first, or pass --db PATH)"
    )


def test_serve_binds_the_loopback_unless_told():
    done = run_arena("serve", "--help")
    assert "127.0.0.1" in done.stdout and "--host" in done.stdout


def test_a_port_in_use_or_a_host_it_cannot_bind_is_one_line_and_exit_2(arena_db):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_arena("serve", "--db", str(arena_db), "--port", str(port))
    assert done.returncode == 2 and done.stdout == ""  # nothing said to be served
    assert done.stderr == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    done = run_arena("serve", "--db", str(arena_db), "--host", "999.1.1.1")
    assert done.returncode == 2 and done.stderr.startswith("error: --host '999.1.1.1': ")
    assert len(done.stderr.splitlines()) == 1
