"""Authors' API tokens: made, hashed and checked here; stored by ``arena.storage.authors``.

A token reads ``arena_<id>_<secret>``: the id (public, 12 hex characters) finds the one stored
row to check, so checking a token costs one hash, never one per author; the secret (32 random
bytes) is stored only as its scrypt hash with a salt of its own, compared in constant time. A
token is printed once, when it is made: the arena cannot show it again.

scrypt (the standard library's) rather than a plain sha256: a stolen database must not give the
tokens away, and the price of one check (about 16 MiB and tens of milliseconds) is paid once per
API request, not per author.
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
# scrypt's cost: N=2^14, r=8 (16 MiB of memory per check), p=1; stored with each hash so that
# raising it later leaves the hashes already stored checkable.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 1 << 14, 8, 1
_SHAPE = re.compile(rf"{PREFIX}_([0-9a-f]{{{2 * _ID_BYTES}}})_([A-Za-z0-9_-]{{43}})")


@dataclass(frozen=True)
class NewToken:
    """A token just made: ``text`` goes to the author once, the rest is stored."""

    text: str
    public_id: str
    salt: bytes
    digest: bytes
    cost: str  # "N,r,p" of the scrypt that made ``digest``


def _scrypt(secret: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(secret.encode(), salt=salt, n=n, r=r, p=p, maxmem=1 << 26, dklen=32)


def make_token() -> NewToken:
    public_id = secrets.token_hex(_ID_BYTES)
    secret = secrets.token_urlsafe(_SECRET_BYTES)
    salt = secrets.token_bytes(_SALT_BYTES)
    return NewToken(
        f"{PREFIX}_{public_id}_{secret}",
        public_id,
        salt,
        _scrypt(secret, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P),
        f"{SCRYPT_N},{SCRYPT_R},{SCRYPT_P}",
    )


def parse_token(text: str) -> tuple[str, str] | None:
    """(public id, secret) of a token's text, None if it is not shaped as a token."""
    match = _SHAPE.fullmatch(text.strip())
    return (match[1], match[2]) if match else None


def secret_matches(secret: str, salt: bytes, digest: bytes, cost: str) -> bool:
    n, r, p = (int(part) for part in cost.split(","))
    return hmac.compare_digest(_scrypt(secret, salt, n, r, p), digest)
