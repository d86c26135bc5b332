"""Authors and their tokens: adding an author (with a token, shown once), a new token, revoking,
listing, and finding the author a token belongs to. The tokens' format and hash are
``arena.tokens``'; only their hashes are stored."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from arena import tokens
from arena.errors import InputError
from arena.manifest import name_problem
from arena.storage.models import OPERATOR, Author, AuthorToken, Bot, utc_now


class UnknownAuthorError(InputError, LookupError):
    """No author of that name."""


@dataclass(frozen=True)
class AuthorSummary:
    name: str
    created_at: datetime
    bots: int
    has_token: bool  # a token that is not revoked


def _named(session: Session, name: str) -> Author | None:
    return session.exec(select(Author).where(Author.name == name)).first()


def named(session: Session, name: str) -> Author:
    author = _named(session, name)
    if author is None:
        raise UnknownAuthorError(f"unknown author {name!r} (arena authors list shows them)")
    return author


def add(session: Session, name: str) -> str:
    """Store a new author called ``name``; return their token's text (stored only hashed)."""
    if problem := name_problem(name):
        raise InputError(problem.replace("bot name", "author name", 1))
    if name == OPERATOR:
        raise InputError(f"{OPERATOR!r} is the built-in author of the host's own bots")
    if _named(session, name) is not None:
        raise InputError(
            f"author {name!r} exists already (arena authors token {name} gives a new token)"
        )
    author = Author(name=name)
    session.add(author)
    session.flush()
    return new_token(session, name)


def new_token(session: Session, name: str) -> str:
    """A new token for author ``name``; every earlier token of theirs stops working."""
    author = named(session, name)
    if name == OPERATOR:
        raise InputError(f"{OPERATOR!r} submits on the host itself and has no token")
    revoke(session, name)
    token = tokens.make_token()
    assert author.id is not None
    session.add(
        AuthorToken(
            author_id=author.id,
            public_id=token.public_id,
            salt=token.salt,
            digest=token.digest,
            cost=token.cost,
        )
    )
    session.flush()
    return token.text


def revoke(session: Session, name: str) -> int:
    """Revoke every token of author ``name`` (their bots stay); how many were in force."""
    author = named(session, name)
    live = session.exec(
        select(AuthorToken).where(
            AuthorToken.author_id == author.id, col(AuthorToken.revoked_at).is_(None)
        )
    ).all()
    for token in live:
        token.revoked_at = utc_now()
        session.add(token)
    session.flush()
    return len(live)


def authenticate(session: Session, text: str) -> Author | None:
    """The author whose token in force ``text`` is, else None (unknown, revoked, malformed)."""
    found = token_in_force(session, text)
    return None if found is None else found[0]


def token_in_force(session: Session, text: str) -> tuple[Author, AuthorToken] | None:
    """The author and the stored token that ``text`` is, if it is in force."""
    parsed = tokens.parse_token(text)
    if parsed is None:
        return None
    public_id, secret = parsed
    found = stored_token(session, public_id)
    if found is None:
        return None
    token = found[1]
    return found if tokens.secret_matches(secret, token.salt, token.digest, token.cost) else None


def stored_token(session: Session, public_id: str) -> tuple[Author, AuthorToken] | None:
    """The author and the token in force whose public id is ``public_id``, not checked."""
    row = session.exec(
        select(Author, AuthorToken)
        .join(Author, col(Author.id) == col(AuthorToken.author_id))
        .where(AuthorToken.public_id == public_id, col(AuthorToken.revoked_at).is_(None))
    ).first()
    return None if row is None else (row[0], row[1])


def rehash(session: Session, token_id: int, secret: str) -> None:
    """Store token ``token_id``'s checked ``secret`` as ``arena.tokens`` hashes one today (a
    token made with a slow hash, on its first use since)."""
    token = session.get(AuthorToken, token_id)
    if token is not None and tokens.is_slow(token.cost):
        token.salt, token.digest, token.cost = tokens.hashed(secret)
        session.add(token)


def summaries(session: Session) -> list[AuthorSummary]:
    bot_counts = dict(
        session.exec(select(Bot.author_id, func.count()).group_by(col(Bot.author_id))).all()
    )
    with_token = set(
        session.exec(select(AuthorToken.author_id).where(col(AuthorToken.revoked_at).is_(None)))
    )
    return [
        AuthorSummary(a.name, a.created_at, bot_counts.get(a.id, 0), a.id in with_token)
        for a in session.exec(select(Author).order_by(col(Author.id)))
    ]
