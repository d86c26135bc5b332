"""Text a bot controls (its comments, its gRPC error messages, the lines of its output) made safe
before the arena prints, stores or shows it: one line, no control characters, bounded.

A hostile bot could otherwise split a forfeit reason over many lines, fill the database with it,
or send escape sequences that clear the operator's terminal or retitle its window."""

from __future__ import annotations

import unicodedata

# The longest reason kept: room for what failed, how the process ended, its error line (at most
# 200 characters), the limit it hit and where its log is kept.
REASON_LIMIT = 500


def one_line(text: str, limit: int) -> str:
    """``text`` on one line of at most ``limit`` characters: line breaks and tabs become spaces,
    other control and format characters are written as escapes (``\\x1b``), a cut is marked."""
    cleaned = "".join(_printable(char) for char in text[: limit * 2]).strip()
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


def shown_lines(text: str) -> str:
    """``text`` (a log an author's code wrote) for a terminal, its lines kept: other control and
    format characters are written as escapes (``\\x1b``), so it cannot retitle, clear or hide."""
    return "".join(char if char in "\n\t" else _printable(char) for char in text)


def _printable(char: str) -> str:
    if char.isprintable():
        return char
    if char in "\n\r\t\v\f\x1c\x1d\x1e\x85\u2028\u2029":
        return " "
    if unicodedata.category(char) == "Zs":  # a space isprintable() refuses (U+00A0, ...)
        return " "
    return ascii(char)[1:-1]  # '\x1b', '\u202e'
