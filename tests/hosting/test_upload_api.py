"""The upload API over real HTTP (uvicorn on a free port): two authors upload with ``arena
submit --to``, see only their own submissions, and the worker makes the bot a version of its
author. The security suite: every refused request gets its status and writes nothing."""

from __future__ import annotations

import hashlib
import io
import json
import tarfile
import threading
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import uvicorn
from sqlmodel import select
from starlette.applications import Starlette
from typer.testing import CliRunner

from arena import tokens
from arena.cli import app
from arena.look_alikes import look_alike_of, look_alike_problem
from arena.manifest import remote_bot
from arena.sandbox import SandboxPolicy, bwrap_problem
from arena.storage import authors, bots, submissions
from arena.storage.database import open_database
from arena.storage.models import AuthorToken, SubmissionState
from arena.storage.target import DatabaseTarget
from arena.submissions.files import HostedFiles
from arena.submissions.worker import WorkerSettings, work_once
from arena.uploads.pack import pack
from arena.uploads.unpack import UnpackLimits
from arena.web.submissions import RateLimit, submission_routes
from tests.hosting.test_unpack import tar_info
from tests.support.bots import SAMPLE_BOTS
from tests.tournament.helpers import query
from tests.web.conftest import free_port

runner = CliRunner()


class Served:
    """An ASGI app under uvicorn in a thread."""

    def __init__(self, asgi: Starlette) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(asgi, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the web server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


class Arena:
    """A hosted arena's database with authors alice and bob (their tokens in files)."""

    def __init__(self, tmp_path: Path, db: DatabaseTarget) -> None:
        self.db = db
        self.files = HostedFiles.beside(self.db)
        self.tokens: dict[str, str] = {}
        self.token_files: dict[str, Path] = {}
        for name in ("alice", "bob"):
            added = runner.invoke(app, ["authors", "add", name, "--db", str(self.db)])
            self.tokens[name] = added.stdout.strip()
            self.token_files[name] = tmp_path / f"{name}.token"
            self.token_files[name].write_text(self.tokens[name] + "\n")

    def author_id(self, name: str) -> int:
        database = open_database(self.db, create=False)
        try:
            with database.read() as session:
                return authors.named(session, name).id or 0
        finally:
            database.close()

    def queued(self) -> list[submissions.SubmissionView]:
        database = open_database(self.db, create=False)
        try:
            with database.read() as session:
                return submissions.views(session, self.db)
        finally:
            database.close()

    def nothing_written(self) -> None:
        assert self.queued() == []
        assert not self.files.archives.exists() or list(self.files.archives.iterdir()) == []


def call(
    url: str, token: str | None = None, body: bytes | None = None, headers: dict | None = None
) -> tuple[int, Any, dict[str, str]]:
    request = urllib.request.Request(url, data=body, headers=dict(headers or {}))
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), dict(error.headers)


def bot_dir(parent: Path, name: str) -> Path:
    directory = parent / name
    directory.mkdir()
    (directory / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1.0"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
    )
    (directory / "bot.py").write_text((SAMPLE_BOTS / "random-python" / "bot.py").read_text())
    return directory


def upload_url(web: Served, bot: str = "a-bot") -> str:
    return f"{web.url}/api/submissions?bot={bot}"


@pytest.mark.slow
@pytest.mark.skipif(bwrap_problem() is not None, reason=f"no sandbox: {bwrap_problem()}")
def test_two_authors_upload_and_see_only_their_own(arena: Arena, web: Served, tmp_path: Path):
    def submit(author: str, *arguments: str):
        return runner.invoke(
            app,
            ["submit", "--to", web.url, "--token-file", str(arena.token_files[author]), *arguments],
        )

    sent = submit("alice", str(bot_dir(tmp_path, "alices-bot")))
    assert sent.exit_code == 0, sent.output
    assert "submission #1 queued" in sent.stdout
    # the follow-up it prints runs as printed, with the token file given
    assert f"--status --token-file {arena.token_files['alice']}` shows how it goes" in sent.stdout
    status = submit("alice", "--status", "--json")
    assert [(r["bot"], r["state"]) for r in json.loads(status.stdout)] == [("alices-bot", "queued")]
    assert "no uploads yet" in submit("bob", "--status").stdout  # alice's are hers alone

    database = open_database(arena.db, create=False)
    try:
        settings = WorkerSettings(
            SandboxPolicy(tool="bwrap"), move_seconds=5.0
        )  # no loaded machine reaches it
        handled = work_once(database, arena.files, settings)
        assert handled is not None and handled.state is SubmissionState.ACTIVE
        with database.read() as session:
            assert bots.latest_version(session, "alices-bot").bot.author_id == arena.author_id(
                "alice"
            )
    finally:
        database.close()
    shown = submit("alice", "--status")
    assert "alices-bot" in shown.stdout and "active" in shown.stdout

    (tmp_path / "bob").mkdir()
    taken = submit("bob", str(bot_dir(tmp_path / "bob", "alices-bot")))
    assert taken.exit_code == 2
    assert "409: bot name 'alices-bot' belongs to another author" in taken.stderr


