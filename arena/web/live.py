"""Games in play, watched live: ``/live`` lists them, ``/live/ID`` follows one.

The process playing a game writes its actions so far once a second (``arena.storage.running``);
this reads them and replays them here, with the seed that never leaves the server, into
spectator frames (``arena.web.spectator``): what every seat sees, nothing that any one seat
alone knows, until the game is recorded; then the page hands over to the game's replay, with
every seat's view. ``?seat=`` is refused while the game runs.

The browser polls (``/api/live/ID?after=N``, once a second) rather than holding a server-sent
event stream: the source is itself a file this process can only poll (another process writes
it, with nothing to wake a reader), so a stream would only move the same polling into the
server and hold a connection and a thread per viewer; a poll is one small read, answered with
the decisions the viewer has not seen yet and the position now.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.storage import running
from arena.storage.read_only import ReadOnlyDatabase
from arena.web.decision_log import log_entries, setup_events
from arena.web.jsonable import JsonConverter
from arena.web.pages import NotFound, rotations_played
from arena.web.spectator import SPECTATOR, events_seen, spectator_view
from engine.core import EngineError, GameState
from engine.registry import get_game

POLL_SECONDS = 1.0  # the page's polling interval (the writer's is about the same)
_CACHE_LIMIT = 16
_MAX_FRAMES = 200
# The largest id stored: ids are 32-bit in PostgreSQL (SQLite's reach 2**63 - 1, never used)
LARGEST_ID = 2**31 - 1
_DIGITS = re.compile(r"[0-9]{1,19}")  # a 64-bit number has at most 19
NO_SEAT = (
    "a game in play is shown in the spectator view only: each seat's view opens once it is recorded"
)


class NotLive(NotFound):
    pass


class LiveReplay:
    """One game in play replayed into spectator frames, advanced as its actions arrive."""

    def __init__(self, row: dict[str, Any]) -> None:
        engine = get_game(row["game"])
        if row["rules_version"] != engine.rules_version:
            raise EngineError(
                f"played with rules {row['rules_version']}, this arena has {engine.rules_version}"
            )
        self.engine = engine
        self.identity = _identity(row)
        self.state: GameState = engine.new_game(row["num_players"], row["seed"], row["options"])
        self.actions: list[int] = []  # those applied, in order
        self.to_json = JsonConverter()
        self.frames: list[dict[str, Any]] = []  # one per decision applied
        self.scores: list[list[float]] = []  # before each decision
        self.told = 0
        self.lock = threading.Lock()

    def advance(self, actions: list[int]) -> None:
        """Apply the actions not applied yet (the writer only ever appends)."""
        for index in actions[len(self.frames) :]:
            self.frames.append(self._frame(len(self.frames), record=True))
            self.scores.append(self._scores())
            self.state.apply_index(index)
            self.actions.append(index)

    def continued_by(self, row: dict[str, Any]) -> bool:
        """Whether ``row`` is this game, played on from where it was replayed: a row's id may
        be given to another game once its own is removed (a stopped run's games in play are,
        and SQLite hands out the largest id again)."""
        done = len(self.actions)
        return self.identity == _identity(row) and row["actions"][:done] == self.actions

    def now(self) -> dict[str, Any]:
        """The position now: the next decision's frame, or the final one."""
        frame = self._frame(len(self.frames), record=False)
        if self.state.is_over:
            frame["final"] = True
        return frame

    def all_frames(self) -> list[dict[str, Any]]:
        return [*self.frames, self.now()]

    def all_scores(self) -> list[list[float]]:
        return [*self.scores, self._scores()]

    def _scores(self) -> list[float]:
        return list(self.engine.running_scores(self.state.view(0)))

    def _frame(self, number: int, *, record: bool) -> dict[str, Any]:
        state = self.state
        events = events_seen(state, SPECTATOR, self.told)
        if record:
            self.told = len(state.event_log)
        return {
            "number": number,
            "seat": state.current_seat,
            "kind": state.decision_kind,
            "decision": state.describe_decision(),
            "views": {"spectator": spectator_view(state, self.to_json)},
            "events": events,
        }


class GamesInPlay:
    """The web's view of the games in play, with their replays cached."""

    def __init__(self, database: ReadOnlyDatabase) -> None:
        self.database = database
        self._lock = threading.Lock()
        self._replays: OrderedDict[int, LiveReplay] = OrderedDict()

    def listing(self, tournament_id: int | None = None) -> list[dict[str, Any]]:
        with self.database.session() as session:
            return self.database.games_in_play(session, tournament_id)

    def row(self, live_id: int) -> dict[str, Any]:
        row = None
        if live_id <= LARGEST_ID:
            with self.database.session() as session:
                row = running.one(session, live_id)
                gone = row is not None and self.database.runs_gone(session, {row["tournament_id"]})
                if gone and row is not None and row["state"] == "running":
                    row["state"] = "stale"  # its process was killed: no move will come
        if row is None:
            raise NotLive(
                f"no game in play with id {live_id}: it may have ended (see /games) "
                "or its tournament stopped"
            )
        return row

    def replay(self, row: dict[str, Any]) -> LiveReplay:
        """The row's replay, advanced to its actions so far."""
        with self._lock:
            replay = self._replays.get(row["id"])
            if replay is not None:
                self._replays.move_to_end(row["id"])
        try:
            if replay is None or not replay.continued_by(row):
                replay = LiveReplay(row)
            with replay.lock:
                replay.advance(row["actions"])
        except EngineError as exc:
            raise HTTPException(
                409, f"game in play {row['id']} cannot be replayed: {exc}"
            ) from None
        with self._lock:
            self._replays[row["id"]] = replay
            while len(self._replays) > _CACHE_LIMIT:
                self._replays.popitem(last=False)
        return replay


