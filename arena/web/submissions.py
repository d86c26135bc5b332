"""The upload API of a hosted arena (``arena submit --to URL``): an author sends a bot's archive
with their token; the web checks the request, stores the archive and queues it. It never
unpacks, builds or runs anything: ``arena submissions work`` does, in the sandbox.

- ``POST /api/submissions?bot=NAME``: the archive (tar.gz or zip) is the request's body; 202
  with the submission's id, or 400 (a bad name, or an archive the unpacking would refuse: it
  is judged member by member here, writing nothing; or a new name that reads as a Latin name
  it is not: ``arena.look_alikes.look_alike_problem``), 401 (no or bad token), 409 (another
  author's bot name, or a new name that could pass for one or for the name of another
  author's upload still waiting: ``arena.look_alikes.look_alike_of``), 413 (too large), 429 (too
  many requests, uploads, or uploads still waiting: Retry-After says when to try again).
  Nothing is stored unless it is 202.
- ``GET /api/submissions``: the token's author's own submissions, newest first, with their
  state and log. Nobody sees another author's.

The token comes as ``Authorization: Bearer TOKEN``. Each token may make
``REQUESTS_PER_MINUTE`` requests and ``UPLOADS_PER_MINUTE`` uploads a minute, counted in the
arena's database (``arena.storage.rate_limits``): every web process of the arena shares them.
Only requests with the whole token count: a wrong secret costs one SHA-256 and counts nothing,
so whoever knows a token's public id cannot use up its author's requests (``authenticated``).
"""

from __future__ import annotations

import functools
import tempfile
import threading
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena import tokens
from arena.manifest import name_problem
from arena.storage import authors, submissions
from arena.storage.database import Database, open_database
from arena.storage.models import Author, AuthorToken
from arena.storage.rate_limits import RateLimit
from arena.storage.target import DatabaseTarget
from arena.submissions.files import HostedFiles
from arena.uploads.unpack import DEFAULT_LIMITS, ArchiveError, UnpackLimits, check

MAX_WAITING = 3  # an author's submissions queued or in progress at once
_CHALLENGE = {"WWW-Authenticate": "Bearer"}
REQUESTS_PER_MINUTE = 30  # per token: status reads and uploads
UPLOADS_PER_MINUTE = 5  # per token


def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


