"""The names of the bots' kept logs (``--bot-logs DIR``), and how much of a directory is one bot's.

A kept log's name holds its bot's name, made safe for a file name: as it is when it is made of
``A-Z a-z 0-9 . _ -`` only, else with the other characters as ``_`` and a digest of the whole
name after a ``~`` (a character no safe name holds). So two bots never share file names:
``my:bot`` and ``my_bot`` would otherwise, and one could then spend the other's log quota.

The names, TIME being when the file was made (``stamp``, ``20261203T221503Z``):

* ``SEED-seatN-BOT-TIME.log`` (``-2``, ``-3``... on a clash): a seat's log of one game (``arena
  match``, ``--fresh-bots``);
* ``BOT-TIME-processN.log``: a bot kept up across games (``arena.referee.pool``), and
  ``BOT-TIME-slotK-processN.log`` its copy from a Ray node (``arena.tournament.ray_logs``).

Each is read back unambiguously (``bot_of``): the seed is digits, TIME has a fixed form, and a
name ends in ``Z.log``, ``-N.log`` or ``-processN.log``.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import stat
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# All of a bot's kept logs in one directory together, by default (``BotLimits.logs_mib``).
QUOTA_MIB = 256
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
_TIME = r"\d{8}T\d{6}Z"


def stamp() -> str:
    """The time in a log's name (UTC, to the second): no later log reuses a pruned one's name."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def numbered(stem: str) -> Iterator[str]:
    """``STEM.log``, then ``STEM-2.log``, ``STEM-3.log``...: candidate names for ``create_log``."""
    yield f"{stem}.log"
    for number in itertools.count(2):
        yield f"{stem}-{number}.log"


def safe_name(bot_name: str) -> str:
    """``bot_name`` as it appears in its logs' names (no two bots' alike)."""
    if not _UNSAFE.search(bot_name):
        return bot_name
    digest = hashlib.blake2b(bot_name.encode(), digest_size=8).hexdigest()
    return f"{_UNSAFE.sub('_', bot_name)}~{digest}"


def kept_log_names(game_seed: int, seat: int, bot_name: str) -> Iterator[str]:
    """The candidate file names of a seat's kept log (``log_sink.create_log`` takes the first
    free one): the game seed, seat and bot, and the time, so that a game played again with the
    same seed gets a file of its own."""
    return numbered(f"{game_seed}-seat{seat}-{safe_name(bot_name)}-{stamp()}")


def kept_process_log_name(bot_name: str, time: str, start: int) -> str:
    """The kept log of a bot that stays up: one per process, as several games write to it;
    ``start`` numbers the pool's process starts and ``time`` is the pool's (``stamp()``), so a
    later run never takes an earlier run's name."""
    return f"{safe_name(bot_name)}-{time}-process{start}.log"


_KEPT_LOG = re.compile(
    rf"-?\d+-seat\d+-(?P<seat_bot>.+)-{_TIME}(?:-\d+)?\.log"
    rf"|(?P<process_bot>.+)-{_TIME}(?:-slot\d+)?-process\d+\.log"
)


def bot_of(file_name: str) -> str | None:
    """Whose kept log ``file_name`` is (the bot's name as ``safe_name`` gives it), or None for
    a file named otherwise."""
    if (kept := _KEPT_LOG.fullmatch(file_name)) is None:
        return None
    return kept["seat_bot"] or kept["process_bot"]


@dataclass
class BotLogs:
    files: int = 0
    size: int = 0


def _kept_files(directory: Path) -> Iterator[tuple[str, str, os.stat_result]]:
    """(bot as ``safe_name`` gives it, file name, status) of each kept log right in
    ``directory``: regular files named as above (a link or a subdirectory is not one, as
    ``arena logs prune`` leaves them)."""
    try:
        entries = os.scandir(directory)
    except FileNotFoundError:
        return
    with entries:
        for entry in entries:
            if (bot := bot_of(entry.name)) is None:
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except FileNotFoundError:  # pruned meanwhile
                continue
            if stat.S_ISREG(info.st_mode):
                yield bot, entry.name, info


def kept_logs(directory: Path) -> dict[str, BotLogs]:
    """The kept logs right in ``directory`` by bot (as ``safe_name`` gives it)."""
    logs: defaultdict[str, BotLogs] = defaultdict(BotLogs)
    for bot, _, info in _kept_files(directory):
        logs[bot].files += 1
        logs[bot].size += info.st_size
    return dict(logs)


def logs_of(directory: Path, bot_name: str) -> list[tuple[str, os.stat_result]]:
    """``bot_name``'s own kept logs right in ``directory`` (file name, status): those whose
    name reads back as exactly its safe name, never a log of a bot whose name only begins or
    ends like it."""
    own = safe_name(bot_name)
    return [(name, info) for bot, name, info in _kept_files(directory) if bot == own]


def kept_log_bytes(directory: Path, bot_name: str) -> int:
    """The bytes of ``bot_name``'s kept logs right in ``directory``."""
    return kept_logs(directory).get(safe_name(bot_name), BotLogs()).size
