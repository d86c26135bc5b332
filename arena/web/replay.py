"""A stored game as frames for the replay viewer, one per decision plus the final position.

Frame ``d`` shows the position before decision ``d``: whose decision it is and its kind, the
legal actions with the chosen one, the bot's comment and time taken, and the views. Watched by
the referee, a frame holds every seat's ``view(seat)``; watched as seat N, it holds ``view(N)``
only, and another seat's legal actions, choice, comment and time are left out (they are not in
N's view). Nothing else of the state ever leaves the server: the browser gets views, built by
the engine, never the state.
"""

from __future__ import annotations

import gzip
import json
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from arena.errors import ReplayError
from arena.web.decision_log import decision_log
from arena.web.frame_store import FrameStore, game_key
from arena.web.jsonable import JsonConverter
from arena.web.spectator import events_seen
from engine.core import EngineError, GameState
from engine.registry import get_game

log = logging.getLogger(__name__)
_CACHE_LIMIT = 4  # games' built frames (a long one holds tens of MB)
_PIECE_LIMIT = 1024  # gzipped pieces: a long game's chunk is about 20 KB


def build_frames(game: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The frames of a stored game (a ``ReadOnlyDatabase.game`` dict) as seen by ``seat``
    (None: the referee, who sees every seat's view)."""
    replay = raw_frames(game, seat)
    if seat is None:
        replay = seat_frames(replay, None)  # without each seat's events
    return replay | {"frames": converter()(replay["frames"])}


def converter() -> Callable[[list[dict[str, Any]]], list[dict[str, Any]]]:
    """Converts frames of ``raw_frames`` to JSON values; one per game (its memory of the parts
    it converted serves every chunk of the game)."""
    to_json = JsonConverter()

    def convert(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            frame
            | {"views": {seat: to_json(view) for seat, view in frame["views"].items()}}
            | ({"action": to_json(frame["action"])} if "action" in frame else {})
            for frame in frames
        ]

    return convert


def raw_frames(game: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """``build_frames`` with the views and actions as the engine made them: converting them to
    JSON costs more than replaying, so the viewer converts only the chunks it sends."""
    seats = range(game["num_players"]) if seat is None else (seat,)
    seconds: Sequence[float | None] = game.get("decision_seconds") or []
    comments: Sequence[str] = game.get("comments") or []
    engine = get_game(game["game"])
    score_seat = 0 if seat is None else seat  # running scores are alike in every seat's view
    frames: list[dict[str, Any]] = []
    scores = []
    told = [0]  # how much of the event log the frames have told

    def events(state: GameState) -> dict[str, Any]:
        """What the viewer learnt since the previous frame (the decision log shows it); the
        referee's frames also hold what each seat learnt, for ``seat_frames`` to cut."""
        since, told[0] = told[0], len(state.event_log)
        seen: dict[str, Any] = {"events": events_seen(state, seat, since)}
        if seat is None:
            seen["seat_events"] = {str(s): events_seen(state, s, since) for s in seats}
        return seen

    def add_frame(number: int, state: GameState, index: int) -> None:
        decider = state.current_seat
        frame: dict[str, Any] = {
            "number": number,
            "seat": decider,
            "kind": state.decision_kind,
            "views": {str(s): state.view(s) for s in seats},
            **events(state),
        }
        scores.append(engine.running_scores(state.view(score_seat)))
        if seat is None or seat == decider:
            legal = state.legal_actions()
            frame.update(
                decision=state.describe_decision(),
                legal=[state.describe_action(action) for action in legal],
                chosen=index,
                action=legal[index],
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
            "views": {str(s): state.view(s) for s in seats},
            **events(state),
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


def seat_frames(referee: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The frames as seen by ``seat``, from the referee's: that seat's view only, and another
    seat's decision (legal actions, choice, comment, time) left out; exactly what
    ``build_frames(game, seat)`` builds, without replaying the game again."""
    if seat is None:
        frames = [_without(frame, "seat_events") for frame in referee["frames"]]
        return referee | {"frames": frames}
    key = str(seat)
    frames = []
    for frame in referee["frames"]:
        mine = frame["seat"] == seat or frame.get("final")
        shown = (
            _without(frame, "seat_events")
            if mine
            else {name: frame[name] for name in _PUBLIC_FRAME_KEYS}
        )
        frames.append(
            shown | {"views": {key: frame["views"][key]}, "events": frame["seat_events"][key]}
        )
    return referee | {"seat": seat, "frames": frames}


def _without(frame: dict[str, Any], name: str) -> dict[str, Any]:
    return {key: value for key, value in frame.items() if key != name}


_PUBLIC_FRAME_KEYS = ("number", "seat", "kind")


def outline(replay: dict[str, Any], chunk: int) -> dict[str, Any]:
    """The replay without its frames: per frame who decides and what kind, and the time it took
    where the frame holds it (a seat's frames hold its own decisions' times only); the score
    series, the result; the frames come in chunks of ``chunk``."""
    return {key: value for key, value in replay.items() if key != "frames"} | {
        "outline": [
            {"seat": frame["seat"], "kind": frame["kind"], "seconds": frame.get("seconds")}
            for frame in replay["frames"]
        ],
        "chunk": chunk,
    }


def _encoded(value: Any) -> bytes:
    return gzip.compress(json.dumps(value, separators=(",", ":")).encode(), compresslevel=6)


STORING_THREAD = "arena-web-frames"  # the threads storing a game's pieces (a test waits for them)


class FrameCache:
    """A game's frames, built once (as the referee: each seat's are cut from them) and kept as
    gzipped JSON pieces, the outline and the chunks of ``chunk`` frames per seat: in memory,
    and on disk in ``store`` when there is one, so that a restarted server does not replay the
    game again. Stepping, playing and seat switching neither replay nor encode again."""

    def __init__(self, store: FrameStore | None = None, chunk: int = 50) -> None:
        self.store = store
        self.chunk_size = chunk
        self._lock = threading.Lock()
        self._building = threading.Lock()  # one build at a time: a second visitor waits for it
        self._converting = threading.Lock()
        # A game's raw frames (``raw_frames``) with its converter, by (id, key).
        self._frames: OrderedDict[tuple[int, str], tuple[dict[str, Any], Any]] = OrderedDict()
        self._pieces: OrderedDict[tuple[int, str, str], bytes] = OrderedDict()

    def outline(self, game: dict[str, Any], seat: int | None) -> bytes:
        """The gzipped outline (``outline()``) as ``seat`` sees it."""
        return self._piece(game, seat, "outline")

    def log(self, game: dict[str, Any], seat: int | None) -> bytes:
        """The gzipped decision log (``decision_log``) as ``seat`` sees it."""
        return self._piece(game, seat, "log")

    def chunk(self, game: dict[str, Any], seat: int | None, start: int, count: int) -> bytes:
        """Gzipped ``{"game_id", "seat", "start", "frames"}`` for frames ``start`` ..
        ``start+count-1``; the viewer asks for whole chunks, which are stored as they are."""
        size = self.chunk_size
        if start % size == 0 and count == size:
            return self._piece(game, seat, f"chunk-{start // size}")
        frames: list[dict[str, Any]] = []
        for index in range(start // size, (start + count - 1) // size + 1):
            whole = json.loads(gzip.decompress(self._piece(game, seat, f"chunk-{index}")))
            frames += whole["frames"]
            if len(whole["frames"]) < size:
                break
        skip = start - start // size * size
        return _encoded(
            {
                "game_id": game["id"],
                "seat": seat,
                "start": start,
                "frames": frames[skip : skip + count],
            }
        )

    def _piece(self, game: dict[str, Any], seat: int | None, what: str) -> bytes:
        name = f"{what}-{'referee' if seat is None else seat}.json.gz"
        key = (game["id"], game_key(game), name)
        with self._lock:
            body = self._pieces.get(key)
        if body is not None and self.store is not None:
            self.store.used(game)  # the stored copy is the last to go when over the budget
        if body is None and self.store is not None:
            body = self.store.read(game, name)
        if body is None:
            body = self._build_piece(game, seat, what)
            if self.store is not None:
                self.store.write(game, name, body)
        with self._lock:
            self._pieces[key] = body
            self._pieces.move_to_end(key)
            while len(self._pieces) > _PIECE_LIMIT:
                self._pieces.popitem(last=False)
        return body

    def _build_piece(self, game: dict[str, Any], seat: int | None, what: str) -> bytes:
        referee, convert = self._referee(game)
        replay = seat_frames(referee, seat)
        if what == "outline":
            return _encoded(outline(replay, self.chunk_size))
        if what == "log":
            return _encoded(decision_log(replay))
        start = int(what.removeprefix("chunk-")) * self.chunk_size
        with self._converting:  # a converter is not shared between threads
            frames = convert(replay["frames"][start : start + self.chunk_size])
        return _encoded(
            {"game_id": replay["game_id"], "seat": seat, "start": start, "frames": frames}
        )

    def _referee(self, game: dict[str, Any]) -> tuple[dict[str, Any], Any]:
        key = (game["id"], game_key(game))
        with self._building:
            with self._lock:
                built = self._frames.get(key)
            new = built is None
            if built is None:
                built = (raw_frames(game, None), converter())
            with self._lock:
                self._frames[key] = built
                self._frames.move_to_end(key)
                while len(self._frames) > _CACHE_LIMIT:
                    self._frames.popitem(last=False)
        if new and self.store is not None:
            threading.Thread(
                target=self._store_all,
                args=(game, len(built[0]["frames"])),
                name=STORING_THREAD,
                daemon=True,
            ).start()
        return built

    def _store_all(self, game: dict[str, Any], count: int) -> None:
        """Every seat's pieces of a game just built, encoded and stored in the background: a
        seat switch, a later visitor or a restarted server finds them ready."""
        pieces = [
            "outline",
            "log",
            *(f"chunk-{i}" for i in range(math.ceil(count / self.chunk_size))),
        ]
        try:
            for seat in (None, *range(game["num_players"])):
                for what in pieces:
                    self._piece(game, seat, what)
        except Exception:  # never raised to anyone: a visitor builds what is missing
            log.exception("storing the frames of game %s failed", game["id"])
