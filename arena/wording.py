"""Words shared by the CLI and the web arena, so both say a thing the same way."""

from __future__ import annotations

import math
from datetime import UTC, datetime


def counted(number: object, noun: str) -> str:
    """ "3 deals", "1 deal" (the web's ``counted`` filter, as its scripts' Arena.count)."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


_BINARY_UNITS = ("KiB", "MiB", "GiB", "TiB")


def size(count: int) -> str:
    """ "512 bytes", "3.4 KiB", "17 MiB", "2 GiB": a number of bytes in the largest binary
    unit it reaches, so that a few KiB of logs do not read "0.0 MiB" (the web's ``size``
    filter)."""
    if count < 1024:
        return counted(count, "byte")
    value = float(count)
    for unit in _BINARY_UNITS:
        value /= 1024
        if value < 1024 or unit == _BINARY_UNITS[-1]:
            break
    # rounded down: a bot's 255.7 MiB of logs under a 256 MiB quota must not read "256 MiB"
    value = math.floor(value * 10) / 10 if value < 10 else math.floor(value)
    number = f"{value:.1f}".removesuffix(".0") if value < 10 else f"{value:,.0f}"
    return f"{number} {unit}"


def utc_time(moment: datetime | str | None, *, seconds: bool = False) -> str:
    """ "2026-12-06 04:26 UTC" (with ``seconds``, "2026-12-06 04:26:36 UTC"), as the CLI writes
    times (its columns say "(UTC)"); "" for None. The arena stores naive UTC times and the web
    gets them as ISO text, with a "T" or a space: a naive one is UTC (the web's ``utc`` filter)."""
    if moment is None or moment == "":
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC" if seconds else "%Y-%m-%d %H:%M UTC")
