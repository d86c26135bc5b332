"""A stored game to download: its record as JSON, and its moves as text in the words of
``arena replay ID --moves``. Never its seed (see ``arena.web.app``)."""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import Response

from arena import replay
from arena.storage.models import GameRecord

_RECORD_KEYS = ("actions", "decision_seconds", "comments")
# What replaying a stored game reads of it.
_REPLAYED = (
    "id",
    "game",
    "num_players",
    "seed",
    "actions",
    "options",
    "rules_version",
    "decision_seconds",
    "comments",
)


def record(public: dict[str, Any], game: dict[str, Any]) -> Response:
    """The public game (``/api/games/ID``) with its actions, and each decision's time and
    comment: enough to follow it with the engine's ``describe_action``."""
    body = public | {key: game.get(key) for key in _RECORD_KEYS}
    return _attachment(
        json.dumps(body, indent=1), "application/json", f"game-{int(game['id'])}.json"
    )


def moves(game: dict[str, Any]) -> Response:
    """A heading line for the game and one per seat, then one line per decision."""
    seats = sorted(game["seats"], key=lambda seat: seat["seat"])
    names = [seat["bot"] for seat in seats]
    lines = [
        f"game {game['id']}: {game['game']} ({game['rules_version']}), "
        f"{game['num_players']} players, {len(game['actions'])} decisions, {game['status']}"
    ]
    lines += [
        f"seat {seat['seat']}: {seat['bot']} {seat['version']}, score {seat['score']:g}, "
        f"rank {seat['rank']}, {seat['outcome']}"
        for seat in seats
    ]
    stored = GameRecord(**{key: game[key] for key in _REPLAYED})
    lines += [replay.move_line(move, names) for move in replay.moves(stored)]
    return _attachment(
        "\n".join(lines) + "\n", "text/plain; charset=utf-8", f"game-{int(game['id'])}-moves.txt"
    )


def _attachment(text: str, media_type: str, filename: str) -> Response:
    return Response(
        text,
        media_type=media_type,
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )
