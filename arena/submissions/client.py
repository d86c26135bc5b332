"""``arena submit --to URL``'s side of the upload API (``arena.web.submissions``): send a packed
bot with the author's token, and read back the author's submissions. Plain HTTP(S) from the
standard library; every failure is one line (``SubmitError``) with the server's own words."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from arena.errors import SubmitError
from arena.tokens import PREFIX, parse_token

TOKEN_VARIABLE = "ARENA_TOKEN"
_SECONDS = 60.0


def read_token(token_file: Path | None) -> str:
    """The author's token: from ``token_file``, else $ARENA_TOKEN (never a command-line
    argument, which every user of the machine can read in the process list)."""
    if token_file is not None:
        try:
            text = token_file.read_text().strip()
        except OSError as exc:
            raise SubmitError(f"{token_file}: cannot read the token: {exc.strerror}") from None
        if not text:
            raise SubmitError(f"{token_file}: empty; it should hold the token from the operator")
        return _shaped(text, str(token_file))
    if text := os.environ.get(TOKEN_VARIABLE, "").strip():
        return _shaped(text, f"${TOKEN_VARIABLE}")
    raise SubmitError(
        f"give --token-file FILE (or set ${TOKEN_VARIABLE}): the token the arena's operator "
        "gave you (arena authors add)"
    )


def _shaped(text: str, source: str) -> str:
    """``text`` if it is shaped as a token: anything else would reach the arena as a header it
    refuses without saying why (a second line breaks the request)."""
    if parse_token(text) is None:
        lines = len(text.splitlines())
        raise SubmitError(
            f"{source}: {f'{lines} lines, ' if lines > 1 else ''}not a token; it should hold "
            f"only the token the operator gave you ({PREFIX}_ID_SECRET, one line)"
        )
    return text


def upload(url: str, token: str, bot_name: str, archive: bytes) -> dict[str, Any]:
    """POST the archive as bot ``bot_name``; the server's answer (the queued submission)."""
    query = urllib.parse.urlencode({"bot": bot_name})
    return _call(
        url,
        f"/api/submissions?{query}",
        token,
        data=archive,
        content_type="application/gzip",
    )


def mine(url: str, token: str) -> list[dict[str, Any]]:
    """The token's author's submissions, newest first."""
    return _call(url, "/api/submissions", token)


def my_bots(url: str, token: str) -> list[dict[str, Any]]:
    """The token's author's bots, each with its versions, and why one does not play (withdrawn
    by the operator, paused in a ladder)."""
    return _call(url, "/api/me", token)["bots"]


def _call(
    url: str, path: str, token: str, *, data: bytes | None = None, content_type: str = ""
) -> Any:
    base = url.rstrip("/")
    if urllib.parse.urlsplit(base).scheme not in ("http", "https"):
        raise SubmitError(f"--to {url!r}: give the arena's address, http(s)://HOST[:PORT]")
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    if content_type:
        headers["Content-Type"] = content_type
    request = urllib.request.Request(base + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=_SECONDS) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise SubmitError(f"{base}: {exc.code}: {_reason(exc)}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SubmitError(f"{base}: cannot reach the arena: {reason}") from None
    except (ValueError, RecursionError):  # not JSON, or nested past any answer of an arena's
        raise SubmitError(f"{base}: the answer is not JSON: is this an arena?") from None


def _reason(error: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(error.read())["error"])
    except (ValueError, KeyError, TypeError, OSError, RecursionError):
        return str(error.reason)
