"""What the upload API's security suite leaves open: a name another author's upload is still
waiting with, two uploads of one bot at the same moment (and two workers handling them at
once), and a flood of different archives. Each is refused with its status and writes nothing,
or ends in one consistent state."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlmodel import select
from starlette.applications import Starlette

from arena.sandbox import bwrap_problem
from arena.storage.database import open_database
from arena.storage.models import Bot, BotVersion, SubmissionState
from arena.submissions.worker import work_once
from arena.uploads.pack import pack
from arena.web.submissions import RateLimit, submission_routes
from tests.hosting.test_upload_api import Arena, Served, bot_dir, call, upload_url
from tests.hosting.test_worker import SETTINGS


def test_a_name_another_authors_upload_waits_with_is_refused(
    arena: Arena, web: Served, tmp_path: Path
):
    status, _, _ = call(
        upload_url(web, "wanted"), arena.tokens["alice"], pack(bot_dir(tmp_path, "wanted"))
    )
    assert status == 202  # alice's, queued: no bot of that name exists yet
    other = tmp_path / "bob"
    other.mkdir()
    archive = pack(bot_dir(other, "wanted"))
    status, answer, _ = call(upload_url(web, "wanted"), arena.tokens["bob"], archive)
    assert status == 409 and "belongs to another author" in answer["error"]
    assert [(v.author, v.bot_name) for v in arena.queued()] == [("alice", "wanted")]
    assert len(list(arena.files.archives.iterdir())) == 1  # bob's archive was not stored
    # alice may send the name again while hers waits
    status, _, _ = call(upload_url(web, "wanted"), arena.tokens["alice"], archive)
    assert status == 202


@pytest.mark.slow
@pytest.mark.skipif(bwrap_problem() is not None, reason=f"no sandbox: {bwrap_problem()}")
def test_two_uploads_of_one_bot_at_once_become_one_version(
    arena: Arena, web: Served, tmp_path: Path
):
    archive = pack(bot_dir(tmp_path, "twice"))
    answers: list[int] = []

    def upload() -> None:
        answers.append(call(upload_url(web, "twice"), arena.tokens["alice"], archive)[0])

    uploads = [threading.Thread(target=upload) for _ in range(2)]
    for thread in uploads:
        thread.start()
    for thread in uploads:
        thread.join()
    assert answers == [202, 202]
    assert [p.name for p in arena.files.archives.iterdir()] == [arena.queued()[0].archive_hash]

    def work() -> None:  # a worker process of its own, with its own connection
        database = open_database(arena.db, create=False)
        try:
            work_once(database, arena.files, SETTINGS)
        finally:
            database.close()

    workers = [threading.Thread(target=work) for _ in range(2)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    handled = arena.queued()
    assert [v.state for v in handled] == [SubmissionState.ACTIVE.value] * 2, [
        v.log for v in handled
    ]
    assert len({v.bot_version_id for v in handled}) == 1  # one version, both point to it
    database = open_database(arena.db, create=False)
    try:
        with database.read() as session:
            assert [b.name for b in session.exec(select(Bot))] == ["twice"]
            assert len(session.exec(select(BotVersion)).all()) == 1
    finally:
        database.close()


def test_a_flood_of_different_archives_stores_none_past_the_limit(arena: Arena, tmp_path: Path):
    served = Served(
        Starlette(routes=submission_routes(arena.db, uploads=RateLimit("upload", 2, 60)))
    )
    try:
        codes = []
        for number in range(6):
            archive = pack(bot_dir(tmp_path, f"flood-{number}"))
            codes.append(
                call(upload_url(served, f"flood-{number}"), arena.tokens["bob"], archive)[0]
            )
        assert codes == [202, 202] + [429] * 4
        assert [v.bot_name for v in arena.queued()] == ["flood-1", "flood-0"]
        assert len(list(arena.files.archives.iterdir())) == 2  # the refused were not stored
    finally:
        served.stop()
