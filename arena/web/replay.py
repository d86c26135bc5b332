"""A stored game as frames for the replay viewer, one per decision plus the final position.

Frame ``d`` shows the position before decision ``d``: whose decision it is and its kind, the
legal actions with the chosen one, the bot's comment and time taken, and the views. Watched by
the referee, a frame holds every seat's ``view(seat)``; watched as seat N, it holds ``view(N)``
only, and another seat's legal actions, choice, comment and time are left out (they are not in
N's view). Nothing else of the state ever leaves the server: the browser gets views, built by
the engine, never the state.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from arena.errors import ReplayError
from arena.web.jsonable import JsonConverter
from arena.web.spectator import events_seen
from engine.core import EngineError, GameState
from engine.registry import get_game

_CACHE_LIMIT = 16
_CHUNK_LIMIT = 256


def build_frames(game: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The frames of a stored game (a ``ReadOnlyDatabase.game`` dict) as seen by ``seat``
    (None: the referee, who sees every seat's view)."""
    seats = range(game["num_players"]) if seat is None else (seat,)
    seconds: Sequence[float | None] = game.get("decision_seconds") or []
    comments: Sequence[str] = game.get("comments") or []
    to_json = JsonConverter()
    engine = get_game(game["game"])
    score_seat = 0 if seat is None else seat  # running scores are alike in every seat's view
    frames: list[dict[str, Any]] = []
    scores = []
    told = [0]  # how much of the event log the frames have told

    def events(state: GameState) -> list[dict[str, Any]]:
        """What ``seat`` learnt since the previous frame (the decision log shows it)."""
        seen, told[0] = events_seen(state, seat, told[0]), len(state.event_log)
        return seen

    def add_frame(number: int, state: GameState, index: int) -> None:
        decider = state.current_seat
        frame: dict[str, Any] = {
            "number": number,
            "seat": decider,
            "kind": state.decision_kind,
            "views": {str(s): to_json(state.view(s)) for s in seats},
            "events": events(state),
        }
        scores.append(engine.running_scores(state.view(score_seat)))
        if seat is None or seat == decider:
            legal = state.legal_actions()
            frame.update(
                decision=state.describe_decision(),
                legal=[state.describe_action(action) for action in legal],
                chosen=index,
                action=to_json(legal[index]),
                seconds=seconds[number] if number < len(seconds) else None,
                comment=comments[number] if number < len(comments) else "",
            )
        frames.append(frame)

    try:
        state = engine.replay(
            game["num_players"],
            game["seed"],
            game["actions"],
            game["options"],
            rules_version=game["rules_version"],
            before_each=add_frame,
        )
    except EngineError as exc:
        raise ReplayError(f"game {game['id']} cannot be replayed: {exc}") from None
    frames.append(
        {
            "number": len(game["actions"]),
            "seat": None,
            "kind": "",
            "views": {str(s): to_json(state.view(s)) for s in seats},
            "events": events(state),
            "final": True,
        }
    )
    scores.append(engine.running_scores(state.view(score_seat)))
    result = None
    if state.is_over:
        outcome = state.result()
        result = {
            "scores": list(outcome.scores),
            "ranks": list(outcome.ranks),
            "details": list(outcome.details),
        }
    return {
        "game_id": game["id"],
        "game": game["game"],
        "seat": seat,
        "num_players": game["num_players"],
        "frames": frames,
        "scores": scores,
        "score_label": engine.running_score_label,
        "result": result,
        "has_decision_details": bool(seconds),
    }


class FrameCache:
    """Frames of recently watched games, and their chunks as encoded JSON: stepping, playing
    and seat switching neither replay nor encode again."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frames: OrderedDict[tuple[int, int | None], dict[str, Any]] = OrderedDict()
        self._chunks: OrderedDict[tuple[int, int | None, int, int], bytes] = OrderedDict()

    def chunk(self, game: dict[str, Any], seat: int | None, start: int, count: int) -> bytes:
        """``{"game_id", "seat", "start", "frames"}`` for frames ``start`` .. ``start+count-1``,
        encoded."""
        key = (game["id"], seat, start, count)
        with self._lock:
            body = self._chunks.get(key)
        if body is None:
            replay = self.frames(game, seat)
            body = json.dumps(
                {
                    "game_id": replay["game_id"],
                    "seat": seat,
                    "start": start,
                    "frames": replay["frames"][start : start + count],
                },
                separators=(",", ":"),
            ).encode()
            with self._lock:
                self._chunks[key] = body
                while len(self._chunks) > _CHUNK_LIMIT:
                    self._chunks.popitem(last=False)
        return body

    def frames(self, game: dict[str, Any], seat: int | None) -> dict[str, Any]:
        key = (game["id"], seat)
        with self._lock:
            if key in self._frames:
                self._frames.move_to_end(key)
                return self._frames[key]
        frames = build_frames(game, seat)
        with self._lock:
            self._frames[key] = frames
            while len(self._frames) > _CACHE_LIMIT:
                self._frames.popitem(last=False)
        return frames
