"""The upload queue serves authors in turn: one author's pile of uploads (each of whose
validations may take its whole time budget) does not keep another author's waiting."""

from __future__ import annotations

from contextlib import ExitStack

from arena.storage import authors, submissions
from arena.storage.database import open_database
from arena.storage.models import SubmissionState
from arena.storage.target import DatabaseTarget


def test_authors_take_turns_and_one_being_served_yields_to_the_others(db_target: DatabaseTarget):
    database = open_database(db_target, create=True)
    author_ids = {}
    with database.write() as session:
        for name in ("mallory", "alice", "bob"):
            authors.add(session, name)
            author_ids[name] = authors.named(session, name).id

    def upload(author: str) -> int:
        with database.write() as session:
            return submissions.queue(session, author_ids[author], f"{author}-bot", "0" * 64)

    mallory = [upload("mallory") for _ in range(3)]  # first, all three
    alice, bob = upload("alice"), upload("bob")

    def claim(held: ExitStack) -> int:
        lock = held.enter_context(submissions.ClaimLock(database))
        with database.write() as session:
            claimed = submissions.claim(session, 3600, lock)
            assert claimed is not None and claimed.id is not None
            return claimed.id

    def finish(submission_id: int) -> None:
        with database.write() as session:
            submissions.advance(session, submission_id, SubmissionState.FAILED, "done")

    with ExitStack() as first_worker:
        assert claim(first_worker) == mallory[0]  # nobody served yet: the oldest upload
        with ExitStack() as second_worker:  # mallory's is being handled: the next author's
            assert claim(second_worker) == alice
            finish(alice)
        finish(mallory[0])
    order = []
    for _ in range(3):  # one worker: bob was never served; then mallory, served before alice
        with ExitStack() as worker:
            order.append(claim(worker))
            finish(order[-1])
    assert order == [bob, mallory[1], mallory[2]]
    database.close()


def test_an_upload_whose_worker_stopped_is_taken_again_first(db_target: DatabaseTarget):
    """Its worker killed (its claim lock gone with it), alice's upload is taken again at once,
    before bob's queued one: an upload whose worker stopped is not one being handled."""
    database = open_database(db_target, create=True)
    author_ids = {}
    with database.write() as session:
        for name in ("alice", "bob"):
            authors.add(session, name)
            author_ids[name] = authors.named(session, name).id
    with database.write() as session:
        alice = submissions.queue(session, author_ids["alice"], "a-bot", "0" * 64)
    with submissions.ClaimLock(database) as lock, database.write() as session:
        assert submissions.claim(session, 3600, lock).id == alice  # then its worker dies
    with database.write() as session:
        bob = submissions.queue(session, author_ids["bob"], "b-bot", "0" * 64)
    with submissions.ClaimLock(database) as lock, database.write() as session:
        again = submissions.claim(session, 3600, lock)
        assert (again.id, again.attempts) == (alice, 2), bob
    database.close()
