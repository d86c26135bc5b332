"""Kept bot logs' names without the time each began (``arena.referee.log_sink.stamp``), for
tests that name the log they expect."""

from __future__ import annotations

import re


def unstamped(log_name: str) -> str:
    return re.sub(r"-\d{8}T\d{6}Z", "", log_name)
