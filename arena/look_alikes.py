"""Bot names that could pass for each other, on an arena strangers share: Unicode's
confusables data (TR39, "Confusable Detection"). A hosted arena refuses a new name that could
pass for another author's (``look_alike_of``, in ``arena.web.submissions`` and
``arena.submissions.worker``) or that reads as a Latin name it is not (``look_alike_problem``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache

# The data is the confusable-homoglyphs library's copy of confusables.txt, where each line maps
# a character to its prototype ("а → a"). One line of it is corrected: CYRILLIC SMALL LETTER
# PALOCHKA maps to "i" there (by way of the dotless ı), but most fonts draw it as its capital,
# a stroke as tall as "l" (to which the capital maps): "аррӏе" showed as "apple" on the
# leaderboard beside the real one (outside review).
_PROTOTYPE_CORRECTIONS = {"\u04cf": "l"}
_LRM = "\u200e"  # the library keeps right-to-left characters as confusables.txt shows them


@cache
def _prototypes() -> dict[int, str]:
    """Each confusable character's prototype (a table for ``str.translate``), built once from
    the library's data. The library keeps each line "X → P" both ways: X lists its prototype P
    alone, P lists every character that maps to it. So a character listing one other is its
    source, unless that one lists it alone too and came first (the library adds X, then P, as it
    reads the line); a prototype is never a source (skeletons are idempotent)."""
    from confusable_homoglyphs import confusables  # its data loads on import: only here, once

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    order = {text: place for place, text in enumerate(data)}
    table: dict[int, str] = {}
    for text, entries in data.items():
        if len(entries) != 1:
            continue  # a prototype several characters map to
        target = entries[0]["c"]
        if len(data[target]) == 1 and order[target] < order[text]:
            continue  # the prototype of one character (X came first)
        source = text.replace(_LRM, "")
        if len(source) == 1:  # one code point, as every source in confusables.txt
            table[ord(source)] = target.replace(_LRM, "")
    table.update((ord(source), target) for source, target in _PROTOTYPE_CORRECTIONS.items())
    return table


@cache
def _non_ascii_prototypes() -> dict[int, str]:
    return {code: target for code, target in _prototypes().items() if code > 0x7F}


def _as_read(text: str, prototypes: dict[int, str]) -> str:
    """``text`` decomposed (NFD), with ``prototypes`` put for its characters, then its
    compatibility forms decomposed too (NFKD: fullwidth "ｔ", superscript "ᵗ" and circled "ⓣ"
    are "t", but the confusables data leaves them to that normalization), then ``prototypes``
    put again (what NFKD gave) and NFD. NFKD comes after the first ``prototypes``: it would
    make the long "ſ" an "s", where the data maps it to the "f" it looks like."""
    mapped = unicodedata.normalize("NFD", text).translate(prototypes)
    mapped = unicodedata.normalize("NFKD", mapped).translate(prototypes)
    return unicodedata.normalize("NFD", mapped)


def skeleton(text: str) -> str:
    """TR39's skeleton of ``text`` (NFD, every character replaced by its prototype, NFD again),
    with compatibility forms decomposed as well (``_as_read``). Two texts that could pass for
    each other have the same: "аррӏе" and "apple", "bot1" and "botl", "ｖｉｃｔｉｍ" and
    "victim". The skeleton is for comparing, not for showing ("victim"'s is "victirn")."""
    return _as_read(text, _prototypes())


@lru_cache(maxsize=1 << 16)  # an arena's names, judged again at each upload
def _look_alike_keys(name: str) -> tuple[str, str]:
    """``name``'s skeleton, and the skeleton of its case-folded form."""
    return skeleton(name), skeleton(name.casefold())


def look_alike_of(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` (``name`` itself too) that ``name`` could pass for, or None: the
    same skeleton ("аррӏе" and "apple", "appIe" with a capital I and "apple"), or the same
    skeleton of the names case-folded ("Apple" and "apple"). Case counts: a stranger's "Apple"
    beside "apple" on a leaderboard, or in a command line, reads as the same bot, the web's
    search finds both for either, and nobody needs it for a bot of their own. Folded only
    before the skeleton, not after: the skeleton maps a capital I to "l", and folding it then
    would make "IAMP" pass for "LAMP"."""
    own = _look_alike_keys(name)
    for other in names:
        keys = _look_alike_keys(other)
        if keys[0] == own[0] or keys[1] == own[1]:
            return other
    return None


def could_pass_for(name: str, other: str, whose: str = "another author's bot") -> str:
    """The reason a new ``name`` is refused when it could pass for ``other`` (``whose``)."""
    return f"bot name {name!r} could pass for {other!r}, {whose}: choose another name"


def _bare(text: str) -> str:
    """``text`` decomposed (NFD) without its combining marks (accents)."""
    return "".join(
        char for char in unicodedata.normalize("NFD", text) if not unicodedata.combining(char)
    )


def look_alike_problem(name: str) -> str:
    """Why a new name, on an arena that strangers share, reads as a Latin name it is not, or "":
    written with letters of other scripts (or fullwidth forms, ...) each of which looks like a
    Latin letter (its prototype, TR39), so that it reads as plain ASCII, accents aside
    ("vіctim" with a Cyrillic і, "аррӏе" all Cyrillic, "ｖｉｃｔｉｍ"). Such a name could pass for
    a Latin name whose owner has not come yet. A name in another script with letters of its own
    ("жук", "кот-bot": к and т have no ASCII look-alike) passes, and so does a Latin one
    ("victim", "café"). That a name could pass for a name taken is ``look_alike_of``'s."""
    if _bare(name).isascii():
        return ""
    reads = _as_read(name, _non_ascii_prototypes())  # its ASCII as it is ("З00": "300")
    if not _bare(reads).isascii():
        return ""
    return (
        f"bot name {name!r} reads as the Latin {unicodedata.normalize('NFC', reads)!r} but is "
        "written with look-alike letters (it could pass for another bot): write it as it reads, "
        "in one script"
    )
