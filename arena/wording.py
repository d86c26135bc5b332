"""Words shared by the CLI and the web arena, so both say a thing the same way."""

from __future__ import annotations


def counted(number: object, noun: str) -> str:
    """ "3 deals", "1 deal" (the web's ``counted`` filter, as its scripts' Arena.count)."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