class Refused(Exception):
    """An upload or sign-in refused: its HTTP status, a one-line reason, and headers to send."""

    def __init__(self, status: int, message: str, **headers: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


def _too_many_refused(what: str, seconds: float) -> Refused:
    wait = max(1, round(seconds + 0.5))
    return Refused(429, f"too many {what}; try again in {wait} s", **{"Retry-After": str(wait)})


class UploadDesk:
    """What the upload API and the web's upload form share: the database (opened for writing
    at the first request, so an arena that takes no uploads is never written), where archives
    go, the unpacking's limits and the per-token rate limits."""

    def __init__(
        self,
        db_path: DatabaseTarget,
        *,
        files: HostedFiles | None = None,
        limits: UnpackLimits = DEFAULT_LIMITS,
        requests: RateLimit | None = None,
        uploads: RateLimit | None = None,
    ) -> None:
        self.db_path = db_path
        self.hosted = files or HostedFiles.beside(db_path)
        self.limits = limits
        self.requests = requests or RateLimit("request", REQUESTS_PER_MINUTE, 60.0)
        self.uploads = uploads or RateLimit("upload", UPLOADS_PER_MINUTE, 60.0)
        self._opened: list[Database] = []
        self._opening = threading.Lock()

    def database(self) -> Database:
        with self._opening:
            if not self._opened:
                self._opened.append(open_database(self.db_path, create=False))
            return self._opened[0]

    async def count_request(self, public_id: str) -> None:
        """Count a request made with the token of public id ``public_id``; refused past the
        limit."""
        if (wait := await self._count(self.requests, public_id)) is not None:
            raise _too_many_refused("requests with this token", wait)

    async def authenticated(self, text: str) -> tuple[Author, AuthorToken] | None:
        """The author and the stored token in force that ``text`` (a token's form) is, else
        None; Refused (429) past the token's request limit. A token stored as SHA-256 counts a
        request only once its secret is checked, so wrong secrets neither cost the server a
        slow hash nor use up the author's requests. One stored with scrypt (made before) counts
        it before its slow hash, as then, and is rehashed at its first good use."""
        parsed = tokens.parse_token(text)
        assert parsed is not None, "checked by the caller"
        public_id, secret = parsed

        def stored() -> tuple[Author, AuthorToken] | None:
            with self.database().read() as session:
                return authors.stored_token(session, public_id)

        found = await run_in_threadpool(stored)
        if found is None:
            return None
        token = found[1]
        assert token.id is not None
        slow = tokens.is_slow(token.cost)
        if slow:
            await self.count_request(public_id)
        check = functools.partial(
            tokens.secret_matches, secret, token.salt, token.digest, token.cost
        )
        if not (await run_in_threadpool(check) if slow else check()):
            return None
        if slow:
            await run_in_threadpool(self._rehash, token.id, secret)
        else:
            await self.count_request(public_id)
        return found

    def _rehash(self, token_id: int, secret: str) -> None:
        with self.database().write() as session:
            authors.rehash(session, token_id, secret)

    async def count_upload(self, public_id: str) -> None:
        if (wait := await self._count(self.uploads, public_id)) is not None:
            raise _too_many_refused("uploads", wait)

    async def _count(self, limit: RateLimit, public_id: str) -> float | None:
        return await run_in_threadpool(lambda: limit.retry_after(self.database(), public_id))

    async def bearer(self, request: Request) -> tuple[Author, str]:
        """The author of the request's token (``Authorization: Bearer TOKEN``) and the token's
        public id; Refused (401, or 429 past the rate limit) otherwise."""
        scheme, _, text = request.headers.get("authorization", "").partition(" ")
        parsed = tokens.parse_token(text) if scheme.lower() == "bearer" else None
        if parsed is None:
            if scheme.lower() == "bearer" and text:  # not of a token's form: mistyped, cut
                raise Refused(401, "the token is not valid (revoked, or mistyped)", **_CHALLENGE)
            raise Refused(401, "send the author's token: Authorization: Bearer TOKEN", **_CHALLENGE)
        found = await self.authenticated(text)
        if found is None:
            raise Refused(401, "the token is not valid (revoked, or mistyped)", **_CHALLENGE)
        return found[0], parsed[0]

    def check_name(self, name: str, missing: str = "give the bot's name: ?bot=NAME") -> None:
        """Refused unless ``name`` can name a bot; ``missing`` says where to give one (the API's
        query parameter, the form's field)."""
        if not name:
            raise Refused(400, missing)
        if problem := name_problem(name):
            raise Refused(400, problem)

    def check_size(self, size: int) -> None:
        if size > self.limits.archive_bytes:
            raise Refused(413, f"the archive may have at most {self.limits.archive_bytes} bytes")

    def queue(self, author_id: int, name: str, archive: bytes) -> tuple[int, str]:
        """Check ``archive`` by every rule of the unpacking, then store and queue it as bot
        ``name`` of author ``author_id``: the submission's id and the archive's sha256.
        Refused with nothing stored."""
        with tempfile.NamedTemporaryFile(prefix="arena-upload-") as file:
            file.write(archive)
            file.flush()
            try:  # every rule of the unpacking, writing nothing: a hostile upload ends here
                check(Path(file.name), self.limits)
            except ArchiveError as exc:
                raise Refused(400, str(exc)) from None
        with self.database().write() as session:
            if refused := submissions.name_refused(session, name, author_id):
                raise Refused(*refused)
            waiting = submissions.waiting(session, author_id)
            if waiting >= MAX_WAITING:
                raise _too_many_refused(f"uploads waiting ({waiting} not handled yet)", 60.0)
            digest = self.hosted.store_archive(archive)  # checked: now it may be written
            return submissions.queue(session, author_id, name, digest), digest


def submission_routes(
    db_path: DatabaseTarget,
    *,
    files: HostedFiles | None = None,
    limits: UnpackLimits = DEFAULT_LIMITS,
    requests: RateLimit | None = None,
    uploads: RateLimit | None = None,
    desk: UploadDesk | None = None,
) -> list[Route]:
    """The routes of the upload API over the arena database at ``db_path``, keeping archives in
    ``files`` (default: beside the database, where ``arena submissions work`` looks); rate
    limits per token as given (default: ``REQUESTS_PER_MINUTE``, ``UPLOADS_PER_MINUTE``); or
    all of these as ``desk`` holds them (shared with the web's upload form)."""
    desk = desk or UploadDesk(
        db_path, files=files, limits=limits, requests=requests, uploads=uploads
    )

    async def upload(request: Request) -> Response:
        try:
            author, public_id = await desk.bearer(request)
            name = request.query_params.get("bot", "")
            desk.check_name(name)
            declared = request.headers.get("content-length", "")
            if declared.isascii() and declared.isdigit():  # else the body's size is checked
                desk.check_size(int(declared) if len(declared) < 19 else 2**63)
            await desk.count_upload(public_id)
            body = bytearray()
            async for chunk in request.stream():
                body += chunk
                desk.check_size(len(body))
            assert author.id is not None
            queued = await run_in_threadpool(desk.queue, author.id, name, bytes(body))
        except Refused as refused:
            return _error(refused.status, refused.message, **refused.headers)
        submission_id, digest = queued
        return JSONResponse(
            {"id": submission_id, "bot": name, "state": "queued", "archive_sha256": digest},
            status_code=202,
        )

    async def mine(request: Request) -> Response:
        try:
            author_id = (await desk.bearer(request))[0].id
        except Refused as refused:
            return _error(refused.status, refused.message, **refused.headers)

        def read() -> list[dict[str, object]]:
            with desk.database().read() as session:
                found = submissions.views(session, desk.db_path, author_id=author_id)
                return [view.as_json() for view in found]

        found = await run_in_threadpool(read)
        return JSONResponse(found, headers={"cache-control": "private, no-store"})

    return [
        Route("/api/submissions", upload, methods=["POST"]),
        Route("/api/submissions", mine, methods=["GET"]),
    ]
