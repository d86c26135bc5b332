"""Two ``arena serve`` processes over one database (the case PostgreSQL is offered for, and two
on one SQLite file work the same) share the tokens' rate limits: a token's uploads and sign-in
attempts through both together get the single rate, not twice it. On SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.storage import submissions
from arena.storage.database import open_database
from arena.storage.models import SubmissionState
from arena.storage.target import DatabaseTarget
from arena.uploads.pack import pack
from arena.web.submissions import REQUESTS_PER_MINUTE, UPLOADS_PER_MINUTE
from tests.hosting.test_two_writers import Address, wait_until_serving
from tests.hosting.test_upload_api import Arena, bot_dir, call
from tests.hosting.test_web_sign_in import Browser
from tests.support.ports import free_port
from tests.tournament.helpers import query, start_cli

pytestmark = pytest.mark.slow  # real web processes


@pytest.fixture
def servers(tmp_path: Path, db_target: DatabaseTarget) -> Iterator[list[Address]]:
    """Two ``arena serve`` over ``db_target``, each on its own port."""
    ports = [free_port(), free_port()]
    processes = [
        start_cli(
            "serve",
            "--db",
            str(db_target),
            "--port",
            str(port),
            "--frames-dir",
            str(tmp_path / f"frames-{port}"),
        )
        for port in ports
    ]
    try:
        for port, process in zip(ports, processes, strict=True):
            wait_until_serving(port, process)
        yield [Address(port) for port in ports]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            out, err = process.communicate(timeout=60)
            assert "Traceback" not in out + err, out + err


def handled(db: DatabaseTarget) -> None:
    """What a worker would do to every waiting upload (here: fail it), so that the uploads
    waiting at once (3) are not the limit that refuses the next one."""
    database = open_database(db, create=False)
    try:
        with submissions.ClaimLock(database) as lock, database.write() as session:
            while (submission := submissions.claim(session, 3600, lock)) is not None:
                assert submission.id is not None
                submissions.advance(session, submission.id, SubmissionState.FAILED, "handled")
    finally:
        database.close()


def test_uploads_through_two_processes_get_the_single_rate(
    arena: Arena, servers: list[Address], tmp_path: Path
):
    token = arena.tokens["alice"]
    sent = []
    for number in range(UPLOADS_PER_MINUTE):
        if number == 3:
            handled(arena.db)
        server = servers[number % 2]
        archive = pack(bot_dir(tmp_path, f"bot-{number}"))
        url = f"http://127.0.0.1:{server.port}/api/submissions?bot=bot-{number}"
        sent.append(call(url, token, archive)[0])
    assert sent == [202] * UPLOADS_PER_MINUTE
    handled(arena.db)  # nothing waits: only the rate limit may refuse now
    archive = pack(bot_dir(tmp_path, "one-more"))
    for server in servers:  # the next upload, through either process: refused
        url = f"http://127.0.0.1:{server.port}/api/submissions?bot=one-more"
        status, answer, headers = call(url, token, archive)
        assert status == 429 and "too many uploads" in answer["error"], answer
        assert 0 < int(headers["retry-after"]) <= 60
    alice = Browser(servers[1])  # type: ignore[arg-type]  # has the port
    assert alice.sign_in(token)[0] == 303  # the web form's uploads count with the API's
    fields = {"csrf": alice.form_csrf("/me"), "bot": "one-more"}
    status, html, headers = alice.upload(fields, archive)
    assert status == 429 and "retry-after" in headers, html
    stored = query(arena.db, "SELECT bot_name FROM submission ORDER BY id")
    assert [name for (name,) in stored] == [f"bot-{n}" for n in range(UPLOADS_PER_MINUTE)]
    assert len(list(arena.files.archives.iterdir())) == UPLOADS_PER_MINUTE


def test_sign_ins_through_two_processes_get_the_single_rate(arena: Arena, servers: list[Address]):
    token = arena.tokens["bob"]
    codes = [
        Browser(servers[n % 2]).sign_in(token)[0]  # type: ignore[arg-type]
        for n in range(REQUESTS_PER_MINUTE)
    ]
    assert codes == [303] * REQUESTS_PER_MINUTE
    for server in servers:  # the next sign-in, through either process: refused
        status, html, headers = Browser(server).sign_in(token)  # type: ignore[arg-type]
        assert status == 429 and 0 < int(headers["retry-after"]) <= 60, html
    assert query(arena.db, "SELECT count(*) FROM web_session") == [(REQUESTS_PER_MINUTE,)]
    # bounded: one row per counted sign-in of the one token, none for the refused
    assert query(arena.db, "SELECT count(*) FROM rate_event") == [(REQUESTS_PER_MINUTE,)]
