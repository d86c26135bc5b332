"""The worker: turns a queued upload into a registered version of its author's bot, or a
failure with a log that says why. Run by ``arena submissions work``, never in a web request:
a build may take minutes and runs a stranger's code (in the sandbox).

One submission, in order: unpack the archive (``arena.uploads.unpack``: limits, no links), find
its bot.toml, check that the bot's name is the upload's and not another author's, and that
these bytes did not become a version before (the same archive hash: ``arena submit --to``
packs the same files into the same bytes); move the directory to where the version will live
(``HostedFiles.bots``), run bot.toml's build step there in the sandbox (``arena.building``),
run ``arena validate``'s checks in the sandbox (``arena.validation``), and register the
version, hashed as built, for its author. The queue (``arena.storage.submissions``) records
each step.
"""

from __future__ import annotations

import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from arena.bot_tree import REPO, link_node_sdk
from arena.building import BUILD_SECONDS, build_bot
from arena.errors import InputError, StorageError
from arena.manifest import MANIFEST_NAME, BotSpec, load_manifest
from arena.records import TimeControl
from arena.sandbox import SandboxPolicy
from arena.sandbox.tempdirs import remove_tree
from arena.storage import bots, submissions
from arena.storage.database import Database
from arena.storage.models import Submission, SubmissionState
from arena.submissions.files import HostedFiles
from arena.uploads.unpack import unpack
from arena.validation import Report, Status, validate
from arena.validation.process import SANDBOX_TRY_NONE

log = logging.getLogger(__name__)

_LOG_TAIL = 4000  # characters of each bot log a failed validation's log quotes


@dataclass(frozen=True)
class WorkerSettings:
    sandbox: SandboxPolicy
    move_seconds: float = 2.0  # per decision in validation's games, as ``arena validate``
    # A claim whose lock cannot tell whether its worker lives (a claim made before claim
    # locks) untouched this long was left by a worker that died: a build's limit and the
    # validation's games, with room to spare.
    stale_seconds: float = BUILD_SECONDS + 1800.0


@dataclass(frozen=True)
class Handled:
    submission_id: int
    bot_name: str
    state: SubmissionState
    summary: str  # one line


class _Refused(InputError):
    """The upload cannot become a version; the message is the log's last line."""


@dataclass
class _Job:
    submission_id: int
    author_id: int
    bot_name: str
    archive_hash: str
    work: Path
    lines: list[str] = field(default_factory=list)

    def log(self, text: str) -> None:
        self.lines.append(text.rstrip())

    def text(self, *hide: Path) -> str:
        """The log, with the host's own paths left out (the author sees it): the bot's and the
        work directory, and where the arena and its Python are installed (a traceback's
        frames name them)."""
        text = "\n".join(self.lines)
        places = [
            *zip(hide, ("<bot>", "<work>")),
            (Path(sys.prefix), "<python>"),
            (REPO, "<arena>"),
            (Path(sys.base_prefix), "<python>"),
        ]
        for path, shown in places:
            text = text.replace(str(path), shown)
        return text


# A failed upload's archive is removed once it is this old (younger: it may belong to the same
# archive uploaded again, being queued now). Three 30 MiB failed uploads kept 90 MB for ever.
FAILED_ARCHIVE_SECONDS = 600.0


def work_once(database: Database, files: HostedFiles, settings: WorkerSettings) -> Handled | None:
    """Claim the oldest waiting submission and handle it to its end; None if none waits (then
    the archives of failed uploads, and the lock files of finished claims, are removed)."""
    with submissions.ClaimLock(database) as lock:  # held while the submission is handled
        with database.write() as session:
            claimed = submissions.claim(session, settings.stale_seconds, lock)
            if claimed is None:
                kept = submissions.kept_archives(session)
            else:
                assert claimed.id is not None
                job = _Job(
                    claimed.id,
                    claimed.author_id,
                    claimed.bot_name,
                    claimed.archive_hash,
                    files.work / str(claimed.id),
                )
        if claimed is not None:
            handled = _handle(database, files, settings, job)
            lock.done()  # its outcome is stored
            return handled
    files.remove_archives(kept, FAILED_ARCHIVE_SECONDS)
    if isinstance(database.target, Path):
        with database.read() as session:
            submissions.remove_finished_claim_locks(session, database.target)
    return None