def test_submit_leaves_out_what_the_bots_gitignore_ignores(
    arena: Arena, web: Served, tmp_path: Path
):
    directory = bot_dir(tmp_path, "built-bot")
    (directory / ".gitignore").write_text("/out/\n")
    (directory / "out").mkdir()
    (directory / "out" / "cache.bin").write_bytes(b"made by a build")

    sent = runner.invoke(
        app,
        [
            "submit",
            "--to",
            web.url,
            "--token-file",
            str(arena.token_files["alice"]),
            str(directory),
        ],
    )

    assert sent.exit_code == 0, sent.output
    assert sent.stdout.startswith(
        "left out 1 file that .gitignore ignores (out/): the bot has no build step, so it runs "
        "without them\nuploaded built-bot (3 files, "
    )
    [stored] = arena.files.archives.iterdir()
    with tarfile.open(stored) as tar:
        assert tar.getnames() == [".gitignore", "bot.py", "bot.toml"]

    (directory / "bot.py").write_text((directory / "bot.py").read_text() + "# 2\n")
    as_json = runner.invoke(
        app,
        [
            *("submit", "--to", web.url, "--token-file", str(arena.token_files["alice"])),
            *("--json", str(directory)),
        ],
    )
    assert as_json.exit_code == 0, as_json.output
    queued = json.loads(as_json.stdout)  # the upload's submission, and nothing else on stdout
    assert (queued["id"], queued["state"], queued["bot"]) == (2, "queued", "built-bot")
    assert (queued["files"], queued["left_out"]) == (3, ["out/cache.bin"])


def test_submit_refuses_a_bot_whose_program_its_gitignore_leaves_out(
    arena: Arena, web: Served, tmp_path: Path
):
    """A prebuilt binary under cargo's ignored /target, no build step: the arena could only fail
    to start it after the upload (outside review G), so nothing is sent."""
    directory = bot_dir(tmp_path, "prebuilt")
    manifest = directory / "bot.toml"
    manifest.write_text(manifest.read_text().replace('["python", "bot.py"]', '["./target/bot"]'))
    (directory / ".gitignore").write_text("/target\n")
    (directory / "target").mkdir()
    (directory / "target" / "bot").write_bytes(b"\x7fELF")
    token = ("--token-file", str(arena.token_files["alice"]))

    sent = runner.invoke(app, ["submit", "--to", web.url, *token, str(directory)])

    assert sent.exit_code == 2, sent.output
    assert sent.stderr == (
        f"error: {directory}: bot.toml's command runs ./target/bot, which .gitignore leaves out "
        "of the upload, and the bot has no build step to make it on the arena: keep it in the "
        "upload with an .arenaignore (read instead of .gitignore) that does not ignore it\n"
    )
    assert not arena.files.archives.exists() or not any(arena.files.archives.iterdir())
    (directory / ".arenaignore").write_text("*.log\n")  # the fix the error names
    kept = runner.invoke(app, ["submit", "--to", web.url, *token, str(directory)])
    assert kept.exit_code == 0, kept.output


