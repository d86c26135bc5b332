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
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from arena import stopping
from arena.bot_tree import REPO, link_node_sdk, tree_bytes
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
from arena.validation import Check, Report, Status, validate
from arena.validation.games import BOT_LOGS_TRY
from arena.validation.process import SANDBOX_TRY_NONE

log = logging.getLogger(__name__)

_LOG_TAIL = 4000  # characters of each bot log a failed validation's log quotes
_LOGS_QUOTED = 10  # bot logs at most

# The validation's time budget. Without one, a bot answering just within the 2 s per decision
# held the only worker for about 50 minutes (~20 games; outside review). 30 minutes: the sample
# bot sample_bots/search-python (median reply ~270 ms) took 9 min 48 s for `arena validate` on a
# loaded 2-core machine, so an ordinary searching bot passes with room to spare.
VALIDATION_SECONDS = 1800.0
# What a claim's steps take beside the build and the validation (unpacking, moving and hashing
# up to the upload limits, registering).
_CLAIM_MARGIN_SECONDS = 300.0


# What the built versions of one author's bots may hold on the host's disk together. A build may
# leave 1 GiB (``arena.building``), an author may upload 5 times a minute, and every version's
# directory is kept (a ladder may play it, ``arena match NAME@VERSION`` may name it): without a
# bound, one author could fill the disk (outside review: two 395-byte uploads kept 191 MB each).
AUTHOR_DISK_MIB = 4096


@dataclass(frozen=True)
class WorkerSettings:
    sandbox: SandboxPolicy
    move_seconds: float = 2.0  # per decision in validation's games, as ``arena validate``
    validation_seconds: float = VALIDATION_SECONDS
    author_disk_mib: int = AUTHOR_DISK_MIB  # the built versions of an author's bots together
    # A claim whose lock cannot tell whether its worker lives (a claim made before claim
    # locks) untouched this long was left by a worker that died. None: a build's limit and the
    # validation's budget, with a margin (a live worker never leaves a claim that long).
    stale_seconds: float | None = None

    @property
    def claim_stale_seconds(self) -> float:
        if self.stale_seconds is not None:
            return self.stale_seconds
        return BUILD_SECONDS + self.validation_seconds + _CLAIM_MARGIN_SECONDS


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
            claimed = submissions.claim(session, settings.claim_stale_seconds, lock)
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
            with stopping.ctrl_c_for_trio():  # its checks and validation run trio
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
        stopping.stop_here()  # one that came as it was claimed: back in the queue
        unpacked = unpack(files.archive(job.archive_hash), job.work / "upload")
        job.log(f"unpacked: {unpacked.files} files and directories, {unpacked.bytes} bytes")
        # the bot's directory as the log shows it ("<bot>/bot.toml", not "<bot>/upload/...")
        source = directory = _bot_root(job.work / "upload")
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
        _check_author_disk(database, directory, settings, job)
        with database.write() as session:
            submissions.advance(session, job.submission_id, SubmissionState.VALIDATING)
        _validate(directory, settings, job)
        # hashed as built, as `arena submit` hashes a bot: what runs, and what a ladder checks
        content_hash = bots.directory_hash(directory)
        try:
            with database.write() as session:
                _check_owner(session, spec.name, job.author_id)  # as registered, at last
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
        # (another archive of the same files, or another worker's at the same time); kept too
        # when that version is this very directory: a worker stopped after registering it
        # (killed, or a storage fault marking the upload) left the upload to be handled again
        kept_here = (
            registered.version.directory is not None
            and Path(registered.version.directory).resolve() == Path(directory).resolve()
        )
        keep = created or kept_here
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
        _requeue(database, job)
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
    except BaseExceptionGroup as group:
        # Stopped during the validation's games (a trio run): the interrupt comes wrapped in
        # trio's group, and the upload stayed "validating" with the stop counted as an attempt
        # (three restarts failed a good upload; outside review). Raised bare: the command says
        # "stopped".
        if not stopping.is_interrupt(group):
            raise
        _requeue(database, job)
        raise KeyboardInterrupt from None
    finally:
        remove_tree(job.work)
        if not keep and directory != job.work:
            remove_tree(directory)


def _requeue(database: Database, job: _Job) -> None:
    """The worker stops (Ctrl-C, SIGTERM): the upload back in the queue, the stop not counted as
    an attempt; a repeat of the signal no longer breaks this off (``arena.stopping``)."""
    stopping.command_stops()
    with database.write() as session:
        submissions.requeue(session, job.submission_id)


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
    """The bot's name is the upload's and not another author's, nor one that could pass for
    another author's (before the build: ``_check_owner`` checks again as the version is
    registered)."""
    if spec.name != job.bot_name:
        raise _Refused(f"bot.toml names the bot {spec.name!r}, the upload {job.bot_name!r}")
    with database.read() as session:
        _check_owner(session, spec.name, job.author_id)


