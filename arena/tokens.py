"""Authors' API tokens: made, hashed and checked here; stored by ``arena.storage.authors``.

A token reads ``arena_<id>_<secret>``: the id (public, 12 hex characters) finds the one stored
row to check, so checking a token costs one hash, never one per author; the secret (32 random
bytes) is stored only as its salted SHA-256, compared in constant time. A token is printed once,
when it is made: the arena cannot show it again.

SHA-256, not a slow password hash: the secret is 256 random bits, so a stolen database gives no
token away (nobody can search 2**256 secrets, however fast the hash), as with the API keys of
GitHub or Stripe. A slow hash protects guessable passwords; here it only made every request with
a known token id cost the server tens of milliseconds and 16 MiB, which had to be rate-limited
per id *before* the check, so anyone who knew an author's token id could lock the author out.
Tokens made before (scrypt, "N,r,p" in ``cost``) are still checked, and rehashed on first use.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

PREFIX = "arena"
_ID_BYTES = 6
_SECRET_BYTES = 32
_SALT_BYTES = 16
FAST = "sha256"  # the ``cost`` of a token hashed as today; else scrypt's "N,r,p" (older tokens)
_SHAPE = re.compile(rf"{PREFIX}_([0-9a-f]{{{2 * _ID_BYTES}}})_([A-Za-z0-9_-]{{43}})")


@dataclass(frozen=True)
class NewToken:
    """A token just made: ``text`` goes to the author once, the rest is stored."""

    text: str
    public_id: str
    salt: bytes
    digest: bytes
    cost: str  # how ``digest`` was made: ``FAST``


def _scrypt(secret: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(secret.encode(), salt=salt, n=n, r=r, p=p, maxmem=1 << 26, dklen=32)


def _sha256(secret: str, salt: bytes) -> bytes:
    return hashlib.sha256(salt + secret.encode()).digest()


def hashed(secret: str) -> tuple[bytes, bytes, str]:
    """A new salt, and ``secret``'s digest and cost as a token is stored today."""
    salt = secrets.token_bytes(_SALT_BYTES)
    return salt, _sha256(secret, salt), FAST


def make_token() -> NewToken:
    public_id = secrets.token_hex(_ID_BYTES)
    secret = secrets.token_urlsafe(_SECRET_BYTES)
    return NewToken(f"{PREFIX}_{public_id}_{secret}", public_id, *hashed(secret))


def is_slow(cost: str) -> bool:
    """Whether a token stored with ``cost`` costs a slow hash to check (made before SHA-256)."""
    return cost != FAST


def parse_token(text: str) -> tuple[str, str] | None:
    """(public id, secret) of a token's text, None if it is not shaped as a token."""
    match = _SHAPE.fullmatch(text.strip())
    return (match[1], match[2]) if match else None


def secret_matches(secret: str, salt: bytes, digest: bytes, cost: str) -> bool:
    if cost == FAST:
        return hmac.compare_digest(_sha256(secret, salt), digest)
    n, r, p = (int(part) for part in cost.split(","))
    return hmac.compare_digest(_scrypt(secret, salt, n, r, p), digest)
