"""What of a forfeit reason anyone may read.

A reason (made by ``arena.referee``) is one line of parts joined by "; ": what failed, how the
bot's process ended, the bot's own error line or last output, the limit it hit, where its log
is kept. The bot's own words (its error line, its output, the details of a gRPC error it
raised) are its author's, and the log's path is the host's: a hosted bot's could carry its
strategy, a stack trace or a secret into a public page. ``public_reason`` keeps the arena's own
words: what failed, the exit, the limit. The full reason stays with the operator (what the
CLI prints and reads: ``arena.storage.read_only.ReadOnlyDatabase`` unless ``public``) and with
the bot's author (``/me``)."""

from __future__ import annotations

import re

# "Decide failed: UNKNOWN: Exception calling application: <the bot's message>"
_CALL_FAILED = re.compile(r"^(.*?\bfailed: [A-Z_]+)(?:: .*)?$")
# Parts the bot's own words begin; everything after one of them is kept only if it is one of
# the arena's (_ARENA_PARTS): a bot's line may hold "; " itself.
_BOT_WORDS = ("error: ", "last output: ", "log: ")
_ARENA_PARTS = re.compile(
    r"process (?:exited with code -?\d+|killed by SIG[A-Z0-9]+)"
    r"|out of memory under the \d+ MiB (?:memory|address-space) limit"
    r"(?: \(all its processes together\))?"
    r"|a file it wrote reached the \d+ MiB file-size limit"
    r"|it filled [\w /.-]+ to the \d+ MiB disk limit"
)


def public_reason(reason: str) -> str:
    """``reason`` without the bot's own words and the host's paths (module docstring)."""
    parts = reason.split("; ")
    what = _CALL_FAILED.sub(r"\1", parts[0])
    kept, quoting = [what], what != parts[0]  # the bot's details may hold "; " too
    for part in parts[1:]:
        quoting = quoting or part.startswith(_BOT_WORDS)
        if not quoting or _ARENA_PARTS.fullmatch(part):
            kept.append(part)
    return "; ".join(kept)


def authors_reason(reason: str) -> str:
    """``reason`` as the bot's author reads it (their own pages): whole but for the host's
    path of the log, which the page links instead."""
    return "; ".join(part for part in reason.split("; ") if not part.startswith("log: "))
