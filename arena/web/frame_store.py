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
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import os
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import engine
from arena.storage.target import DatabaseTarget, PostgresUrl
from arena.web import jsonable
from engine.registry import get_game

FORMAT = "1"  # of the pieces: change it when the frames' JSON changes shape
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


class FrameStore:
    """Pieces (encoded, gzipped bytes) of games' frames under one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _game_dir(self, game: dict[str, Any]) -> Path:
        return self.directory / f"{int(game['id'])}-{game_key(game)}"

    def read(self, game: dict[str, Any], piece: str) -> bytes | None:
        try:
            return (self._game_dir(game) / piece).read_bytes()
        except OSError:
            return None

    def write(self, game: dict[str, Any], piece: str, body: bytes) -> None:
        target = self._game_dir(game)
        try:
            if not target.is_dir():
                self._forget_other_keys(game, keep=target)
                target.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=target, prefix=".piece-")
            with os.fdopen(handle, "wb") as file:
                file.write(body)
            os.replace(temporary, target / piece)
        except OSError as exc:  # a read-only or full disk: the frames stay in memory
            log.warning("cannot store the frames of game %s in %s: %s", game["id"], target, exc)

    def _forget_other_keys(self, game: dict[str, Any], keep: Path) -> None:
        """Remove this game id's pieces of older keys (a changed engine, a replaced database).
        Never ``keep``: the background thread storing a game's pieces and a visitor's request
        may both find it missing, and the second must not remove what the first just wrote."""
        if not self.directory.is_dir():
            return
        for stale in self.directory.glob(f"{int(game['id'])}-*"):
            if stale != keep:
                shutil.rmtree(stale, ignore_errors=True)
