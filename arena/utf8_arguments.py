"""The arena's arguments are text: it stores, prints and matches them as UTF-8. A byte that is not
UTF-8 (a file name from another encoding, a stray ``$'\\xff'``) reaches Python as a lone
surrogate, and broke deep down with a traceback where it was written to the database; it is
refused here instead, in one line."""

from __future__ import annotations

import os
from collections.abc import Iterable

from arena.errors import InputError


def refuse_non_utf8(texts: Iterable[str], what: str = "argument") -> None:
    """Raise InputError for the first of ``texts`` that holds a byte that is not UTF-8; the
    message shows that byte as ``\\xNN``, as the shell's ``$'...'`` writes it."""
    for text in texts:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(text).decode("utf-8", "backslashreplace")
            raise InputError(
                f"{what} '{shown[:80]}' is not UTF-8 text (check the encoding of the terminal "
                "or the script that gave it)"
            ) from None