def test_without_a_valid_token_nothing_is_accepted(arena: Arena, web: Served, tmp_path: Path):
    archive = pack(bot_dir(tmp_path, "a-bot"))
    token = arena.tokens["alice"]
    for given, headers in [
        (None, {}),
        (token[:-1] + ("A" if token[-1] != "A" else "B"), {}),  # a forged secret
        (arena.tokens["bob"].replace(arena.tokens["bob"][6:18], "0" * 12), {}),  # unknown id
        (None, {"Authorization": f"Basic {token}"}),
        (None, {"Authorization": token}),
    ]:
        status, answer, headers_back = call(upload_url(web), given, archive, headers)
        assert status == 401 and headers_back.get("www-authenticate") == "Bearer", answer
        status, _, _ = call(f"{web.url}/api/submissions", given, headers=headers)
        assert status == 401
    # what each says: a token sent but not valid is not "send a token"
    for given, said in [
        (None, "send the author's token"),
        ("arena_mistyped", "the token is not valid (revoked, or mistyped)"),
        (token[:-1] + ("A" if token[-1] != "A" else "B"), "the token is not valid"),
    ]:
        status, answer, _ = call(upload_url(web), given, archive)
        assert status == 401 and said in str(answer), answer
    runner.invoke(app, ["authors", "revoke", "alice", "--db", str(arena.db)])
    status, answer, _ = call(upload_url(web), token, archive)
    assert status == 401 and "the token is not valid (revoked, or mistyped)" in str(answer)
    arena.nothing_written()


def test_a_token_is_not_taken_on_the_command_line_nor_missing(
    arena: Arena, web: Served, tmp_path: Path, monkeypatch
):
    monkeypatch.delenv("ARENA_TOKEN", raising=False)
    missing = runner.invoke(app, ["submit", "--to", web.url, str(bot_dir(tmp_path, "a"))])
    assert missing.exit_code == 2 and "--token-file" in missing.stderr
    monkeypatch.setenv("ARENA_TOKEN", arena.tokens["bob"])
    listed = runner.invoke(app, ["submit", "--to", web.url, "--status"])
    assert listed.exit_code == 0 and "no uploads yet" in listed.stdout


def test_what_is_not_a_token_is_refused_before_anything_is_sent(
    arena: Arena, tmp_path: Path, monkeypatch
):
    # e.g. the whole output of `arena authors add`, its note too, saved as the token file
    saved = tmp_path / "saved"
    saved.write_text(arena.tokens["alice"] + "\nthe token of alice: give it to them now\n")
    monkeypatch.setenv("ARENA_TOKEN", "my password")
    for number, (given, said) in enumerate(
        [
            (["--token-file", str(saved)], f"{saved}: 2 lines, not a token"),
            ([], "$ARENA_TOKEN: not a token"),
        ]
    ):
        directory = str(bot_dir(tmp_path, f"b{number}"))
        sent = runner.invoke(app, ["submit", "--to", "http://127.0.0.1:9", *given, directory])
        assert sent.exit_code == 2
        assert sent.stderr == (
            f"error: {said}; it should hold only the token the operator gave you "
            "(arena_ID_SECRET, one line)\n"
        )
    arena.nothing_written()


def hostile_tar(member: tarfile.TarInfo) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.addfile(member, io.BytesIO(b"x" * member.size) if member.isreg() else None)
    return buffer.getvalue()


def zip_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros", bytes(50 << 20))  # 50 MiB of zeros in about 50 KiB
    return buffer.getvalue()


@pytest.mark.parametrize(
    "body, message",
    [
        (hostile_tar(tar_info("../escape", size=1)), "'..'"),
        (hostile_tar(tar_info("/etc/cron.d/x", size=1)), "an absolute path"),
        (hostile_tar(tar_info("ln", tarfile.SYMTYPE, linkname="/etc/passwd")), "a link"),
        (hostile_tar(tar_info("dev", tarfile.CHRTYPE)), "a device"),
        (zip_bomb(), "compression bomb"),
        (b"#!/bin/sh\nrm -rf /\n", "neither a tar.gz nor a zip"),
    ],
    ids=["dotdot", "absolute", "link", "device", "zip-bomb", "not-an-archive"],
)
def test_a_hostile_archive_is_refused_at_once(arena: Arena, web: Served, body: bytes, message):
    status, answer, _ = call(upload_url(web), arena.tokens["alice"], body)
    assert status == 400 and message in answer["error"]
    arena.nothing_written()


