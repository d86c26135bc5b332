"""Bot logs of a tournament on Ray (``--bot-logs DIR`` with ``--ray``): written on the nodes,
sent back with each game's record, written into DIR on the machine running ``arena``.

An actor's bots log into a directory of the actor's own on its node (``NodeLogs``), as a local
referee's bots log into DIR. After each game (and once more when the actor stops) the actor
sends what its logs gained since it last sent, as ``LogPiece``s (file, offset, bytes) beside
the game's record; ``LogWriter`` writes each piece at its offset in DIR. Sending with each game
needs no hook into the bot pool (bots stay up for many games and stop whenever the pool decides)
and keeps the loss small: a node that dies loses only what its bots wrote since its actors' last
games ended, and the game in flight is voided anyway.

Names: a kept-up bot's log is ``BOT-TIME-processN.log`` on the node (``arena.referee.pool``)
and ``BOT-TIME-slotK-processN.log`` in DIR, the process numbers of a slot's later actors (after
a node died) following on from its earlier ones', so no two actors' logs collide. A ``--fresh-bots``
log (``SEED-seatS-BOT-TIME.log``) is already unique per game and keeps its name, as locally.

Bounded: a log is sent up to the bots' file-size limit (``BotLimits.file_mib``), the cap a
local log is held to (``arena.referee.log_sink``), and cut there with a last line saying so.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import shutil
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from arena.tournament.node_dirs import own_directory

LOGS_NAME = "arena-ray-logs"
_ABANDONED_SECONDS = 600.0  # an unheld log directory older than this: its actor died
_KEPT_PROCESS_LOG = re.compile(r"(?P<bot>.+)-process(?P<number>\d+)\.log")

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LogPiece:
    """Bytes of one bot log, from ``offset``: what it gained since the last piece sent."""

    name: str  # the log's file name on the node
    offset: int
    data: bytes


def logs_root() -> Path:
    return Path(tempfile.gettempdir()) / LOGS_NAME


class NodeLogs:
    """An actor's directory of bot logs on its node and how much of each log was sent; held
    (a shared flock) while the actor lives, so another actor's ``sweep`` leaves it alone."""

    def __init__(self, cap_bytes: int, node: str, root: Path | None = None) -> None:
        root = own_directory(root or logs_root(), 0o755)  # not another user's (SetupError)
        sweep(root)  # the directories of actors that died before they could remove theirs
        self.directory = Path(tempfile.mkdtemp(prefix="actor-", dir=root))
        self._held = os.open(self.directory, os.O_RDONLY | os.O_DIRECTORY)
        fcntl.flock(self._held, fcntl.LOCK_SH)
        self.cap = cap_bytes
        self.node = node
        self._sent: dict[str, int] = {}  # bytes sent per log; more than the cap once it is cut
        self._lock = threading.Lock()  # a game's end and the actor's stop may collect at once
        self._closed = False

    def news(self) -> list[LogPiece]:
        """What each log gained since the last call (or ``[]`` once closed)."""
        with self._lock:
            if self._closed:
                return []
            pieces = []
            for path in sorted(self.directory.iterdir()):
                if (piece := self._piece(path)) is not None:
                    pieces.append(piece)
            return pieces

    def _piece(self, path: Path) -> LogPiece | None:
        new = path.name not in self._sent  # sent even if empty: DIR has every log, as locally
        sent = self._sent.get(path.name, 0)
        if sent > self.cap:
            return None  # cut, and said so
        try:
            with open(path, "rb") as log:
                log.seek(sent)
                data = log.read(self.cap - sent + 1)  # one byte more tells it is longer
        except OSError:
            return None
        if len(data) > self.cap - sent:
            data = data[: self.cap - sent] + self._cut_note()
            self._sent[path.name] = self.cap + 1
        else:
            self._sent[path.name] = sent + len(data)
        return LogPiece(path.name, sent, data) if data or new else None

    def _cut_note(self) -> bytes:
        return (
            f"\n[arena: log cut here, at {self.cap >> 20} MiB (the bots' file-size limit), when "
            f"sent from Ray node {self.node}]\n"
        ).encode()

    def close(self) -> None:
        """Remove the directory (after the last ``news``)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            shutil.rmtree(self.directory, ignore_errors=True)
            os.close(self._held)


def sweep(root: Path, now: float | None = None) -> None:
    """Remove the log directories no live actor holds (an actor killed, or its node restarted
    without the temporary directory cleaned); a young one may be an actor's that is only now
    taking its lock."""
    now = time.time() if now is None else now
    for directory in root.iterdir():
        try:
            if directory.stat().st_mtime > now - _ABANDONED_SECONDS:
                continue
            held = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue  # a live actor's
        finally:
            os.close(held)
        shutil.rmtree(directory, ignore_errors=True)


class LogWriter:
    """Writes the pieces the slots' actors send into ``directory`` (``--bot-logs DIR``)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._first_process: dict[int, int] = {}  # per slot: its current actor's process 0
        self._next_process: defaultdict[int, int] = defaultdict(int)  # per slot: a free number
        self._failed = False

    def new_actor(self, slot: int) -> None:
        """The slot has a new actor: its process numbers follow on from the earlier actors'."""
        self._first_process[slot] = self._next_process[slot]

    def name(self, slot: int, node_name: str) -> str:
        """The name in DIR of the slot's current actor's log ``node_name``."""
        kept = _KEPT_PROCESS_LOG.fullmatch(node_name)
        if kept is None:
            return node_name  # a --fresh-bots log: unique per game already
        number = self._first_process.get(slot, 0) + int(kept["number"])
        self._next_process[slot] = max(self._next_process[slot], number + 1)
        return f"{kept['bot']}-slot{slot}-process{number}.log"

    def write(self, slot: int, pieces: list[LogPiece]) -> None:
        """Write each piece at its offset (a piece from 0 starts the file afresh: a game voided
        and played again, as a local run rewrites its log)."""
        for piece in pieces:
            path = self.directory / self.name(slot, piece.name)
            # never through a link planted at the name (O_NOFOLLOW), as the referee's own logs
            flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
            try:
                fd = os.open(path, flags | (0 if piece.offset else os.O_TRUNC), 0o640)
                with os.fdopen(fd, "wb") as log:
                    log.seek(piece.offset)
                    log.write(piece.data)
            except OSError as exc:
                if not self._failed:  # said once; the games go on
                    _log.warning("--bot-logs: cannot write %s: %s", path, exc.strerror or exc)
                self._failed = True
