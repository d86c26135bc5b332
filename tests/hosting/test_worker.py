"""The submission queue and its worker: a real bot's archive is unpacked, built and validated in
the sandbox and registered for its author; what cannot become a version fails with a log that
says why, and leaves no version and no directory behind."""

from __future__ import annotations

import fcntl
import io
import json
import os
import shutil
import sys
import tarfile
import time
import zipfile
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import select
from typer.testing import CliRunner

from arena.bot_tree import REPO
from arena.building import BUILD_SECONDS
from arena.cli import app
from arena.manifest import remote_bot
from arena.sandbox import SandboxPolicy, bwrap_problem
from arena.storage import authors, bots, submissions
from arena.storage.database import Database, open_database
from arena.storage.models import Bot, Submission, SubmissionState
from arena.storage.process_lock import Held
from arena.storage.run_lock import sole_run
from arena.storage.target import DatabaseTarget
from arena.submissions import worker
from arena.submissions.files import HostedFiles
from arena.submissions.worker import WorkerSettings, work_once
from arena.uploads.pack import pack
from tests.support.bots import SAMPLE_BOTS
from tests.tournament.helpers import query

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        bwrap_problem() is not None, reason=f"no sandbox on this machine: {bwrap_problem()}"
    ),
]

# 5 s a decision: no loaded machine reaches it (with 1 s, a slow reply failed a validation)
SETTINGS = WorkerSettings(SandboxPolicy(tool="bwrap"), move_seconds=5.0)
RANDOM_BOT = (SAMPLE_BOTS / "random-python" / "bot.py").read_text()


def bot_dir(
    parent: Path, name: str, *, bot_py: str = RANDOM_BOT, games: str = '"oregon"', **extra: str
) -> Path:
    """A Python bot that plays ``games`` (the random sample bot unless ``bot_py``)."""
    directory = parent / name
    directory.mkdir()
    build = '\nbuild = ["sh", "build.sh"]' if "build.sh" in extra else ""
    (directory / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1.0"\ncommand = ["python", "bot.py"]\n'
        f"games = [{games}]{build}\n"
    )
    (directory / "bot.py").write_text(bot_py)
    for file, content in extra.items():
        (directory / file).write_text(content)
    return directory


class Host:
    """A hosted arena's database and files, with authors."""

    def __init__(self, db: DatabaseTarget) -> None:
        self.db_path = db
        self.database: Database = open_database(self.db_path, create=True)
        self.files = HostedFiles.beside(self.db_path)
        self.authors: dict[str, int] = {}
        for name in ("alice", "bob"):
            with self.database.write() as session:
                authors.add(session, name)
                self.authors[name] = authors.named(session, name).id or 0

    def queue(self, author: str, name: str, archive: bytes) -> int:
        digest = self.files.store_archive(archive)
        with self.database.write() as session:
            return submissions.queue(session, self.authors[author], name, digest)

    def view(self, submission_id: int) -> submissions.SubmissionView:
        with self.database.read() as session:
            return next(
                v for v in submissions.views(session, self.db_path) if v.id == submission_id
            )


@pytest.fixture
def host(db_target: DatabaseTarget):
    host = Host(db_target)
    yield host
    host.database.close()


