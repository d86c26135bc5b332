"""The upload API of a hosted arena (``arena submit --to URL``): an author sends a bot's archive
with their token; the web checks the request, stores the archive and queues it. It never
unpacks, builds or runs anything: ``arena submissions work`` does, in the sandbox.

- ``POST /api/submissions?bot=NAME``: the archive (tar.gz or zip) is the request's body; 202
  with the submission's id, or 400 (a bad name, or an archive the unpacking would refuse: it
  is judged member by member here, writing nothing), 401 (no or bad token), 409
  (another author's bot name), 413 (too large), 429 (too many requests, uploads, or uploads
  still waiting: Retry-After says when to try again). Nothing is stored unless it is 202.
- ``GET /api/submissions``: the token's author's own submissions, newest first, with their
  state and log. Nobody sees another author's.

The token comes as ``Authorization: Bearer TOKEN``. Each token (by its public id, before the
slow hash is paid) may make ``REQUESTS_PER_MINUTE`` requests and ``UPLOADS_PER_MINUTE`` uploads
a minute, counted in this process (one web process per arena, as ``arena serve`` runs it).
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena import tokens
from arena.manifest import name_problem
from arena.storage import authors, bots, submissions
from arena.storage.database import Database, open_database
from arena.storage.models import Author
from arena.submissions.files import HostedFiles
from arena.uploads.unpack import DEFAULT_LIMITS, ArchiveError, UnpackLimits, check

MAX_WAITING = 3  # an author's submissions queued or in progress at once


class RateLimit:
    """At most ``count`` events per key in any ``seconds``: a sliding window per key, in
    memory."""

    _MAX_KEYS = 10_000

    def __init__(
        self, count: int, seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.count = count
        self.seconds = seconds
        self.clock = clock
        self.events: dict[str, deque[float]] = {}

    def retry_after(self, key: str) -> float | None:
        """None and the event counted if ``key`` may go on, else the seconds until it may."""
        now = self.clock()
        if len(self.events) > self._MAX_KEYS:  # forget keys that have been quiet a window
            self.events = {k: e for k, e in self.events.items() if e and e[-1] > now - self.seconds}
        events = self.events.setdefault(key, deque())
        while events and events[0] <= now - self.seconds:
            events.popleft()
        if len(events) >= self.count:
            return events[0] + self.seconds - now
        events.append(now)
        return None


REQUESTS_PER_MINUTE = 30  # per token: status reads and uploads
UPLOADS_PER_MINUTE = 5  # per token


def _error(status: int, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _too_many(what: str, seconds: float) -> JSONResponse:
    wait = max(1, round(seconds + 0.5))
    return _error(429, f"too many {what}; try again in {wait} s", **{"Retry-After": str(wait)})


def submission_routes(
    db_path: Path,
    *,
    files: HostedFiles | None = None,
    limits: UnpackLimits = DEFAULT_LIMITS,
    requests: RateLimit | None = None,
    uploads: RateLimit | None = None,
) -> list[Route]:
    """The routes of the upload API over the arena database at ``db_path``, keeping archives in
    ``files`` (default: beside the database, where ``arena submissions work`` looks); rate
    limits per token as given (default: ``REQUESTS_PER_MINUTE``, ``UPLOADS_PER_MINUTE``)."""
    hosted = files or HostedFiles.beside(db_path)
    archive_bytes = limits.archive_bytes
    requests = requests or RateLimit(REQUESTS_PER_MINUTE, 60.0)
    uploads = uploads or RateLimit(UPLOADS_PER_MINUTE, 60.0)
    opened: list[Database] = []
    opening = threading.Lock()

    def database() -> Database:
        # opened at the first request: a read-only arena that takes no uploads never writes
        with opening:
            if not opened:
                opened.append(open_database(db_path, create=False))
            return opened[0]

    async def authenticated(request: Request) -> tuple[Author, str] | Response:
        """The token's author and the token's public id, or the response that refuses."""
        scheme, _, text = request.headers.get("authorization", "").partition(" ")
        parsed = tokens.parse_token(text) if scheme.lower() == "bearer" else None
        if parsed is None:
            return _error(401, "send the author's token: Authorization: Bearer TOKEN", **_CHALLENGE)
        if (wait := requests.retry_after(parsed[0])) is not None:
            return _too_many("requests with this token", wait)

        def check() -> Author | None:
            with database().read() as session:
                return authors.authenticate(session, text)

        author = await run_in_threadpool(check)
        if author is None:
            return _error(401, "the token is not valid (revoked, or mistyped)", **_CHALLENGE)
        return author, parsed[0]

    async def upload(request: Request) -> Response:
        found = await authenticated(request)
        if isinstance(found, Response):
            return found
        author, public_id = found
        name = request.query_params.get("bot", "")
        if not name:
            return _error(400, "give the bot's name: ?bot=NAME")
        if problem := name_problem(name):
            return _error(400, problem)
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > archive_bytes:
            return _error(413, f"the archive may have at most {archive_bytes} bytes")
        if (wait := uploads.retry_after(public_id)) is not None:
            return _too_many("uploads", wait)
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > archive_bytes:
                return _error(413, f"the archive may have at most {archive_bytes} bytes")
        assert author.id is not None
        return await run_in_threadpool(_queue, author.id, name, bytes(body))

    def _queue(author_id: int, name: str, archive: bytes) -> Response:
        with tempfile.NamedTemporaryFile(prefix="arena-upload-") as file:
            file.write(archive)
            file.flush()
            try:  # every rule of the unpacking, writing nothing: a hostile upload ends here
                check(Path(file.name), limits)
            except ArchiveError as exc:
                return _error(400, str(exc))
        with database().write() as session:
            owner = bots.owner_of(session, name)
            if owner is not None and owner != author_id:
                return _error(409, f"bot name {name!r} belongs to another author")
            waiting = submissions.waiting(session, author_id)
            if waiting >= MAX_WAITING:
                return _too_many(f"uploads waiting ({waiting} not handled yet)", 60.0)
            digest = hosted.store_archive(archive)  # checked: now it may be written
            submission_id = submissions.queue(session, author_id, name, digest)
        return JSONResponse(
            {"id": submission_id, "bot": name, "state": "queued", "archive_sha256": digest},
            status_code=202,
        )

    async def mine(request: Request) -> Response:
        found = await authenticated(request)
        if isinstance(found, Response):
            return found
        author_id = found[0].id

        def read() -> list[dict[str, object]]:
            with database().read() as session:
                return [v.as_json() for v in submissions.views(session, author_id=author_id)]

        return JSONResponse(await run_in_threadpool(read))

    return [
        Route("/api/submissions", upload, methods=["POST"]),
        Route("/api/submissions", mine, methods=["GET"]),
    ]


_CHALLENGE = {"WWW-Authenticate": "Bearer"}
