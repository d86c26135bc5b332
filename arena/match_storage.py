"""Storing a game played by ``arena match``: its bots are registered (a new version only when
their code changed; each already answered the match's handshake) and the game is recorded like a
tournament's game, without a tournament, and rated only if asked (``--rated``): a match is
mostly a test of a bot in the making. The web arena then shows it like any other
(``url_if_served`` finds it there)."""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio

from arena.errors import StorageError
from arena.manifest import BotSpec
from arena.records import MatchRecord
from arena.registration import register_spec
from arena.storage.database import open_database
from arena.storage.games import record_game
from arena.storage.target import DatabaseTarget
from arena.tournament.live import LiveGame, LiveGames
from arena.tournament.schedule import ScheduledGame
from arena.web import DEFAULT_HOST, DEFAULT_PORT

# Where ``arena serve`` listens unless told otherwise.
DEFAULT_WEB_URL = f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"
_PROBE_SECONDS = 0.3


def store_match(
    db: DatabaseTarget, record: MatchRecord, bots: Sequence[BotSpec], *, rated: bool = False
) -> int:
    """Record the game in the database ``db`` (created if missing), its Elo updates too if
    ``rated``; returns its id."""
    database = open_database(db, create=True)
    try:
        versions = []
        for spec in bots:
            version_id = register_spec(database, spec)[0].version.id
            assert version_id is not None, "assigned when stored"
            versions.append(version_id)
        # The seat rotations of one seed share its luck: the batch fit resamples them together.
        game_id = record_game(
            database,
            record,
            versions,
            group_key=f"match/{record.game}/{record.seed}",
            rated=rated,
        )
    finally:
        database.close()
    assert game_id is not None, "a game outside a tournament is never a duplicate"
    return game_id


def url_if_served(game_id: int, record: MatchRecord, base: str = DEFAULT_WEB_URL) -> str | None:
    """The game's page when a web arena on ``base`` serves this very game, else None."""
    try:
        with urllib.request.urlopen(
            f"{base}/api/games/{game_id}", timeout=_PROBE_SECONDS
        ) as response:
            shown = json.load(response)
    except (OSError, ValueError):
        return None
    same = shown.get("game") == record.game and [
        seat.get("bot") for seat in shown.get("seats", [])
    ] == [seat.player for seat in record.seats]
    return f"{base}/games/{game_id}" if same else None


class ShownLive:
    """A match being played, shown on the web's /live (``shown_live``)."""

    def __init__(self, games: LiveGames, game: LiveGame) -> None:
        self.games, self.game = games, game

    @property
    def observer(self) -> LiveGame:
        """The referee's observer that follows the game."""
        return self.game

    def stored(self, game_id: int | None) -> None:
        """The game is stored as ``game_id`` (the live page opens its replay)."""
        self.games.ended(self.game, game_id)


@asynccontextmanager
async def shown_live(
    db: DatabaseTarget | None,
    game: str,
    seed: int,
    options: Mapping[str, Any],
    bots: Sequence[BotSpec],
) -> AsyncIterator[ShownLive | None]:
    """The match shown live while it is played, in the database ``db`` (created if missing, as
    storing the game would); None if there is none (``--no-store``). A database that cannot be
    opened, or a file that cannot be written, fails before the game is played, which could not
    be stored (a read-only one was played, then the live view warned and the store failed)."""
    if db is None:
        yield None
        return
    if isinstance(db, Path) and db.exists() and not os.access(db, os.W_OK):
        # (SQLite itself begins a write transaction on a read-only file: only a write fails)
        raise StorageError(
            f"{db}: attempt to write a readonly database (--no-store plays without storing)"
        )
    database = open_database(db, create=True)
    try:
        live = LiveGames(database, None, game, dict(options), [(bot.name, None) for bot in bots])
        try:
            async with trio.open_nursery() as nursery:
                await nursery.start(live.keep)
                seats = tuple(range(len(bots)))
                yield ShownLive(live, live.started(ScheduledGame("match", "", 0, seed, seats)))
                nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            # The match's own error comes out of the nursery wrapped in a group: raised as
            # itself, a bad bot stays a one-line error (the writer's task raises nothing).
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
    finally:
        database.close()
