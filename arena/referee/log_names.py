"""The names of the bots' kept logs (``--bot-logs DIR``), and how much of a directory is one bot's.

A kept log's name holds its bot's name, made safe for a file name: as it is when it is made of
``A-Z a-z 0-9 . _ -`` only, else with the other characters as ``_`` and a digest of the whole
name after a ``~`` (a character no safe name holds). So two bots never share file names:
``my/bot`` and ``my_bot`` would otherwise, and one could then spend the other's log quota.

The names, TIME being when the file was made (``log_sink.stamp``, ``20261203T221503Z``):

* ``SEED-seatN-BOT-TIME.log`` (``-2``, ``-3``... on a clash): a seat's log of one game (``arena
  match``, ``--fresh-bots``);
* ``BOT-TIME-processN.log``: a bot kept up across games (``arena.referee.pool``), and
  ``BOT-TIME-slotK-processN.log`` its copy from a Ray node (``arena.tournament.ray_logs``).

Each is read back unambiguously (``kept_log_bytes``): the seed is digits, TIME has a fixed
form, and a name ends in ``Z.log``, ``-N.log`` or ``-processN.log``.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from arena.referee.log_sink import numbered, stamp

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")
_TIME = r"\d{8}T\d{6}Z"


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


def _pattern(bot_name: str) -> re.Pattern[str]:
    name = re.escape(safe_name(bot_name))
    return re.compile(
        rf"-?\d+-seat\d+-{name}-{_TIME}(?:-\d+)?\.log|{name}-{_TIME}(?:-slot\d+)?-process\d+\.log"
    )


def kept_log_bytes(directory: Path, bot_name: str) -> int:
    """The bytes of ``bot_name``'s logs right in ``directory``: its regular files named as
    above (a link or a subdirectory is not counted, as ``arena logs prune`` leaves them)."""
    pattern = _pattern(bot_name)
    total = 0
    try:
        entries = os.scandir(directory)
    except FileNotFoundError:
        return 0
    with entries:
        for entry in entries:
            if not pattern.fullmatch(entry.name):
                continue
            try:
                info = entry.stat(follow_symlinks=False)
            except FileNotFoundError:  # pruned meanwhile
                continue
            if stat.S_ISREG(info.st_mode):
                total += info.st_size
    return total