def test_bad_names_and_another_authors_name(arena: Arena, web: Served, tmp_path: Path):
    archive = pack(bot_dir(tmp_path, "a-bot"))
    token = arena.tokens["alice"]
    assert call(f"{web.url}/api/submissions", token, archive)[0] == 400  # no ?bot=
    assert call(upload_url(web, "has%20space"), token, archive)[0] == 400
    database = open_database(arena.db, create=False)
    with database.write() as session:
        bots.register(
            session, remote_bot("127.0.0.1:1", "bobs"), "h", author_id=arena.author_id("bob")
        )
    database.close()
    status, answer, _ = call(upload_url(web, "bobs"), token, archive)
    assert status == 409 and "belongs to another author" in answer["error"]
    # a new name that passes for bob's: a Cyrillic "о" among Latin letters (outside review)
    status, answer, _ = call(upload_url(web, quote("b\u043ebs")), token, archive)
    assert status == 409 and "could pass for 'bobs', another author's bot" in answer["error"]
    arena.nothing_written()


def test_size_limits_and_floods(arena: Arena, tmp_path: Path):
    """A small app of the same routes: 2 uploads and 4 requests per minute, 4 KiB archives."""
    served = Served(
        Starlette(
            routes=submission_routes(
                arena.db,
                limits=UnpackLimits(archive_bytes=4096),
                requests=RateLimit("request", 4, 60),
                uploads=RateLimit("upload", 2, 60),
            )
        )
    )
    try:
        token = arena.tokens["alice"]
        big = bytes(8192)
        status, answer, _ = call(upload_url(served), token, big)  # Content-Length says so
        assert status == 413 and "at most 4096 bytes" in answer["error"]
        chunked = call(  # no Content-Length: counted as it comes
            upload_url(served),
            token,
            iter([big[:4000], big[4000:]]),
            {"Content-Type": "application/gzip", "Transfer-Encoding": "chunked"},
        )
        assert chunked[0] == 413
        arena.nothing_written()
        archive = pack(bot_dir(tmp_path, "a-bot"))
        assert call(upload_url(served), token, archive)[0] == 202
        assert (
            call(upload_url(served), token, archive)[0] == 429
        )  # uploads: 2 a minute (413s count)
        status, answer, headers = call(f"{served.url}/api/submissions", token)
        assert status == 429 and int(headers["retry-after"]) > 0  # requests: 4 a minute
        # a flood of guesses at bob's secret: each one SHA-256, and bob's requests untouched
        forged = arena.tokens["bob"][:-2] + "AA"
        codes = [call(upload_url(served), forged, archive)[0] for _ in range(6)]
        assert codes == [401] * 6
        assert call(f"{served.url}/api/submissions", arena.tokens["bob"])[0] == 200
        assert [v.bot_name for v in arena.queued()] == ["a-bot"]
    finally:
        served.stop()


def _made_with_scrypt(arena: Arena, name: str) -> None:
    """Store ``name``'s token as tokens were stored before SHA-256 (scrypt, N=2^14, r=8)."""
    _, secret = tokens.parse_token(arena.tokens[name]) or ("", "")
    database = open_database(arena.db, create=False)
    try:
        with database.write() as session:
            author_id = authors.named(session, name).id
            token = session.exec(
                select(AuthorToken).where(AuthorToken.author_id == author_id)
            ).one()
            token.salt = b"s" * 16
            token.digest = hashlib.scrypt(
                secret.encode(), salt=token.salt, n=1 << 14, r=8, p=1, dklen=32
            )
            token.cost = "16384,8,1"
            session.add(token)
    finally:
        database.close()


def _stored_cost(arena: Arena, name: str) -> str:
    rows = query(
        arena.db,
        "SELECT cost FROM author_token JOIN author ON author.id = author_token.author_id "
        f"WHERE author.name = '{name}'",
    )
    return rows[0][0]


