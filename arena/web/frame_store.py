"""The replay viewer's encoded frames on disk, beside the database: a game's frames are built
(replayed and converted, seconds for a long game) once, not at every start of ``arena serve``.
A PostgreSQL database has no "beside": its frames go to the user's cache directory, one per
database (``default_dir``), as they are a cache that each web host may build for itself.

A game's pieces live in ``DIR/<game id>-<key>/``, where the key digests everything the frames
follow from: the stored game's seed, options, actions, times and comments, and the code that
builds them (the game's engine, ``engine.core``, the frame builder). A game stored again under
the same id (another database at the same path) or a changed engine gets another key, so a
stale piece is never served; a directory whose key is not the current one is removed when its
game is next built. Pieces are written to a temporary file and renamed, so a reader sees a
whole piece or none. Writing is best effort: where the directory cannot be written (a
read-only disk), frames stay in memory only.

The directory has a size budget (``max_size``, ``arena serve --frames-max-size``; 1 GiB by
default), counted as ``du`` counts it: any visitor may open any game, and each game viewed
stores its pieces for every seat, so without one a crawler fills the disk in proportion to the
stored games (outside review C, L5). The store keeps a running total of what it wrote, walks the
directory when it starts writing and again every ``_RECOUNT_WRITES`` writes (other processes
may share the directory), and when the total passes the budget it walks it and removes the
least recently used games' directories (a directory's mtime: set by each write in it and, at
most once a minute, when one of its pieces is served) until the rest fit ``_LOW_WATER`` of the
budget. Never the game being written; and a piece is never seen half-written (written to a
temporary file, renamed): a write into a directory removed meanwhile is retried once, else
given up (the piece stays in memory), and a removed game is built again when next viewed.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import engine
from arena.storage.target import DatabaseTarget, PostgresUrl
from arena.web import jsonable
from engine.registry import get_game

FORMAT = "1"  # of the pieces: change it when the frames' JSON changes shape
DEFAULT_MAX_SIZE = 1 << 30  # bytes: about 20,000 short games or 3,500 long ones, every seat
_LOW_WATER = 0.8  # an eviction leaves this share of the budget: it runs once in many writes
_RECOUNT_WRITES = 1_000  # writes between walks of the directory
_TOUCH_SECONDS = 60.0  # a game's use is marked on its directory at most this often
_TOUCHED_LIMIT = 10_000  # games whose last mark this process remembers
log = logging.getLogger(__name__)


def default_dir(database: DatabaseTarget) -> Path:
    """Where the frames of ``database``'s games are kept unless ``arena serve --frames-dir``
    says: ``<db>.frames`` beside a file; ``~/.cache/arena/<host>-<port>-<dbname>.frames`` for a
    PostgreSQL database."""
    if isinstance(database, PostgresUrl):
        return database.local_dir("frames")
    return database.with_name(f"{database.name}.frames")


def game_key(game: dict[str, Any]) -> str:
    """The digest of what a game's frames follow from (see the module's docstring)."""
    content = json.dumps(
        [
            FORMAT,
            _code_digest(game["game"]),
            game["game"],
            game["rules_version"],
            game["num_players"],
            game["seed"],
            game["options"],
            game["actions"],
            game.get("decision_seconds"),
            game.get("comments"),
        ],
        sort_keys=True,
    )
    return hashlib.sha256(content.encode()).hexdigest()[:24]


@cache
def _code_digest(game: str) -> str:
    """A digest of the source of the code that builds a game's frames."""
    source = Path(inspect.getfile(type(get_game(game))))
    package = (source.parent / "__init__.py").is_file()
    files = sorted(source.parent.rglob("*.py")) if package else [source]
    core = Path(engine.__file__).parent
    files += [core / "core.py", core / "parts.py", Path(jsonable.__file__)]
    files.append(Path(__file__).with_name("replay.py"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True)
class StoredGame:
    """A game's directory as a walk of the store found it."""

    name: str
    size: int  # bytes on disk, its pieces and itself
    used: float  # its mtime: the last write in it, or the last use marked (``FrameStore.used``)


def disk_size(status: os.stat_result) -> int:
    """The bytes a file takes on disk (``du``'s count; its length where blocks are unknown)."""
    blocks = getattr(status, "st_blocks", None)
    return status.st_size if blocks is None else blocks * 512


class FrameStore:
    """Pieces (encoded, gzipped bytes) of games' frames under one directory, within
    ``max_size`` bytes (see the module's docstring)."""

    def __init__(self, directory: Path, max_size: int = DEFAULT_MAX_SIZE) -> None:
        self.directory = directory
        self.max_size = max_size
        self._lock = threading.Lock()
        self._walking = False  # a thread walks the directory (under ``_lock``)
        self._walk_again = False  # a write came while it walked
        self._total: int | None = None  # the bytes stored, as far as this process knows
        self._walk_above = max_size  # the total past which the directory is walked again
        self._added_while_walking = 0
        self._writes = 0
        self._touched: dict[str, float] = {}  # game directory -> when its use was last marked

    def _game_dir(self, game: dict[str, Any]) -> Path:
        return self.directory / f"{int(game['id'])}-{game_key(game)}"

    def read(self, game: dict[str, Any], piece: str) -> bytes | None:
        target = self._game_dir(game)
        try:
            body = (target / piece).read_bytes()
        except OSError:
            return None
        self._mark_used(target)
        return body

    def used(self, game: dict[str, Any]) -> None:
        """Mark the game as used now (its pieces were served from memory): the last to go."""
        self._mark_used(self._game_dir(game))

    def _mark_used(self, target: Path) -> None:
        now = time.monotonic()
        with self._lock:
            if now - self._touched.get(target.name, -_TOUCH_SECONDS) < _TOUCH_SECONDS:
                return
            if len(self._touched) >= _TOUCHED_LIMIT:
                self._touched.clear()
            self._touched[target.name] = now
        try:
            os.utime(target)
        except OSError:  # removed meanwhile, or a read-only disk
            pass

    def write(self, game: dict[str, Any], piece: str, body: bytes) -> None:
        target = self._game_dir(game)
        try:
            for attempt in (1, 2):
                try:
                    added = self._write(game, target, piece, body)
                    break
                except FileNotFoundError:  # the directory was removed meanwhile (evicted)
                    if attempt == 2:
                        raise
        except OSError as exc:  # a read-only or full disk: the frames stay in memory
            log.warning("cannot store the frames of game %s in %s: %s", game["id"], target, exc)
            return
        self._count(added, keep=target.name)

    def _write(self, game: dict[str, Any], target: Path, piece: str, body: bytes) -> int:
        """Write one piece; the bytes it added on disk (a new directory's too)."""
        added = 0
        if not target.is_dir():
            self._forget_other_keys(game, keep=target)
            target.mkdir(parents=True, exist_ok=True)
            added += disk_size(target.stat())
        handle, temporary = tempfile.mkstemp(dir=target, prefix=".piece-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(body)
            os.replace(temporary, target / piece)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return added + disk_size((target / piece).stat())

    def _count(self, added: int, keep: str) -> None:
        """Add a write to the running total; walk the directory when due, and remove the least
        recently used games when over the budget. One thread walks at a time: a writer that
        finds one walking leaves it to walk again if need be, and never waits."""
        with self._lock:
            self._writes += 1
            self._added_while_walking += added
            if self._total is not None:
                self._total += added
            if not self._walk_due():
                return
            if self._walking:
                self._walk_again = True
                return
            self._walking = True
        try:
            while True:
                with self._lock:
                    self._added_while_walking = 0
                    self._walk_again = False
                games = self.walk()
                total = sum(one.size for one in games) + self._own_size()
                if total > self.max_size:
                    total -= self._evict(games, total, keep)
                with self._lock:
                    # what was written during the walk may be counted twice: the safe side
                    self._total = total + self._added_while_walking
                    # over the budget still (the game being written is larger than it, a
                    # directory cannot be removed): not a walk at every write
                    slack = int(self.max_size * (1 - _LOW_WATER))
                    over = total > self.max_size
                    self._walk_above = total + slack if over else self.max_size
                    if not (self._walk_again and self._total > self._walk_above):
                        self._walking = False
                        return
        except BaseException:
            with self._lock:
                self._walking = False
            raise

    def _walk_due(self) -> bool:
        """Under ``_lock``: the first write, every ``_RECOUNT_WRITES``-th, or over the budget."""
        return (
            self._total is None
            or self._writes % _RECOUNT_WRITES == 0
            or self._total > self._walk_above
        )

    def _own_size(self) -> int:
        try:
            return disk_size(self.directory.stat())
        except OSError:
            return 0

    def walk(self) -> list[StoredGame]:
        """Every game's directory with its size and last use, least recently used first."""
        found = []
        try:
            with os.scandir(self.directory) as entries:
                for entry in entries:
                    try:
                        if not entry.is_dir(follow_symlinks=False):
                            continue
                        status = entry.stat(follow_symlinks=False)
                        size = disk_size(status)
                        with os.scandir(entry.path) as pieces:
                            for piece in pieces:
                                size += disk_size(piece.stat(follow_symlinks=False))
                    except OSError:  # removed meanwhile
                        continue
                    found.append(StoredGame(entry.name, size, status.st_mtime))
        except OSError:  # no directory yet
            return []
        return sorted(found, key=lambda one: (one.used, one.name))

    def _evict(self, games: list[StoredGame], total: int, keep: str) -> int:
        """Remove the least recently used games (``games`` as ``walk`` found them, ``total``
        their bytes) but ``keep`` until the rest fit the low-water mark; the bytes removed."""
        removed = 0
        for one in games:
            if total - removed <= self.max_size * _LOW_WATER:
                break
            path = self.directory / one.name
            try:  # used since the walk (by another server sharing the directory): kept
                if one.name == keep or path.stat().st_mtime > one.used:
                    continue
            except OSError:  # removed meanwhile
                pass
            shutil.rmtree(path, ignore_errors=True)
            removed += one.size
            with self._lock:
                self._touched.pop(one.name, None)
        if removed:
            log.info(
                "frames: removed %d KB of the least recently viewed games (budget %d KB)",
                removed // 1024,
                self.max_size // 1024,
            )
        return removed

    def _forget_other_keys(self, game: dict[str, Any], keep: Path) -> None:
        """Remove this game id's pieces of older keys (a changed engine, a replaced database).
        Never ``keep``: the background thread storing a game's pieces and a visitor's request
        may both find it missing, and the second must not remove what the first just wrote."""
        if not self.directory.is_dir():
            return
        for stale in self.directory.glob(f"{int(game['id'])}-*"):
            if stale != keep:
                shutil.rmtree(stale, ignore_errors=True)
