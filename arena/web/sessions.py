"""Signing in on the web with an author's token, and what every private page and form checks.

- ``GET /signin`` shows the form, ``POST /signin`` checks the token (rate-limited per token, as
  the upload API is) and opens a session: its random id goes in an ``HttpOnly``,
  ``SameSite=Lax`` cookie, ``Secure`` when the request came over HTTPS (uvicorn takes the
  scheme from a trusted proxy's ``X-Forwarded-Proto``; docs/hosting.md). ``POST /signout``
  ends it.
- Sessions are rows in the database (``arena.storage.web_sessions``), not cookies signed with a
  server secret: signing out, or revoking the token, ends a session at once, and there is no
  secret to keep beside the database.
- CSRF: every form carries a hidden ``csrf`` field. Signed in, it is the session's own token
  (stored with it); the sign-in form, before any session, has a double-submit token (a cookie
  and the field must agree). SameSite alone leaves old browsers and same-site pages out.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from arena import tokens
from arena.storage import web_sessions
from arena.storage.web_sessions import SignedIn
from arena.web.submissions import Refused, UploadDesk

SESSION_COOKIE = "arena_session"
SIGNIN_COOKIE = "arena_signin"  # the sign-in form's double-submit CSRF token
_FORM_SLACK = 64 * 1024  # a form's fields and multipart framing, beyond the archive

Render = Callable[..., Response]
Private = Callable[[Request, SignedIn, FormData | None], Awaitable[Response]]


def _cookie(response: Response, request: Request, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _forget(response: Response, request: Request, name: str) -> None:
    response.delete_cookie(
        name, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


def _same(given: object, expected: str | None) -> bool:
    return (
        isinstance(given, str)
        and expected is not None
        and hmac.compare_digest(given.encode(), expected.encode())
    )


class WebAuth:
    """Who is signed in, and the checks of the private pages and forms."""

    def __init__(self, desk: UploadDesk) -> None:
        self.desk = desk

    async def signed_in(self, request: Request) -> SignedIn | None:
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            return None

        def find() -> SignedIn | None:
            with self.desk.database().read() as session:
                return web_sessions.signed_in(session, cookie)

        return await run_in_threadpool(find)

    async def form(self, request: Request, *, files: bool = True) -> FormData:
        """The request's form, its size bounded before it is read: an upload's archive at
        most (as the API takes), or without ``files`` a few fields."""
        declared = request.headers.get("content-length", "")
        if not (declared.isascii() and declared.isdigit() and len(declared) < 19):
            raise HTTPException(411, "a form must say its length (Content-Length)")
        if not files and int(declared) > _FORM_SLACK:
            raise HTTPException(413, f"a form may have at most {_FORM_SLACK} bytes")
        if int(declared) > self.desk.limits.archive_bytes + _FORM_SLACK:
            raise HTTPException(
                413, f"the archive may have at most {self.desk.limits.archive_bytes} bytes"
            )
        return await request.form(max_files=1 if files else 0, max_fields=8)

    def private(self, handler: Private) -> Callable[[Request], Awaitable[Response]]:
        """``handler`` for a signed-in author only: a signed-out visitor is sent to sign in
        (a page) or refused (JSON: 401, a form: 403); a form's ``csrf`` field must be the
        session's. What it answers is never stored by a browser or a proxy: the Back button
        after signing out showed the author's page again (outside review)."""

        async def checked(request: Request) -> Response:
            response = await answered(request)
            response.headers["cache-control"] = "private, no-store"
            return response

        async def answered(request: Request) -> Response:
            if request.method in ("GET", "HEAD") and "authorization" in request.headers:
                # A script reads its author's JSON with the token, as the upload API takes it
                # (a bad token: 401); forms need the session and its CSRF token.
                try:
                    author, public_id = await self.desk.bearer(request)
                except Refused as refused:
                    raise HTTPException(refused.status, refused.message, refused.headers) from None
                assert author.id is not None
                return await handler(request, SignedIn(author.id, author.name, public_id, ""), None)
            who = await self.signed_in(request)
            if request.method in ("GET", "HEAD"):
                if who is None and request.url.path.startswith("/api/"):
                    raise HTTPException(401, "sign in first (/signin)")
                if who is None:
                    return RedirectResponse("/signin", status_code=303)
                return await handler(request, who, None)
            if who is None:
                raise HTTPException(403, "sign in first")
            form = await self.form(request)
            if not _same(form.get("csrf"), who.csrf):
                raise HTTPException(403, "the form's CSRF token is missing or wrong; reload it")
            return await handler(request, who, form)

        return checked


def session_routes(auth: WebAuth, render: Render) -> list[Route]:
    """/signin (the form and its POST) and /signout; ``render(template, title, data, ...)``."""
    desk = auth.desk

    def signin_form(request: Request, status: int = 200, error: str | None = None) -> Response:
        csrf = secrets.token_urlsafe(32)
        response = render("signin.html", "Sign in", {}, csrf=csrf, error=error)
        response.status_code = status
        _cookie(response, request, SIGNIN_COOKIE, csrf, max_age=3600)
        return response

    async def signin_page(request: Request) -> Response:
        if await auth.signed_in(request) is not None:
            return RedirectResponse("/me", status_code=303)
        return signin_form(request)

    async def signin(request: Request) -> Response:
        form = await auth.form(request, files=False)
        if not _same(form.get("csrf"), request.cookies.get(SIGNIN_COOKIE)):
            raise HTTPException(403, "the form's CSRF token is missing or wrong; reload it")
        given = form.get("token")
        text = given if isinstance(given, str) else ""
        parsed = tokens.parse_token(text)
        if parsed is None:
            return signin_form(request, 401, "that is not an arena token (arena_<id>_<secret>)")
        try:
            found = await desk.authenticated(text)  # counted as the upload API counts
        except Refused as refused:
            raise HTTPException(refused.status, refused.message, refused.headers) from None
        if found is None:
            return signin_form(request, 401, "the token is not valid (revoked, or mistyped)")
        author_id, token_id = found[0].id, found[1].id
        assert author_id is not None and token_id is not None

        def open_session() -> str:
            with desk.database().write() as session:
                return web_sessions.open_session(session, author_id, token_id)

        cookie = await run_in_threadpool(open_session)
        response = RedirectResponse("/me", status_code=303)
        _cookie(
            response, request, SESSION_COOKIE, cookie, int(web_sessions.LIFETIME.total_seconds())
        )
        _forget(response, request, SIGNIN_COOKIE)
        return response

    async def signout(request: Request, who: SignedIn, form: Any) -> Response:
        cookie = request.cookies.get(SESSION_COOKIE, "")

        def close() -> None:
            with desk.database().write() as session:
                web_sessions.close_session(session, cookie)

        await run_in_threadpool(close)
        response = RedirectResponse("/leaderboard", status_code=303)
        _forget(response, request, SESSION_COOKIE)
        return response

    return [
        Route("/signin", signin_page, methods=["GET"]),
        Route("/signin", signin, methods=["POST"]),
        Route("/signout", auth.private(signout), methods=["POST"]),
    ]