def test_a_token_made_with_scrypt_still_works_and_is_rehashed_at_its_first_use(arena: Arena):
    """Tokens made before SHA-256: their wrong secrets are counted before the slow hash (as
    then: a flood costs no scrypt each); a good use stores the token as SHA-256, after which
    wrong secrets count nothing."""
    served = Served(
        Starlette(routes=submission_routes(arena.db, requests=RateLimit("request", 3, 60)))
    )
    try:
        _made_with_scrypt(arena, "alice")
        _made_with_scrypt(arena, "bob")
        forged = arena.tokens["alice"][:-2] + "AA"
        codes = [call(f"{served.url}/api/submissions", forged)[0] for _ in range(4)]
        assert codes == [401] * 3 + [429]  # cut off before a fourth scrypt
        assert _stored_cost(arena, "alice") == "16384,8,1"

        assert call(f"{served.url}/api/submissions", arena.tokens["bob"])[0] == 200
        assert _stored_cost(arena, "bob") == "sha256"  # rehashed
        forged = arena.tokens["bob"][:-2] + "AA"
        codes = [call(f"{served.url}/api/submissions", forged)[0] for _ in range(4)]
        assert codes == [401] * 4  # counted nothing: bob has two requests left
        assert call(f"{served.url}/api/submissions", arena.tokens["bob"])[0] == 200
        assert call(f"{served.url}/api/submissions", arena.tokens["bob"])[0] == 200
        assert call(f"{served.url}/api/submissions", arena.tokens["bob"])[0] == 429
    finally:
        served.stop()


def test_uploads_waiting_are_bounded(arena: Arena, web: Served, tmp_path: Path):
    token = arena.tokens["bob"]
    for number in range(3):
        archive = pack(bot_dir(tmp_path, f"bot-{number}"))
        status, answer, _ = call(upload_url(web, f"bot-{number}"), token, archive)
        assert status == 202 and answer["state"] == "queued"
    status, answer, headers = call(
        upload_url(web, "bot-3"), token, pack(bot_dir(tmp_path, "bot-3"))
    )
    assert status == 429 and "3 not handled yet" in answer["error"] and "retry-after" in headers
    assert len(arena.queued()) == 3 and len(list(arena.files.archives.iterdir())) == 3


@pytest.mark.parametrize(
    "url, message",
    [
        ("http://127.0.0.1:1", "cannot reach the arena"),
        ("ftp://example.org", "give the arena's address, http(s)://HOST[:PORT]"),
    ],
)
def test_an_arena_that_cannot_be_reached_is_one_line(arena: Arena, tmp_path: Path, url, message):
    token = ["--token-file", str(arena.token_files["alice"])]
    result = runner.invoke(app, ["submit", "--to", url, *token, str(bot_dir(tmp_path, "b"))])
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_status_token_file_and_json_need_to(tmp_path: Path):
    for given in (["--status"], ["--json", str(bot_dir(tmp_path, "b"))]):
        result = runner.invoke(app, ["submit", *given])
        assert result.exit_code == 2 and "--status, --token-file and --json go with --to URL" in (
            result.stderr
        )


@pytest.mark.parametrize(
    ("name", "passes"),
    [
        ("victim", True),
        ("random-python", True),
        ("<script>alert(1)</script>", True),  # odd, but it passes for no other name
        ("жук", True),  # one script, not Latin
        ("кот-bot", True),  # a Russian word and a Latin one: к and т look like no ASCII letter
        ("\u03a9mega", True),  # Greek Ω before Latin letters: no Latin name reads so
        ("café", True),  # Latin, accent and all
        ("v\u0456ctim", False),  # Cyrillic і among Latin letters
        ("\u0430\u0440\u0440\u04cf\u0435", False),  # "аррӏе", all Cyrillic: reads as "apple"
        ("v\u0456ct\u00edm", False),  # "vіctím": Latin but for the і, accents aside
        ("\uff56\uff49\uff43\uff54\uff49\uff4d", False),  # fullwidth "ｖｉｃｔｉｍ"
        ("\u0417\u0030\u0030", False),  # Cyrillic З before two zeros: "300"
    ],
)
def test_a_new_name_passes_unless_it_reads_as_a_latin_name_it_is_not(name: str, passes: bool):
    assert (look_alike_problem(name) == "") is passes


