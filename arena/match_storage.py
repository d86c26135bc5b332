"""Storing a game played by ``arena match``: its bots are registered (a new version only when
their code changed; each already answered the match's handshake) and the game is recorded like a
tournament's game, without a tournament, and rated only if asked (``--rated``): a match is
mostly a test of a bot in the making. The web arena then shows it like any other
(``url_if_served`` finds it there)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from arena.manifest import BotSpec
from arena.records import MatchRecord
from arena.registration import register_spec
from arena.storage.database import open_database
from arena.storage.games import record_game
from arena.web import DEFAULT_HOST, DEFAULT_PORT

# Where ``arena serve`` listens unless told otherwise.
DEFAULT_WEB_URL = f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"
_PROBE_SECONDS = 0.3


def store_match(
    db: Path, record: MatchRecord, bots: Sequence[BotSpec], *, rated: bool = False
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