def _identity(row: dict[str, Any]) -> tuple[Any, ...]:
    """What tells one game in play from another that got its id later."""
    return (row["game"], row["seed"], row["num_players"], row["tournament_id"], row["started_at"])


def held_reason(row: dict[str, Any]) -> str | None:
    """Why the game in play is not shown (``running._deal_held``), or None."""
    held = row.get("held")
    if not held:
        return None
    return (
        f"this game is shown once the other seat rotations of its deal are played "
        f"({rotations_played(held)}): they are dealt the same cards"
    )


def _public(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key not in ("seed", "actions")}


def _refuse_seat(request: Request) -> None:
    if "seat" in request.query_params:
        raise HTTPException(400, NO_SEAT)


def whole_number(raw: str, high: int = LARGEST_ID) -> int | None:
    """``raw`` as a number from 0 to ``high`` (at most LARGEST_ID), else None: ASCII digits
    only (``str.isdigit`` takes "²" and "①", which ``int`` refuses) and never more of them than
    a stored id has (``int`` refuses over 4,300 digits; SQLite stores none over 19)."""
    if _DIGITS.fullmatch(raw) is None:
        return None
    value = int(raw)
    return value if value <= min(high, LARGEST_ID) else None


def _number(request: Request, name: str, default: int, high: int, low: int = 0) -> int:
    raw = request.query_params.get(name, "")
    if raw == "":
        return default
    value = whole_number(raw, high)
    if value is None or value < low:
        raise HTTPException(400, f"{name} must be a whole number from {low} to {high}")
    return value


def live_routes(
    database: ReadOnlyDatabase, page: Callable[..., Response], board_script: Callable
) -> list[Route]:
    """The routes of ``/live``; ``page(template, title, data, **context)`` renders a page."""
    games = GamesInPlay(database)

    def listing_data(request: Request) -> dict[str, Any]:
        """Every game in play, or a tournament's (``?tournament=ID``: a ladder is one too)."""
        tournament = _number(request, "tournament", -1, LARGEST_ID)
        wanted = None if tournament < 0 else tournament
        return {"games": games.listing(wanted), "poll_seconds": POLL_SECONDS}

    def game_data(request: Request) -> dict[str, Any]:
        """The game in play with the decisions from ``after`` on and the position now."""
        _refuse_seat(request)
        row = games.row(int(request.path_params["live_id"]))
        data = _public(row) | {"held_reason": held_reason(row)}
        after = _number(request, "after", 0, len(row["actions"]))
        if row["state"] == "recorded" or row["held"]:
            return data  # the replay takes over, or the deal is not shown yet
        # running, or stale (its process stopped): the position it reached is still shown
        replay = games.replay(row)
        with replay.lock:
            frames, scores = replay.all_frames(), replay.all_scores()
        data["entries"] = log_entries(frames, scores, start=after)
        data["after"] = after
        data["setup"] = setup_events(frames) if after == 0 else None
        data["first_scores"] = scores[0]
        data["frame"] = frames[-1]
        data["score_label"] = replay.engine.running_score_label
        return data

    def live_page(request: Request) -> Response:
        return page("live.html", "Live", listing_data(request))

    def api_live(request: Request) -> Response:
        return JSONResponse(listing_data(request))

    def live_game_page(request: Request) -> Response:
        _refuse_seat(request)
        row = games.row(int(request.path_params["live_id"]))
        title = f"Live: {row['game']}, " + " vs ".join(seat["bot"] for seat in row["seats"])
        return page(
            "live_game.html",
            title,
            _public(row) | {"poll_seconds": POLL_SECONDS},
            board_script=board_script(row["game"]),
        )

    def api_live_game(request: Request) -> Response:
        return JSONResponse(game_data(request))

    def api_live_frames(request: Request) -> Response:
        """Spectator frames ``start`` .. ``start+count-1`` of a game in play (stepping back)."""
        _refuse_seat(request)
        row = games.row(int(request.path_params["live_id"]))
        if row["state"] != "running":
            raise HTTPException(409, f"game in play {row['id']} is {row['state']}")
        start = _number(request, "start", 0, len(row["actions"]))
        count = _number(request, "count", 50, _MAX_FRAMES, low=1)
        if (why := held_reason(row)) is not None:
            raise HTTPException(403, why)
        replay = games.replay(row)
        with replay.lock:
            frames = replay.all_frames()[start : start + count]
        return JSONResponse({"live_id": row["id"], "start": start, "frames": frames})

    return [
        Route("/live", live_page),
        Route("/live/{live_id:int}", live_game_page),
        Route("/api/live", api_live),
        Route("/api/live/{live_id:int}", api_live_game),
        Route("/api/live/{live_id:int}/frames", api_live_frames),
    ]