def test_an_uploaded_bot_builds_validates_and_becomes_its_authors_version(
    host: Host, tmp_path: Path
):
    source = bot_dir(
        tmp_path,
        "built-bot",
        bot_py="import pathlib\nassert pathlib.Path('built.txt').read_text() == 'ok'\n"
        + RANDOM_BOT,
        **{"build.sh": "echo compiling; printf ok > built.txt\n"},
    )
    submission = host.queue("alice", "built-bot", pack(source))
    assert host.view(submission).state == "queued"
    handled = work_once(host.database, host.files, SETTINGS)
    assert handled is not None and handled.state is SubmissionState.ACTIVE, (
        handled and host.view(submission).log
    )
    view = host.view(submission)
    assert view.state == "active" and "registered as built-bot@1.0#" in view.log.splitlines()[-1]
    assert "compiling" in view.log and "PASS" in view.log and "sandbox bwrap" in view.log
    assert str(host.files.root) not in view.log  # the host's paths stay the host's
    with host.database.read() as session:
        version = bots.latest_version(session, "built-bot")
    assert version.bot.author_id == host.authors["alice"]
    assert version.version.id == view.bot_version_id
    directory = Path(version.version.directory or "")
    assert directory.parent == host.files.bots and (directory / "built.txt").read_text() == "ok"
    # hashed as built, as a ladder or tournament checks a registered bot before it plays
    assert bots.directory_hash(directory) == version.version.content_hash
    assert list(host.files.work.iterdir()) == []
    assert work_once(host.database, host.files, SETTINGS) is None  # the queue is empty

    again = host.queue("alice", "built-bot", pack(source))  # the same again: no new version
    assert work_once(host.database, host.files, SETTINGS).state is SubmissionState.ACTIVE
    assert "became a version before" in host.view(again).log
    assert host.view(again).bot_version_id == version.version.id

    zipped = io.BytesIO()  # the same files in another archive: built and checked, same version
    with zipfile.ZipFile(zipped, "w") as archive:
        for file in sorted(source.iterdir()):
            archive.write(file, file.name)
    third = host.queue("alice", "built-bot", zipped.getvalue())
    assert work_once(host.database, host.files, SETTINGS).state is SubmissionState.ACTIVE
    assert host.view(third).bot_version_id == version.version.id
    assert sorted(host.files.bots.iterdir()) == [directory]  # the third's own went


def failed(
    host: Host, submission: int, settings: WorkerSettings = SETTINGS
) -> submissions.SubmissionView:
    handled = work_once(host.database, host.files, settings)
    assert handled is not None and handled.submission_id == submission
    view = host.view(submission)
    assert handled.state is SubmissionState.FAILED and view.state == "failed", view.log
    with host.database.read() as session:
        assert session.exec(select(Bot)).all() == []  # no version, no bot
    assert list(host.files.work.iterdir()) == []
    assert not host.files.bots.exists() or list(host.files.bots.iterdir()) == []
    return view


def test_a_build_that_fails_shows_its_output(host: Host, tmp_path: Path):
    source = bot_dir(tmp_path, "broken", **{"build.sh": "echo 'main.c:3: error: no'; exit 2\n"})
    view = failed(host, host.queue("alice", "broken", pack(source)))
    assert "main.c:3: error: no" in view.log and "exited with code 2" in view.log


def test_a_deep_tree_left_by_a_build_fails_the_upload_not_the_worker(host: Host, tmp_path: Path):
    """2,500 nested directories made the copy back raise RecursionError: the worker died, the
    upload stayed "building", and every author's uploads waited (outside review)."""
    deep = "python3 -c \"import os\nfor _ in range(2500): os.mkdir('d'); os.chdir('d')\"\n"
    view = failed(
        host, host.queue("alice", "deep", pack(bot_dir(tmp_path, "deep", **{"build.sh": deep})))
    )
    assert "deeper than 100 levels" in view.log


def test_an_authors_versions_together_are_kept_within_the_arenas_bound(host: Host, tmp_path: Path):
    """Every version's directory is kept, each up to a build's 1 GiB: two 395-byte uploads kept
    191 MB each, and nothing bounded an author's total (outside review). Refused before the
    validation's games, with nothing kept."""
    kept = host.files.bots / "999"  # alice's version before: 2 MiB, as a worker left it
    kept.mkdir(parents=True)
    (kept / "blob").write_bytes(os.urandom(2 << 20))
    with host.database.write() as session:
        spec = replace(remote_bot("127.0.0.1:1", "big-bot"), directory=kept, address=None)
        bots.register(session, spec, "h1", author_id=host.authors["alice"])
    build = {"build.sh": "head -c 2000000 /dev/urandom > blob\n"}
    upload = host.queue("alice", "big-bot", pack(bot_dir(tmp_path, "big-bot", **build)))
    handled = work_once(host.database, host.files, replace(SETTINGS, author_disk_mib=3))
    assert handled is not None and handled.state is SubmissionState.FAILED
    log = host.view(upload).log
    assert "your bots' versions would hold 3.9 MiB on the arena, over the 3 MiB it keeps" in log
    assert "ask its operator to remove old versions" in log and "PASS" not in log, log
    assert sorted(host.files.bots.iterdir()) == [kept]