def _handle(database: Database, files: HostedFiles, settings: WorkerSettings, job: _Job) -> Handled:
    remove_tree(job.work)  # what a worker that died left
    job.work.mkdir(parents=True)
    directory = job.work  # until the bot has one of its own (the log never shows either)
    keep = False
    try:
        unpacked = unpack(files.archive(job.archive_hash), job.work / "upload")
        job.log(f"unpacked: {unpacked.files} files and directories, {unpacked.bytes} bytes")
        source = _bot_root(job.work / "upload")
        spec = load_manifest(source)
        _check_name(database, spec, job)
        with database.read() as session:
            known = submissions.version_of_upload(
                session, job.author_id, job.bot_name, job.archive_hash
            )
        if known is not None:
            return _finish(
                database,
                job,
                directory,
                SubmissionState.ACTIVE,
                "the same archive as an upload that became a version before",
                version_id=known,
            )
        directory = files.bots / str(job.submission_id)
        remove_tree(directory)  # what a worker that died while handling it left
        files.bots.mkdir(parents=True, exist_ok=True)
        os.rename(source, directory)
        if link_node_sdk(directory):
            job.log("linked node_modules/arena-bot-sdk to the arena's Node SDK")
        spec = load_manifest(directory)
        if spec.build:
            _build(spec, settings, job)
        with database.write() as session:
            submissions.advance(session, job.submission_id, SubmissionState.VALIDATING)
        _validate(directory, settings, job)
        # hashed as built, as `arena submit` hashes a bot: what runs, and what a ladder checks
        content_hash = bots.directory_hash(directory)
        try:
            with database.write() as session:
                registered, created = bots.register(
                    session, spec, content_hash, author_id=job.author_id
                )
                claimed = session.get(Submission, job.submission_id)
                assert claimed is not None  # never deleted
                if created and (newer := submissions.superseded_by(session, claimed)):
                    raise _Superseded(newer)  # rolled back: no version is made of it
        except _Superseded as superseded:  # another worker made the later upload a version
            return _finish(
                database,
                job,
                directory,
                SubmissionState.FAILED,
                f"a later upload of {job.bot_name} (#{superseded.args[0]}) became its version "
                "first",
            )
        # kept as the version's directory, unless the same content is a version already
        # (another archive of the same files, or another worker's at the same time)
        keep = created
        return _finish(
            database,
            job,
            directory,
            SubmissionState.ACTIVE,
            f"registered as {registered.label}",
            version_id=registered.version.id,
        )
    except InputError as exc:  # the upload's fault: refused archive, manifest, build, checks
        return _finish(database, job, directory, SubmissionState.FAILED, str(exc))
    except KeyboardInterrupt:  # the worker is stopped: the upload waits for the next one
        with database.write() as session:
            submissions.requeue(session, job.submission_id)
        raise
    except StorageError:
        raise  # the database: nothing can be marked; the worker stops and says why
    except Exception:  # an arena fault met on this upload: it fails, the worker goes on
        log.exception("submission #%d: the arena failed on it", job.submission_id)
        return _finish(
            database,
            job,
            directory,
            SubmissionState.FAILED,
            "the arena failed on this upload (its operator's log has the details)",
        )
    finally:
        remove_tree(job.work)
        if not keep and directory != job.work:
            remove_tree(directory)


class _Superseded(Exception):
    """A later upload of the bot (its id) became a version while this one was handled."""


def _finish(
    database: Database,
    job: _Job,
    directory: Path,
    state: SubmissionState,
    summary: str,
    *,
    version_id: int | None = None,
) -> Handled:
    job.log(f"{state.value}: {summary}")
    text = job.text(directory, job.work)
    with database.write() as session:
        submissions.advance(session, job.submission_id, state, text, bot_version_id=version_id)
    return Handled(job.submission_id, job.bot_name, state, text.splitlines()[-1])


def _bot_root(upload: Path) -> Path:
    """The directory with bot.toml: the archive's top, or its one directory (an archive made
    of the bot's folder rather than of its contents)."""
    if (upload / MANIFEST_NAME).is_file():
        return upload
    entries = list(upload.iterdir())
    if len(entries) == 1 and (entries[0] / MANIFEST_NAME).is_file():
        return entries[0]
    raise _Refused(f"no {MANIFEST_NAME} at the archive's top (nor in its one directory)")


def _check_name(database: Database, spec: BotSpec, job: _Job) -> None:
    if spec.name != job.bot_name:
        raise _Refused(f"bot.toml names the bot {spec.name!r}, the upload {job.bot_name!r}")
    with database.read() as session:
        owner = bots.owner_of(session, spec.name)
    if owner is not None and owner != job.author_id:
        raise _Refused(f"bot name {spec.name!r} belongs to another author; choose another name")


def _build(spec: BotSpec, settings: WorkerSettings, job: _Job) -> None:
    logs = job.work / "build-logs"
    try:
        built = build_bot(spec, settings.sandbox, log_dir=logs)
    finally:
        for log in sorted(logs.glob("*.log")):
            job.log(f"--- build log ({' '.join(spec.build)})")
            job.log(log.read_text(errors="replace")[-submissions.LOG_CHARS // 2 :])
    assert built is not None
    job.log(f"built in {built.seconds:.1f} s")


def _validate(directory: Path, settings: WorkerSettings, job: _Job) -> None:
    logs = job.work / "validation-logs"
    report = validate(
        str(directory),
        time_control=TimeControl(move_seconds=settings.move_seconds),
        sandbox=settings.sandbox,
        build=False,  # built above, once
        bot_logs=logs,
    )
    job.log(_report_text(report))
    if not report.passed:
        for log in sorted(logs.rglob("*.log"))[:10]:
            text = log.read_text(errors="replace")
            if text.strip():
                job.log(f"--- {log.relative_to(logs)} (its end)")
                job.log(text[-_LOG_TAIL:])
        failed = [check.name for check in report.checks if check.status is Status.FAIL]
        raise _Refused(f"validation failed: {', '.join(failed)}")


# What a hosted author can try where a local one would try --sandbox none.
_HOSTED_TRY = "`arena validate DIR` on your machine runs it in the same sandbox (with bubblewrap)"


def _report_text(report: Report) -> str:
    lines = [f"validation (seed {report.seed}, sandbox {report.sandbox}):"]
    for check in report.checks:
        shown = check.hint.replace(SANDBOX_TRY_NONE, _HOSTED_TRY)
        hint = f" ({shown})" if check.hint and check.status is Status.FAIL else ""
        lines.append(f"  {check.status.value:4} {check.name}: {check.detail}{hint}")
    return "\n".join(lines)
