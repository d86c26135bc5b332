"""The queue of uploaded archives: queued by the web (or a test), claimed one at a time by a
worker (``arena submissions work``), moved through building and validating to active or failed.

Each step is its own short transaction: the build and validation, minutes long, run between
them, never inside one. While a worker handles a submission it holds the submission's claim lock
(``ClaimLock``: the operating system's or the server's, ``arena.storage.process_lock``), which
goes with the worker however it ends. A worker killed with kill -9 (or its machine gone) leaves
its submission building or validating with nobody holding its lock: the next claim takes it
again at once, and readers show it queued meanwhile. Where the lock cannot tell (a claim made
before claim locks existed), a claim untouched for ``stale_seconds`` is taken again. Either way
at most ``MAX_ATTEMPTS`` times in all: an archive that kills its worker must not kill every
worker."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlmodel import Session, col, func, select

from arena.look_alikes import could_pass_for, look_alike_of, look_alike_problem
from arena.storage import bots
from arena.storage.database import Database
from arena.storage.models import (
    Author,
    Bot,
    BotVersion,
    Submission,
    SubmissionState,
    as_utc,
    utc_now,
)
from arena.storage.process_lock import Held, Lease, LockKind
from arena.storage.target import DatabaseTarget

MAX_ATTEMPTS = 3
LOG_CHARS = 64_000  # the tail of a long build's output is what says why it failed
_QUEUED = SubmissionState.QUEUED.value
_IN_PROGRESS = (SubmissionState.BUILDING.value, SubmissionState.VALIDATING.value)
_ACTIVE = SubmissionState.ACTIVE.value
# On SQLite DB-claims/ID.lock, on PostgreSQL advisory locks of class "ASUB": apart from the run
# locks of tournaments (DB-runs/, "ARUN"), whose ids are another count.
CLAIM_LOCKS = LockKind("claims", 0x4153_5542)
# The log a reader sees of a claim whose worker was killed (its own log is empty until the end).
WORKER_STOPPED = "its worker stopped while handling it; it waits for the next worker"


@dataclass(frozen=True)
class SubmissionView:
    id: int
    author: str
    bot_name: str
    archive_hash: str
    state: str
    log: str
    bot_version_id: int | None
    created_at: datetime
    updated_at: datetime
    # an active upload's version that a newer version of its bot replaced (in a ladder: retired)
    replaced_by: str | None = None

    @property
    def state_words(self) -> str:
        """The state as a reader should read it: "active, replaced by 0.2.0"."""
        return f"{self.state}, replaced by {self.replaced_by}" if self.replaced_by else self.state

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "author": self.author,
            "bot": self.bot_name,
            "archive_sha256": self.archive_hash,
            "state": self.state,
            "log": self.log,
            "bot_version_id": self.bot_version_id,
            "replaced_by": self.replaced_by,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }


def queue(session: Session, author_id: int, bot_name: str, archive_hash: str) -> int:
    """Queue the archive ``archive_hash`` (stored by the caller) as ``bot_name`` of author
    ``author_id``; its id."""
    submission = Submission(author_id=author_id, bot_name=bot_name, archive_hash=archive_hash)
    session.add(submission)
    session.flush()
    assert submission.id is not None
    return submission.id


class ClaimLock(ExitStack):
    """The lock a worker holds on the submission it claims: taken before the claim commits (no
    other process sees the claim without its lock), held until the ``with`` block that handles
    the submission ends."""

    def __init__(self, database: Database) -> None:
        super().__init__()
        self.database = database
        self._lease: Lease | None = None

    def take(self, submission_id: int) -> bool:
        """Hold the lock of ``submission_id``; False if another worker still holds it."""
        try:
            self._lease = self.enter_context(CLAIM_LOCKS.hold(self.database, submission_id))
        except Held:
            return False
        return True

    def done(self) -> None:
        """The submission's outcome is stored: its lock's file goes with the lock."""
        if self._lease is not None:
            self._lease.done()


def remove_finished_claim_locks(session: Session, database_file: Path) -> int:
    """Remove the claim lock files of uploads whose handling is over that nobody holds (left by
    killed workers, or by workers from before ``ClaimLock.done``); how many went."""
    directory = CLAIM_LOCKS.directory(database_file)
    try:
        names = os.listdir(directory)
    except OSError:
        return 0
    keys = {int(name[:-5]) for name in names if name.endswith(".lock") and name[:-5].isdigit()}
    if not keys:
        return 0
    over = session.exec(
        select(Submission.id).where(
            col(Submission.id).in_(keys),
            col(Submission.state).not_in((_QUEUED, *_IN_PROGRESS)),
        )
    )
    return CLAIM_LOCKS.remove_unheld(database_file, {key for key in over if key is not None})


def claim(session: Session, stale_seconds: float, lock: ClaimLock) -> Submission | None:
    """The next submission waiting for a worker, now building and locked by ``lock`` (or None):
    first one whose worker stopped (nobody holds its claim lock, or, where that cannot be told,
    it has been untouched for ``stale_seconds``), then the queued ones in turn (``_fair_order``).
    One claimed too often fails instead."""
    untouched = col(Submission.updated_at) < utc_now() - timedelta(seconds=stale_seconds)
    waiting = session.exec(
        select(Submission, untouched)
        .where(col(Submission.state).in_((_QUEUED, *_IN_PROGRESS)))
        .order_by(col(Submission.id))
    ).all()
    queued: list[Submission] = []
    abandoned: list[Submission] = []  # by workers that stopped: taken again first
    handled: list[Submission] = []  # by live workers
    for submission, stale in waiting:
        if submission.state == _QUEUED:
            queued.append(submission)
            continue
        held = CLAIM_LOCKS.held(lock.database.target, submission.id or 0, session.connection())
        alive = held or (held is None and not stale)  # its worker is alive, or may be
        (handled if alive else abandoned).append(submission)
    for submission in [*abandoned, *_fair_order(session, queued, handled)]:
        assert submission.id is not None
        if (newer := superseded_by(session, submission)) is not None:
            _set(
                submission,
                SubmissionState.FAILED,
                f"a later upload of {submission.bot_name} (#{newer}) became its version first",
            )
            session.add(submission)
            continue
        if submission.attempts >= MAX_ATTEMPTS:
            _set(
                submission,
                SubmissionState.FAILED,
                f"a worker stopped {submission.attempts} times while handling this upload",
            )
            session.add(submission)
            continue
        if not lock.take(submission.id):
            continue  # a worker stopped with Ctrl-C put it back and has not let go yet
        submission.attempts += 1
        _set(submission, SubmissionState.BUILDING, "")
        session.add(submission)
        session.flush()
        return submission
    return None


def _fair_order(
    session: Session, queued: Sequence[Submission], handled: Sequence[Submission]
) -> list[Submission]:
    """Authors take turns, not uploads: first the authors with fewest uploads ``handled`` now
    (by live workers), then those a worker served longest ago (never first), each author's
    oldest upload first. In order of upload alone, one author's queue of slow uploads (each
    validation may take its whole time budget) would hold every worker while others wait."""
    handling = Counter(submission.author_id for submission in handled)
    served = dict(
        session.exec(
            select(Submission.author_id, func.max(Submission.updated_at))
            .where(Submission.attempts > 0)
            .group_by(col(Submission.author_id))
        ).all()
    )
    never = datetime.min.replace(tzinfo=UTC)

    def turn(submission: Submission) -> tuple[int, datetime, int]:
        last = served.get(submission.author_id) or never
        return handling[submission.author_id], as_utc(last), submission.id or 0

    return sorted(queued, key=turn)


def kept_archives(session: Session) -> set[str]:
    """The archives still needed: those of uploads waiting, being handled or made versions (a
    failed upload's archive is not: ``arena.submissions.worker`` removes it)."""
    return set(
        session.exec(
            select(Submission.archive_hash).where(
                col(Submission.state) != SubmissionState.FAILED.value
            )
        )
    )


def requeue(session: Session, submission_id: int) -> None:
    """Put back in the queue a submission whose worker was stopped (Ctrl-C, SIGTERM) while it
    handled it: the next worker takes it at once, and the stop does not count as an attempt."""
    submission = session.get(Submission, submission_id)
    assert submission is not None, "a claimed submission is never deleted"
    if submission.state in _IN_PROGRESS:
        submission.attempts = max(0, submission.attempts - 1)
        _set(submission, SubmissionState.QUEUED, "")
        session.add(submission)


def superseded_by(session: Session, submission: Submission) -> int | None:
    """A later upload of the same bot by the same author that is a version already (its id), or
    None. An older upload left stale by a stopped worker and handled again would otherwise
    become the bot's newest version and take the later one's place on a ladder."""
    return session.exec(
        select(Submission.id)
        .where(
            Submission.author_id == submission.author_id,
            Submission.bot_name == submission.bot_name,
            col(Submission.id) > (submission.id or 0),
            Submission.state == SubmissionState.ACTIVE.value,
        )
        .order_by(col(Submission.id).desc())
    ).first()


def advance(
    session: Session,
    submission_id: int,
    state: SubmissionState,
    log: str | None = None,
    *,
    bot_version_id: int | None = None,
) -> None:
    """Move submission ``submission_id`` to ``state`` (with ``log``'s tail, if given)."""
    submission = session.get(Submission, submission_id)
    assert submission is not None, "a claimed submission is never deleted"
    _set(submission, state, log)
    if bot_version_id is not None:
        submission.bot_version_id = bot_version_id
    session.add(submission)


def _set(submission: Submission, state: SubmissionState, log: str | None) -> None:
    submission.state = state.value
    submission.updated_at = utc_now()
    if log is not None:
        submission.log = log if len(log) <= LOG_CHARS else "...\n" + log[-LOG_CHARS:]


def views(
    session: Session, target: DatabaseTarget, *, author_id: int | None = None, limit: int = 50
) -> list[SubmissionView]:
    """The newest ``limit`` submissions of the database at ``target``, of author ``author_id``
    only if given, as a reader should see them (``_view``)."""
    query = select(Submission, Author.name).join(
        Author, col(Author.id) == col(Submission.author_id)
    )
    if author_id is not None:
        query = query.where(Submission.author_id == author_id)
    rows = session.exec(query.order_by(col(Submission.id).desc()).limit(limit)).all()
    replaced = _replacements(session, [s.bot_version_id for s, _ in rows if s.bot_version_id])
    return [_view(session, target, s, author, replaced) for s, author in rows]


def view(session: Session, target: DatabaseTarget, submission_id: int) -> SubmissionView | None:
    """Submission ``submission_id`` of the database at ``target`` (whose it is: ``.author``),
    None if there is none."""
    row = session.exec(
        select(Submission, Author.name)
        .join(Author, col(Author.id) == col(Submission.author_id))
        .where(Submission.id == submission_id)
    ).first()
    if row is None:
        return None
    submission, author = row
    ids = [submission.bot_version_id] if submission.bot_version_id else []
    return _view(session, target, submission, author, _replacements(session, ids))


def _view(
    session: Session,
    target: DatabaseTarget,
    s: Submission,
    author: str,
    replaced: Mapping[int, str],
) -> SubmissionView:
    """``s`` as a reader should see it: building or validating with nobody holding its claim
    lock (its worker was killed) is queued again, as the next claim will take it; active, with
    the newer version that replaced its own, if one did (``replaced``: ``_replacements``)."""
    state, log = s.state, s.log
    if state in _IN_PROGRESS and CLAIM_LOCKS.held(target, s.id or 0, session.connection()) is False:
        state, log = _QUEUED, WORKER_STOPPED
    return SubmissionView(
        s.id or 0,
        author,
        s.bot_name,
        s.archive_hash,
        state,
        log,
        s.bot_version_id,
        s.created_at,
        s.updated_at,
        replaced.get(s.bot_version_id or 0) if state == _ACTIVE else None,
    )


def _replacements(session: Session, version_ids: Sequence[int]) -> dict[int, str]:
    """For each of ``version_ids`` that is not its bot's newest version, the newest's label
    (``bots.version_labels``: "0.2.0", or "0.1.0-r2" for changed code under the same number).
    One query for a page of uploads, not one per upload."""
    if not version_ids:
        return {}
    their_bots = select(BotVersion.bot_id).where(col(BotVersion.id).in_(version_ids))
    rows = session.exec(
        select(Bot, BotVersion)
        .join(BotVersion, col(BotVersion.bot_id) == col(Bot.id))
        .where(col(Bot.id).in_(their_bots))
    ).all()
    versions = [bots.RegisteredVersion(bot, version) for bot, version in rows]
    labels = bots.version_labels(versions)
    newest: dict[int, int] = {}  # bot id -> its newest version's id
    bot_of: dict[int, int] = {}  # version id -> its bot's id
    for entry in versions:
        bot_id, version_id = entry.bot.id or 0, entry.version.id or 0
        bot_of[version_id] = bot_id
        newest[bot_id] = max(newest.get(bot_id, 0), version_id)
    return {
        version_id: labels[newest[bot_of[version_id]]]
        for version_id in version_ids
        if version_id in bot_of and newest[bot_of[version_id]] != version_id
    }


def version_of_upload(
    session: Session, author_id: int, bot_name: str, archive_hash: str
) -> int | None:
    """The version an earlier submission of these very bytes became, if one did."""
    return session.exec(
        select(Submission.bot_version_id).where(
            Submission.author_id == author_id,
            Submission.bot_name == bot_name,
            Submission.archive_hash == archive_hash,
            Submission.state == SubmissionState.ACTIVE.value,
        )
    ).first()


def waiting(session: Session, author_id: int) -> int:
    """How many of the author's submissions are not handled yet (queued or in progress)."""
    return len(
        session.exec(
            select(Submission.id).where(
                Submission.author_id == author_id,
                col(Submission.state).in_((SubmissionState.QUEUED.value, *_IN_PROGRESS)),
            )
        ).all()
    )


def look_alike_claimed_by_others(session: Session, bot_name: str, author_id: int) -> str | None:
    """The name of another author's upload not handled yet that ``bot_name`` could pass for
    (``arena.look_alikes.look_alike_of``), or None: as ``claimed_by_others``, for look-alikes."""
    names = session.exec(
        select(Submission.bot_name)
        .where(
            Submission.author_id != author_id,
            col(Submission.state).in_((SubmissionState.QUEUED.value, *_IN_PROGRESS)),
        )
        .distinct()
    )
    return look_alike_of(bot_name, names)


WAITING_UPLOAD = "another author's upload not handled yet"


def name_refused(session: Session, bot_name: str, author_id: int) -> tuple[int, str] | None:
    """Why author ``author_id`` (the operator too: ``arena submit DIR`` on the host) may not
    take the name ``bot_name``, with the HTTP status that says so, or None: another author's
    bot or waiting upload of that name (409); new, a name that could pass for another author's
    bot or waiting upload (409), or that reads as a Latin name it is not (400)."""
    if problem := bots.name_taken_by_others(session, bot_name, author_id):  # registered bots
        return 409, problem
    if bots.owner_of(session, bot_name) is not None:  # the author's own
        return None
    if claimed_by_others(session, bot_name, author_id):
        return 409, f"bot name {bot_name!r} belongs to another author; choose another name"
    if other := look_alike_claimed_by_others(session, bot_name, author_id):
        return 409, could_pass_for(bot_name, other, WAITING_UPLOAD)
    if problem := look_alike_problem(bot_name):
        return 400, problem
    return None


def claimed_by_others(session: Session, bot_name: str, author_id: int) -> bool:
    """Whether another author's upload of a bot called ``bot_name`` is not handled yet: the
    first upload of a name claims it while it waits, so a second author's is refused at once
    (the worker would refuse it anyway, after storing and building it)."""
    return (
        session.exec(
            select(Submission.id).where(
                Submission.bot_name == bot_name,
                Submission.author_id != author_id,
                col(Submission.state).in_((SubmissionState.QUEUED.value, *_IN_PROGRESS)),
            )
        ).first()
        is not None
    )
