"""Authors signed in on the web: a session is opened with a token in force, found again by the
cookie's random value (stored only as its sha256) and ends at sign-out, at its expiry or when
the token it was opened with is revoked. Each session has its own CSRF token for the forms."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, timedelta

from sqlmodel import Session, col, delete, select

from arena.storage.models import Author, AuthorToken, WebSession, utc_now

LIFETIME = timedelta(days=7)


@dataclass(frozen=True)
class SignedIn:
    author_id: int
    author: str
    token_public_id: str  # the rate limits count by it, as the upload API does
    csrf: str


def _hash(cookie: str) -> str:
    return hashlib.sha256(cookie.encode()).hexdigest()


def open_session(session: Session, author_id: int, token_id: int) -> str:
    """A new session of author ``author_id``, opened with token ``token_id``: the cookie's
    value (not stored)."""
    cookie = secrets.token_urlsafe(32)
    now = utc_now()
    session.exec(delete(WebSession).where(col(WebSession.expires_at) < now))
    session.add(
        WebSession(
            id_hash=_hash(cookie),
            author_id=author_id,
            token_id=token_id,
            csrf=secrets.token_urlsafe(32),
            expires_at=now + LIFETIME,
        )
    )
    session.flush()
    return cookie


def signed_in(session: Session, cookie: str) -> SignedIn | None:
    """Who the cookie ``cookie`` signs in, if its session is open and its token in force."""
    row = session.exec(
        select(WebSession, Author.name, AuthorToken.public_id)
        .join(Author, col(Author.id) == col(WebSession.author_id))
        .join(AuthorToken, col(AuthorToken.id) == col(WebSession.token_id))
        .where(WebSession.id_hash == _hash(cookie), col(AuthorToken.revoked_at).is_(None))
    ).first()
    if row is None:
        return None
    web_session, name, public_id = row
    # SQLite gives the stored time back without its zone (it was stored in UTC)
    if web_session.expires_at.replace(tzinfo=UTC) <= utc_now():
        return None
    return SignedIn(web_session.author_id, name, public_id, web_session.csrf)


def close_session(session: Session, cookie: str) -> None:
    session.exec(delete(WebSession).where(col(WebSession.id_hash) == _hash(cookie)))