def _check_owner(session: Any, name: str, author_id: int) -> None:
    """Refused if bot ``name`` is another author's, or, new, could pass for another author's
    bot (``bots.name_taken_by_others``). The upload API checked both when it queued the
    upload, but two look-alike uploads of two authors may both wait: the first registered
    keeps its name. So it is checked again in the transaction that registers the version
    (writes are serialised: no other registers in between), where ``bots.register`` alone
    refused only another author's bot of the very name, and took the same content as theirs."""
    if problem := bots.name_taken_by_others(session, name, author_id):
        raise _Refused(problem)


def _check_author_disk(
    database: Database, directory: Path, settings: WorkerSettings, job: _Job
) -> None:
    """Refused if the author's kept versions, with this one as built, would hold more than
    ``settings.author_disk_mib`` on the disk (before the validation's games: no time spent on
    an upload that cannot be kept)."""
    with database.read() as session:
        kept = {Path(other).resolve() for other in bots.version_directories(session, job.author_id)}
    kept.add(directory.resolve())  # once, if a worker stopped after registering it
    used = sum(map(tree_bytes, kept))
    if used > settings.author_disk_mib << 20:
        raise _Refused(
            f"with this upload your bots' versions would hold {used / (1 << 20):.1f} MiB on the "
            f"arena, over the {settings.author_disk_mib} MiB it keeps per author: ask its "
            "operator to remove old versions, or make the build leave less"
        )


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
        seconds=settings.validation_seconds,
    )
    job.log(_report_text(report, logs))
    if not report.passed:
        failed = [check for check in report.checks if check.status is Status.FAIL]
        for log, end in _quoted_logs(logs, failed):
            job.log(f"--- {log.relative_to(logs)} (its end)")
            job.log(end)
        # "; ": a check's name has commas of its own ("oregon, 2 seats, vs random")
        raise _Refused(f"validation failed: {'; '.join(check.name for check in failed)}")


def _quoted_logs(logs: Path, failed: list[Check]) -> list[tuple[Path, str]]:
    """The bot logs a failed validation's log quotes, with their ends: those of the failed
    checks (an author whose bot crashed in one game got the logs of others that passed:
    outside review), else (none kept, or all empty) the first in ``logs``; never an empty one."""
    own = (log for check in failed if check.logs for log in _log_files(logs / check.logs))
    return _with_text(own) or _with_text(sorted(logs.rglob("*.log")))


def _log_files(path: Path) -> list[Path]:
    """A check's logs: its one log file, or every log of its game's directory."""
    return [path] if path.is_file() else sorted(path.rglob("*.log"))


def _with_text(files: Iterable[Path]) -> list[tuple[Path, str]]:
    """The first of ``files`` whose end has text, with that end."""
    ends = ((log, _end(log)) for log in files)
    return list(islice(((log, end) for log, end in ends if end.strip()), _LOGS_QUOTED))


def _end(log: Path) -> str:
    """The last ``_LOG_TAIL`` characters of ``log`` (which may be many MiB)."""
    with log.open("rb") as file:
        size = file.seek(0, os.SEEK_END)
        file.seek(max(0, size - 4 * _LOG_TAIL))  # at most 4 bytes a character
        return file.read().decode(errors="replace")[-_LOG_TAIL:]


# What a hosted author can try where a local one would try --sandbox none.
_HOSTED_TRY = "`arena validate DIR` on your machine runs it in the same sandbox (with bubblewrap)"
# Where a hosted author reads a bot's log, where a local one would keep it with --bot-logs.
_HOSTED_LOGS = (
    "the end of the failed checks' logs is quoted below; `arena validate DIR --bot-logs LOGS` "
    "on your machine keeps all of it"
)


def _report_text(report: Report, logs: Path) -> str:
    lines = [f"validation (seed {report.seed}, sandbox {report.sandbox}):"]
    for check in report.checks:
        # a log's path as its quote below names it, not the worker's directory
        detail = check.detail.replace(f"{logs}{os.sep}", "")
        shown = check.hint.replace(SANDBOX_TRY_NONE, _HOSTED_TRY).replace(
            BOT_LOGS_TRY, _HOSTED_LOGS
        )
        hint = f" ({shown})" if check.hint and check.status is Status.FAIL else ""
        lines.append(f"  {check.status.value:4} {check.name}: {detail}{hint}")
    return "\n".join(lines)