def test_an_arena_fault_on_one_upload_fails_it_and_the_worker_goes_on(
    host: Host, tmp_path: Path, monkeypatch
):
    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug met on this upload")

    monkeypatch.setattr(worker, "_validate", broken)
    view = failed(host, host.queue("alice", "unlucky", pack(bot_dir(tmp_path, "unlucky"))))
    assert "the arena failed on this upload" in view.log.splitlines()[-1]
    assert "a bug met" not in view.log  # the details are the operator's


def test_a_traceback_in_the_authors_log_names_no_host_path(host: Host, tmp_path: Path):
    """A Python bot's traceback names the arena's files (its SDK, its venv): shown to the
    author as <arena> and <python>, not where they lie on the host (outside review)."""
    raising = "import arena_sdk\nraise RuntimeError('at start ' + arena_sdk.__file__)\n"
    source = bot_dir(tmp_path, "raiser", bot_py=raising)
    view = failed(host, host.queue("alice", "raiser", pack(source)))
    assert "at start <" in view.log, view.log
    for place in {sys.prefix, sys.base_prefix, str(REPO)}:
        assert place not in view.log, place


def test_a_bot_that_fails_validation_shows_the_checks_and_its_stderr(host: Host, tmp_path: Path):
    source = bot_dir(tmp_path, "crasher", bot_py="import sys\nsys.exit('no luck today')\n")
    view = failed(host, host.queue("alice", "crasher", pack(source)))
    assert "validation failed" in view.log.splitlines()[-1]
    assert "FAIL" in view.log and "no luck today" in view.log
    # a hosted author cannot choose the sandbox: no hint to try --sandbox none
    assert "--sandbox none" not in view.log


# Crashes in Ogallala and Oregon, plays Merkator well (whose logs sort first); says which game
# it plays in each log.
PICKY_BOT = """import sys
import arena_sdk as sdk

rng = sdk.seeded_random()


def choose(request):
    game = request.view.WhichOneof("game")
    print("playing", game, flush=True)
    if game != "merkator":
        raise RuntimeError(f"no {game} today")
    return rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    sdk.run(choose)
"""


def test_a_failed_validation_quotes_the_logs_of_the_checks_that_failed(host: Host, tmp_path: Path):
    """The first 10 logs in alphabetical order were quoted: an author whose bot crashed in
    Ogallala got 8 Merkator logs and no Ogallala one; the hint pointed to --bot-logs and a path
    of the worker's; the summary joined names that have commas (outside review)."""
    games = '"merkator", "ogallala", "oregon"'
    source = bot_dir(tmp_path, "picky", bot_py=PICKY_BOT, games=games)
    view = failed(host, host.queue("alice", "picky", pack(source)))
    assert view.log.splitlines()[-1] == (
        "failed: validation failed: ogallala, 2 seats, vs random; oregon, 2 seats, vs random"
    )
    quoted = [line for line in view.log.splitlines() if line.startswith("--- ")]
    assert quoted and all(
        line.startswith(("--- ogallala-2-seats-vs-random/", "--- oregon-2-seats-vs-random/"))
        for line in quoted
    ), quoted
    assert "no ogallala today" in view.log and "no oregon today" in view.log
    [crash] = [line for line in view.log.splitlines() if "FAIL ogallala" in line]
    assert "log: ogallala-2-seats-vs-random/" in crash  # as its quote is headed
    assert "quoted below" in crash and "`arena validate DIR --bot-logs LOGS`" in crash
    assert "<work>" not in view.log and "to read all of it" not in view.log


SLEEPY_BOT = RANDOM_BOT.replace("def choose(request):", "def choose(request):\n    sleep(0.5)")