@pytest.mark.parametrize(
    ("name", "other", "alike"),
    [
        ("\u0430\u0440\u0440\u04cf\u0435", "apple", True),  # "аррӏе", Cyrillic
        ("appIe", "apple", True),  # a capital I for the l
        ("Apple", "apple", True),  # case: the same bot to a reader
        ("bot1", "botl", True),
        ("\uff56\uff49\uff43\uff54\uff49\uff4d", "victim", True),  # fullwidth
        ("b\u043ebs", "bobs", True),  # a Cyrillic о
        ("appie", "apple", False),
        ("IAMP", "LAMP", False),  # a capital I is an l, but no L
        ("кот-bot", "kot-bot", False),
        ("жук", "жуk", False),
    ],
)
def test_two_names_pass_for_each_other_by_their_skeletons(name: str, other: str, alike: bool):
    assert (look_alike_of(name, ["someone-else", other]) == other) is alike
    assert (look_alike_of(other, [name]) == name) is alike


def test_a_new_name_that_could_pass_for_another_authors_bot_is_refused(
    arena: Arena, web: Served, tmp_path: Path
):
    """ "аррӏе" in Cyrillic letters showed as "apple" on the leaderboard beside another
    author's "apple" (outside review); "кот-bot" passes for no name but was refused."""
    database = open_database(arena.db, create=False)
    with database.write() as session:
        bots.register(
            session, remote_bot("127.0.0.1:1", "apple"), "h", author_id=arena.author_id("bob")
        )
    database.close()
    archive = pack(bot_dir(tmp_path, "a-bot"))
    alice = arena.tokens["alice"]
    status, answer, _ = call(
        upload_url(web, quote("\u0430\u0440\u0440\u04cf\u0435")), alice, archive
    )
    assert status == 409
    assert answer["error"] == (
        "bot name '\u0430\u0440\u0440\u04cf\u0435' could pass for 'apple', another author's bot: "
        "choose another name"
    )
    for name in ("appIe", "Apple"):  # Latin look-alikes: a capital I, a capital A
        status, answer, _ = call(upload_url(web, name), alice, archive)
        assert status == 409 and "could pass for 'apple'" in answer["error"], answer
    arena.nothing_written()
    assert call(upload_url(web, quote("кот-bot")), alice, archive)[0] == 202
    assert call(upload_url(web, "apple"), arena.tokens["bob"], archive)[0] == 202  # his own
    assert [(v.author, v.bot_name) for v in arena.queued()] == [
        ("bob", "apple"),
        ("alice", "кот-bot"),
    ]


def test_a_new_name_that_reads_as_a_latin_name_it_is_not_is_refused_alone(
    arena: Arena, web: Served, tmp_path: Path
):
    """No "apple" exists yet: "аррӏе" would wait for its owner to arrive."""
    archive = pack(bot_dir(tmp_path, "a-bot"))
    alice = arena.tokens["alice"]
    status, answer, _ = call(
        upload_url(web, quote("\u0430\u0440\u0440\u04cf\u0435")), alice, archive
    )
    assert status == 400
    assert "reads as the Latin 'apple'" in answer["error"]
    assert "write it as it reads" in answer["error"]
    status, answer, _ = call(upload_url(web, quote("v\u0456ctim")), alice, archive)
    assert status == 400 and "reads as the Latin 'victim'" in answer["error"]
    arena.nothing_written()
    assert call(upload_url(web, quote("жук")), alice, archive)[0] == 202


def test_a_look_alike_of_another_authors_upload_still_waiting_is_refused(
    arena: Arena, web: Served, tmp_path: Path
):
    archive = pack(bot_dir(tmp_path, "a-bot"))
    assert call(upload_url(web, "apple"), arena.tokens["alice"], archive)[0] == 202  # waits
    for name in ("\u0430\u0440\u0440\u04cf\u0435", "appIe", "Apple"):
        status, answer, _ = call(upload_url(web, quote(name)), arena.tokens["bob"], archive)
        assert status == 409, answer
        assert answer["error"] == (
            f"bot name {name!r} could pass for 'apple', another author's upload not handled "
            "yet: choose another name"
        )
    assert [(v.author, v.bot_name) for v in arena.queued()] == [("alice", "apple")]
    # alice's own look-alike of her own waiting name is hers to choose (a capital I)
    assert call(upload_url(web, "appIe"), arena.tokens["alice"], archive)[0] == 202