def test_a_validation_past_its_budget_fails_the_upload_and_stops_the_bot(
    host: Host, tmp_path: Path
):
    """A bot answering just within the per-decision limit held the only worker for about 50
    minutes of validation games (outside review)."""
    source = bot_dir(tmp_path, "sleepy", bot_py="from time import sleep\n" + SLEEPY_BOT)
    started = time.monotonic()
    view = failed(
        host, host.queue("alice", "sleepy", pack(source)), replace(SETTINGS, validation_seconds=3)
    )
    assert time.monotonic() - started < 3 + 30  # unpacking, starting in the sandbox, stopping
    assert view.log.splitlines()[-1] == "failed: validation failed: time budget"
    assert "took longer than its budget of 3 s" in view.log and "reply faster" in view.log
    assert not processes_naming(str(host.files.root))  # bwrap's arguments name the bot's place


def processes_naming(text: str) -> list[str]:
    """Live processes whose command line has ``text``."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # not a process, gone meanwhile, or not ours to read
        if text in cmdline:
            found.append(f"{proc.name}: {cmdline}")
    return found


def test_a_claim_goes_stale_only_after_the_build_and_the_validation_budget():
    default = WorkerSettings(SandboxPolicy(tool="bwrap"))
    assert default.claim_stale_seconds > BUILD_SECONDS + default.validation_seconds
    longer = replace(default, validation_seconds=7200)
    assert longer.claim_stale_seconds > BUILD_SECONDS + 7200
    assert replace(longer, stale_seconds=5.0).claim_stale_seconds == 5.0


def test_the_worker_command_takes_the_validation_budget_in_minutes(host: Host, monkeypatch):
    used: list[WorkerSettings] = []

    def record(_database, _files, settings):
        used.append(settings)

    monkeypatch.setattr("arena.commands.submissions.work_once", record)
    db = ["--db", str(host.db_path)]
    result = CliRunner().invoke(
        app, ["submissions", "work", "--once", "--validation-minutes", "12", *db]
    )
    assert result.exit_code == 0, result.output
    assert [settings.validation_seconds for settings in used] == [720]


def archive_of(files: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
    return buffer.getvalue()


def manifest(name: str) -> bytes:
    text = f'name = "{name}"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
    return text.encode()


@pytest.mark.parametrize(
    "upload, name, message",
    [
        (archive_of({"bot.py": b""}, {"bot.toml": "/etc/passwd"}), "x", "a link"),
        (archive_of({"bot.py": b""}), "x", "no bot.toml at the archive's top"),
        (archive_of({"bot.toml": manifest("y"), "bot.py": b""}), "x", "names the bot 'y'"),
        # the author's file, not the work directory's "<bot>/upload/bot.toml" (outside review)
        (archive_of({"bot.toml": b"name = ", "bot.py": b""}), "x", "<bot>/bot.toml: "),
        (b"not an archive at all", "x", "neither a tar.gz nor a zip"),
    ],
    ids=["link", "no-manifest", "other-name", "bad-manifest", "not-an-archive"],
)
def test_an_upload_that_cannot_be_a_bot_fails_with_why(host: Host, upload, name, message):
    view = failed(host, host.queue("alice", name, upload))
    assert message in view.log.splitlines()[-1]


def test_a_bot_in_one_folder_of_the_archive_is_found(host: Host, tmp_path: Path):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(bot_dir(tmp_path, "foldered"), arcname="foldered")
    host.queue("bob", "foldered", buffer.getvalue())
    assert work_once(host.database, host.files, SETTINGS).state is SubmissionState.ACTIVE


def test_a_name_of_another_authors_bot_is_refused(host: Host, tmp_path: Path):
    source = bot_dir(tmp_path, "taken")
    with host.database.write() as session:
        bob = host.authors["bob"]
        bots.register(session, remote_bot("127.0.0.1:1", "taken"), "h", author_id=bob)
    submission = host.queue("alice", "taken", pack(source))
    handled = work_once(host.database, host.files, SETTINGS)
    assert handled is not None and handled.state is SubmissionState.FAILED
    assert "belongs to another author" in host.view(submission).log


def test_a_look_alike_of_another_authors_bot_is_refused(host: Host, tmp_path: Path):
    """Queued at the same moment as bob's "apple", before either was a bot: the upload API let
    both wait (outside review's "аррӏе"; here a capital I for the l)."""
    with host.database.write() as session:
        bob = host.authors["bob"]
        bots.register(session, remote_bot("127.0.0.1:1", "apple"), "h", author_id=bob)
    submission = host.queue("alice", "appIe", pack(bot_dir(tmp_path, "appIe")))
    handled = work_once(host.database, host.files, SETTINGS)
    assert handled is not None and handled.state is SubmissionState.FAILED
    assert host.view(submission).log.splitlines()[-1] == (
        "failed: bot name 'appIe' could pass for 'apple', another author's bot: choose another name"
    )
    assert "validation" not in host.view(submission).log  # refused before the build
    with host.database.read() as session:
        assert bots.owner_of(session, "appIe") is None


def test_a_look_alike_registered_while_an_upload_is_validated_keeps_its_name(
    host: Host, tmp_path: Path, monkeypatch
):
    """Bob's "apple" becomes a version while alice's "appIe" is validated: the check as
    alice's is registered, in the same transaction, refuses hers."""

    def bobs_registered_meanwhile(*_args, **_kwargs) -> None:
        with host.database.write() as session:
            bob = host.authors["bob"]
            bots.register(session, remote_bot("127.0.0.1:1", "apple"), "h", author_id=bob)

    submission = host.queue("alice", "appIe", pack(bot_dir(tmp_path, "appIe")))
    monkeypatch.setattr(worker, "_validate", bobs_registered_meanwhile)
    handled = work_once(host.database, host.files, SETTINGS)
    assert handled is not None and handled.state is SubmissionState.FAILED
    assert "could pass for 'apple'" in host.view(submission).log.splitlines()[-1]
    with host.database.read() as session:
        assert bots.owner_of(session, "appIe") is None
    assert not host.files.bots.exists() or list(host.files.bots.iterdir()) == []


def test_a_submission_a_killed_worker_left_is_claimed_again_at_once_but_not_forever(host: Host):
    """A worker's claim lock goes with the worker, however it ends: the next claim takes its
    submission at once (it waited 40 minutes for stale_seconds), counting an attempt, and
    meanwhile a reader shows it queued; a live worker's claim is never taken, however old."""
    submission = host.queue("alice", "x", b"whatever")
    for attempt in range(1, submissions.MAX_ATTEMPTS + 1):
        with submissions.ClaimLock(host.database) as lock:  # a worker handles it
            with host.database.write() as session:
                claimed = submissions.claim(session, 60, lock)
                assert claimed is not None and claimed.attempts == attempt
            assert (host.view(submission).state, host.view(submission).log) == ("building", "")
            with submissions.ClaimLock(host.database) as other, host.database.write() as session:
                assert submissions.claim(session, 0, other) is None  # alive, however old
        # the worker is gone, its lock with it (as with kill -9): queued, as the next claim
        # sees it; a tournament's run lock of the same id is another lock
        with sole_run(host.database, submission, "tournament 'same id'"):
            view = host.view(submission)
            assert (view.state, view.log) == ("queued", submissions.WORKER_STOPPED)
            with host.database.read() as session:
                alone = submissions.view(session, host.db_path, submission)
                assert alone is not None and alone.state == "queued"
            assert query(host.db_path, "SELECT state FROM submission") == [("building",)]
    with submissions.ClaimLock(host.database) as lock, host.database.write() as session:
        assert submissions.claim(session, 60, lock) is None
    view = host.view(submission)
    assert view.state == "failed" and "stopped 3 times" in view.log


def test_where_the_lock_cannot_tell_a_claim_is_taken_again_once_stale(tmp_path: Path):
    """A claim with no lock file (made by an arena before claim locks) may be a live worker's:
    taken again only once untouched for stale_seconds. (A PostgreSQL server always tells.)"""
    host = Host(tmp_path / "arena.db")
    submission = host.queue("alice", "x", b"whatever")
    with submissions.ClaimLock(host.database) as lock, host.database.write() as session:
        assert submissions.claim(session, 60, lock) is not None
    shutil.rmtree(submissions.CLAIM_LOCKS.directory(tmp_path / "arena.db"))
    assert host.view(submission).state == "building"  # as stored: it may be alive
    for stale in (False, True):
        if stale:
            with host.database.write() as session:
                row = session.get(Submission, submission)
                row.updated_at -= timedelta(seconds=61)
                session.add(row)
        with submissions.ClaimLock(host.database) as lock, host.database.write() as session:
            claimed = submissions.claim(session, 60, lock)
            assert (claimed is not None and claimed.attempts == 2) is stale
    host.database.close()


def test_a_handled_uploads_lock_file_goes_and_those_left_behind_go_once_idle(tmp_path: Path):
    """DB-claims/ kept a lock file for every upload ever handled. A worker now removes its
    claim's file once the outcome is stored; idle, it removes those of finished uploads that
    nobody holds (left by killed workers and older arenas), never a file that tells whether an
    upload's worker lives."""
    host = Host(tmp_path / "arena.db")
    locks = submissions.CLAIM_LOCKS.directory(host.db_path)
    broken = host.queue(
        "alice", "broken", pack(bot_dir(tmp_path, "broken", **{"build.sh": "exit 2\n"}))
    )
    handled = work_once(host.database, host.files, SETTINGS)
    assert handled is not None and handled.state is SubmissionState.FAILED
    assert not (locks / f"{broken}.lock").exists()

    (locks / f"{broken}.lock").write_text("4242\n")  # a killed worker's, after the outcome
    (locks / "notes.txt").write_text("not a lock")
    killed = host.queue("alice", "x", b"whatever")
    with submissions.ClaimLock(host.database) as lock, host.database.write() as session:
        assert submissions.claim(session, 60, lock) is not None  # then the worker is killed ...
    with host.database.write() as session:  # ... for the last time
        row = session.get(Submission, killed)
        row.attempts = submissions.MAX_ATTEMPTS
        session.add(row)
    live = host.queue("bob", "y", b"whatever")
    with submissions.ClaimLock(host.database) as lock:  # a live worker's claim
        with host.database.write() as session:
            assert submissions.claim(session, 60, lock) is not None
        with submissions.CLAIM_LOCKS.hold(host.database, broken):  # an older arena's worker
            assert work_once(host.database, host.files, SETTINGS) is None  # idle
            assert (locks / f"{broken}.lock").exists()
        assert host.view(killed).state == "failed"  # given up on: its file went
        assert sorted(path.name for path in locks.iterdir()) == [
            f"{broken}.lock", f"{live}.lock", "notes.txt"
        ]  # fmt: skip
        with host.database.read() as session:
            assert submissions.remove_finished_claim_locks(session, host.db_path) == 1
        assert sorted(path.name for path in locks.iterdir()) == [f"{live}.lock", "notes.txt"]
    host.database.close()


def test_a_lock_whose_work_is_over_goes_with_its_file_and_one_holder_at_a_time(tmp_path: Path):
    """The file is removed while its holder still holds it: whoever opened it before takes a
    lock on a file no longer there, which holds nothing, and opens the path again."""
    database = open_database(tmp_path / "arena.db", create=True)
    path = submissions.CLAIM_LOCKS.directory(tmp_path / "arena.db") / "7.lock"
    with submissions.CLAIM_LOCKS.hold(database, 7) as lease:
        early = os.open(path, os.O_RDONLY)  # opened before the file goes
        lease.done()
    with database.read() as session:
        assert submissions.CLAIM_LOCKS.held(tmp_path / "arena.db", 7, session.connection()) is None
    fcntl.flock(early, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the old file's lock, free: it tells nothing
    with submissions.CLAIM_LOCKS.hold(database, 7):  # a new file, a lock of its own
        with database.read() as session:
            assert submissions.CLAIM_LOCKS.held(tmp_path / "arena.db", 7, session.connection())
        with pytest.raises(Held), submissions.CLAIM_LOCKS.hold(database, 7):
            pass
    os.close(early)
    database.close()


def test_an_upload_a_worker_left_never_replaces_a_later_one_that_became_a_version(
    host: Host, tmp_path: Path
):
    """The worker stopped during #1; #2 (the author's fix) became the version; #1, stale, was
    handled again and became the bot's newest version, taking #2's place on the ladder."""
    (tmp_path / "before").mkdir()
    first = host.queue("alice", "fixed", pack(bot_dir(tmp_path / "before", "fixed")))
    with submissions.ClaimLock(host.database) as lock:  # a worker handles #1 ...
        with host.database.write() as session:
            assert submissions.claim(session, 60, lock) is not None
        second = host.queue(
            "alice", "fixed", pack(bot_dir(tmp_path, "fixed", bot_py=RANDOM_BOT + "# 2\n"))
        )
        handled = work_once(host.database, host.files, SETTINGS)
        assert handled is not None and handled.submission_id == second
        assert handled.state is SubmissionState.ACTIVE
    # ... and dies
    assert work_once(host.database, host.files, SETTINGS) is None  # nothing left to build
    view = host.view(first)
    assert view.state == "failed" and f"a later upload of fixed (#{second})" in view.log
    with host.database.read() as session:
        newest = bots.latest_version(session, "fixed").version.id
    assert newest == host.view(second).bot_version_id


def test_a_worker_stopped_mid_upload_puts_it_back_in_the_queue(
    host: Host, tmp_path: Path, monkeypatch
):
    """Ctrl-C or SIGTERM during a build: the upload waited 40 minutes as "validating" for the
    stale claim, holding one of its author's waiting places (outside review)."""

    def stopped(*_args, **_kwargs):
        raise KeyboardInterrupt

    submission = host.queue("alice", "patient", pack(bot_dir(tmp_path, "patient")))
    monkeypatch.setattr(worker, "_validate", stopped)
    with pytest.raises(KeyboardInterrupt):
        work_once(host.database, host.files, SETTINGS)
    assert host.view(submission).state == "queued"
    monkeypatch.undo()
    handled = work_once(host.database, host.files, SETTINGS)  # the next worker, at once
    assert handled is not None and handled.submission_id == submission
    assert handled.state is SubmissionState.ACTIVE


def test_the_worker_command_stopped_as_usual_says_so_plainly(host: Host, monkeypatch):
    """Ctrl-C or SIGTERM is how the worker ends: it said "error: interrupted"."""

    def stopped(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("arena.commands.submissions.work_once", stopped)
    worked = CliRunner().invoke(app, ["submissions", "work", "--db", str(host.db_path)])
    assert worked.exit_code == 130
    assert worked.stderr.splitlines()[-1] == "arena submissions work: stopped"
    assert "error" not in worked.stderr


def test_a_failed_uploads_archive_is_removed_once_idle_and_old(host: Host, tmp_path: Path):
    """Failed uploads kept their archives for ever (90 MB from three 30 MiB ones); an active
    upload's stays, and so does a young one (the same archive may be queued again now)."""
    broken = bot_dir(tmp_path, "broken", **{"build.sh": "exit 2\n"})
    failing = host.queue("alice", "broken", pack(broken))
    good = host.queue("alice", "good", pack(bot_dir(tmp_path, "good")))
    work_once(host.database, host.files, SETTINGS)
    work_once(host.database, host.files, SETTINGS)
    assert (host.view(failing).state, host.view(good).state) == ("failed", "active")
    failed_hash, good_hash = host.view(failing).archive_hash, host.view(good).archive_hash
    assert work_once(host.database, host.files, SETTINGS) is None  # idle: too young to go
    assert host.files.archive(failed_hash).exists()
    for digest in (failed_hash, good_hash):
        os.utime(host.files.archive(digest), (0, 0))  # written long ago
    assert work_once(host.database, host.files, SETTINGS) is None
    assert not host.files.archive(failed_hash).exists()
    assert host.files.archive(good_hash).exists()
    # uploaded again, the archive is back, and fresh
    assert host.files.store_archive(pack(broken)) == failed_hash
    assert host.files.archive(failed_hash).exists()


def test_the_worker_and_list_commands(host: Host, tmp_path: Path):
    host.queue("alice", "cli-bot", pack(bot_dir(tmp_path, "cli-bot")))
    host.queue("bob", "x", b"junk")
    host.database.close()
    runner = CliRunner()
    db = ["--db", str(host.db_path)]
    worked = runner.invoke(app, ["submissions", "work", "--once", "--move-time", "5", *db])
    assert worked.exit_code == 0, worked.output
    lines = worked.stdout.splitlines()
    assert lines[0].startswith("#1 cli-bot: active: registered as cli-bot@1.0#")
    assert lines[1] == "#2 x: failed: the upload is neither a tar.gz nor a zip archive"
    listed = runner.invoke(app, ["submissions", "list", "--json", "--author", "bob", *db])
    rows = json.loads(listed.stdout)
    assert [(r["id"], r["author"], r["state"]) for r in rows] == [(2, "bob", "failed")]
    table = runner.invoke(app, ["submissions", "list", *db])
    assert "cli-bot" in table.stdout and "active" in table.stdout
    host.database = open_database(host.db_path, create=False)


def test_an_upload_replaced_by_a_newer_version_says_so(host: Host, tmp_path: Path):
    """/me listed an author's first and second upload of a bot both "active", though a ladder
    plays only the second (outside review)."""
    (tmp_path / "1").mkdir()
    (tmp_path / "2").mkdir()
    first = host.queue("alice", "twice", pack(bot_dir(tmp_path / "1", "twice")))
    assert work_once(host.database, host.files, SETTINGS).state is SubmissionState.ACTIVE
    assert host.view(first).replaced_by is None
    changed = bot_dir(tmp_path / "2", "twice", bot_py=RANDOM_BOT + "\n# changed\n")
    second = host.queue("alice", "twice", pack(changed))
    assert work_once(host.database, host.files, SETTINGS).state is SubmissionState.ACTIVE
    # the same bot.toml version, changed code: labelled apart as the boards do
    assert (host.view(first).replaced_by, host.view(second).replaced_by) == ("1.0-r2", None)
    assert host.view(first).state_words == "active, replaced by 1.0-r2"
    assert host.view(first).as_json()["replaced_by"] == "1.0-r2"


def test_a_worker_stopped_after_registering_leaves_the_next_one_the_versions_code(
    host: Host, tmp_path: Path, monkeypatch
):
    """The version is registered, then the upload marked in a second transaction: a worker
    stopped between them (killed, or a storage fault) left the upload to be handled again, and
    the next worker, finding the same content a version already, removed the version's code
    (outside review)."""
    from arena.errors import StorageError

    submission = host.queue("alice", "kept", pack(bot_dir(tmp_path, "kept")))
    monkeypatch.setattr(worker, "_validate", lambda *args, **kwargs: None)
    finish = worker._finish

    def fault_after_registering(database, job, directory, state, *args, **kwargs):
        if state is SubmissionState.ACTIVE:
            raise StorageError("database is locked")
        return finish(database, job, directory, state, *args, **kwargs)

    monkeypatch.setattr(worker, "_finish", fault_after_registering)
    with pytest.raises(StorageError):
        work_once(host.database, host.files, SETTINGS)
    monkeypatch.setattr(worker, "_finish", finish)
    handled = work_once(host.database, host.files, SETTINGS)
    assert handled is not None and handled.state is SubmissionState.ACTIVE, host.view(submission)
    with host.database.read() as session:
        version = bots.latest_version(session, "kept").version
    assert version.directory is not None and (Path(version.directory) / "bot.toml").is_file()
