"""The /ladder page and its JSON twin /api/ladder: the ladders, and for one (``?id=``, else the
newest) its live leaderboard per board, games per hour, who is paused and why, and per entrant
its Elo over the ladder's games and its latest games. The page reloads itself while the ladder
writes (``static/ladder.js``), as ``arena serve`` reads the same SQLite file."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Hashable
from datetime import datetime, timedelta
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.storage import ladders, tournaments, withdrawals
from arena.storage.models import RatingHistory, as_utc, utc_now
from arena.web.live import whole_number
from arena.web.pages import BOARD_PAGE_ROWS, NotFound, Pages, rows_shown

LATEST_GAMES = 5  # per entrant
CHART_LINES = 10  # entrants per board drawn on the page's chart, the top of the board, by default
# The Elo chart's points: at most CHART_POINTS in all, shared by its lines (an entrant on a
# board), each of them at least LINE_POINTS_MIN and at most LINE_POINTS_MAX (a chart is about
# 1,000 pixels wide); ``ladders.elo_history`` thins each line to its share. The page, which the
# browser fetches again while games are recorded, stays about the same size however many games
# the ladder plays (about 120 bytes a point in the JSON, twice that in the page).
CHART_POINTS = 1_000
LINE_POINTS_MIN, LINE_POINTS_MAX = 10, 200

Render = Callable[..., Response]
History = list[tuple[RatingHistory, datetime | None]]


def line_points(lines: int) -> int:
    """The most points each of ``lines`` lines of the chart gets."""
    return max(LINE_POINTS_MIN, min(LINE_POINTS_MAX, CHART_POINTS // max(lines, 1)))


class EloHistoryCache:
    """The chart's points (``chart_points``) per ladder, read once per recorded game (while
    ``data_version`` is unchanged) however many visitors follow the ladder."""

    _LIMIT = 16  # ladders

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: tuple[int, int] | None = None
        self._points: dict[Hashable, list[dict[str, Any]]] = {}

    def points(
        self, version: tuple[int, int], key: Hashable, read: Callable[[], History]
    ) -> list[dict[str, Any]]:
        """The points of ``key`` (ladder id, points per line, the series drawn) while the database's
        ``data_version`` is ``version``, else those ``read()`` reads."""
        with self._lock:
            if version != self._version:
                self._version, self._points = version, {}
            cached = self._points.get(key)
        if cached is None:
            cached = chart_points(read())
            with self._lock:
                if version == self._version:
                    if len(self._points) >= self._LIMIT:
                        self._points.clear()
                    self._points[key] = cached
        return cached


def chart_labels(versions: dict[int, dict[str, Any]]) -> dict[str, str]:
    """Each version's line label, "bot version", with its hash where another version of the bot
    has the same number (a new upload of unchanged bot.toml: review K found five lines named
    alike)."""
    named = Counter((v["bot"], v["version"]) for v in versions.values())
    return {
        str(i): f"{v['bot']} {v['version']}"
        + (f" #{v['hash']}" if named[v["bot"], v["version"]] > 1 else "")
        for i, v in versions.items()
    }


def chart_points(history: History) -> list[dict[str, Any]]:
    """The Elo updates as the page's script (``static/ladder.js``) reads them."""
    return [
        {
            "bot_version_id": update.bot_version_id,
            "players": update.players,
            "elo": round(update.after, 1),
            "game_id": update.game_id,
            # with its offset: a browser reads a time without one as its own local time; to
            # the second, as the chart's tooltip shows it
            "finished_at": (
                as_utc(finished_at).isoformat(timespec="seconds") if finished_at else None
            ),
        }
        for update, finished_at in history
    ]


def ladder_page_data(
    pages: Pages,
    ladder_id: int | None,
    histories: EloHistoryCache | None = None,
    rows: int | None = None,
    chart_lines: int | None = None,
) -> dict[str, Any]:
    """The ladder ``ladder_id`` (None: the one that runs, else the newest), each board's first
    ``rows`` rows (None: all) with their latest games, and its chart's points: of every entrant,
    or past ``chart_lines`` entrants (None: no limit) of the first ``chart_lines`` of each
    board."""
    # read before the session: on PostgreSQL a second reading connection inside it waits for
    # the session's transaction (both take the database's advisory lock at BEGIN)
    version = pages.database.data_version()
    with pages.database.session() as session:
        found = ladders.stored_ladders(session)
        connection = session.connection()
        state = {  # "stopped" for a "running" one whose process is gone (killed)
            one.id: pages.database.shown_state(one.id or 0, one.state, connection) for one in found
        }
        listed = [
            {
                "id": ladder.id,
                "name": ladder.name,
                "game": ladder.game,
                "state": state[ladder.id],
                "games": ladders.finished_games(session, ladder.id or 0),
            }
            for ladder in found
        ]
        if not found:
            return {"ladders": [], "ladder": None}
        # by default the newest ladder that runs (a short one made later and stopped since
        # hid the one going on), else the newest
        going = [one for one in found if state[one.id] == tournaments.RUNNING]
        chosen = (
            (going or found)[-1]
            if ladder_id is None
            else next((one for one in found if one.id == ladder_id), None)
        )
        if chosen is None or chosen.id is None:
            raise NotFound(f"no ladder {ladder_id}")
        rules = chosen.settings["ladder"]
        hour_ago = utc_now() - timedelta(hours=1)
        games = ladders.finished_games(session, chosen.id)
        per_hour = ladders.finished_games(session, chosen.id, since=hour_ago)
        paused = ladders.pauses(session, ladder_id=chosen.id, shown=pages.database.shown_reason)
        entered = [entrant.version.id or 0 for entrant in tournaments.entrants(session, chosen.id)]
        for version_id, why in withdrawals.of_versions(session, entered).items():
            paused.setdefault(version_id, []).insert(0, why)
        in_play = pages.database.games_in_play(session, chosen.id)  # watched live at /live/ID
    boards: list[dict[str, Any]] = []
    tops: set[tuple[int, int]] = set()  # (version id, players): the top of each board
    for players in rules["boards"]:
        board = pages.boards.board(chosen.game, players, chosen.id, all_versions=False)
        shown = board["rows"][:rows]  # rows None: all
        tops.update((row["version_id"], players) for row in board["rows"][:chart_lines])
        latest = pages.database.latest_games_of_bots(
            chosen.id, sorted({row["bot"] for row in shown}), LATEST_GAMES
        )
        for row in shown:
            row["paused"] = paused.get(row["version_id"], [])
            row["latest_games"] = latest[row["bot"]]
        boards.append({"players": players, "rows": shown, "total_rows": len(board["rows"])})
    # The chart: a line per entrant and board, or on a ladder of more entrants than
    # ``chart_lines``, one for each of the top ``chart_lines`` of each board (hundreds of lines
    # are no chart); an upper bound on the lines, as some entrants may not have played on each.
    only = None if chart_lines is None or len(entered) <= chart_lines else frozenset(tops)
    lines = len(entered) * len(rules["boards"]) if only is None else len(only)
    per_line = line_points(lines)
    with pages.database.session() as session:
        history = (histories or EloHistoryCache()).points(
            version,
            (chosen.id, per_line, only),
            lambda: ladders.elo_history(session, chosen.id or 0, per_line, only),
        )
    versions = pages.database.versions(sorted({point["bot_version_id"] for point in history}))
    return {
        "ladders": listed,
        "ladder": {
            "id": chosen.id,
            "name": chosen.name,
            "game": chosen.game,
            "state": state[chosen.id],
            "created_at": chosen.created_at.isoformat(),
            "rules": rules,
            "games": games,
            "games_last_hour": per_hour,
            "running": in_play,
            "boards": boards,
            # JSON object keys are strings
            "labels": chart_labels(versions),
            "rating_history": history,
            # the chart's lines: all, or the top ``chart_lines`` of each board of ``entrants``
            "chart": {"top": None if only is None else chart_lines, "entrants": len(entered)},
        },
    }


def ladder_now(pages: Pages, ladder_id: int) -> dict[str, Any]:
    """What an open ladder page polls for, small and cheap: the ladder's state, finished games
    and games in play (the whole page, a few hundred KB with its chart's history, is fetched
    again only when these change; polling it every 3 s cost a second of the server's CPU per
    viewer)."""
    with pages.database.session() as session:
        ladder = next((one for one in ladders.stored_ladders(session) if one.id == ladder_id), None)
        if ladder is None:
            raise NotFound(f"no ladder {ladder_id}")
        state = pages.database.shown_state(ladder_id, ladder.state, session.connection())
        return {
            "id": ladder_id,
            "state": state,
            "games": ladders.finished_games(session, ladder_id),
            "running": [game["id"] for game in pages.database.games_in_play(session, ladder_id)],
        }


def _ladder_id(request: Request) -> int | None:
    raw = request.query_params.get("id")
    if raw in (None, ""):
        return None
    ladder_id = whole_number(raw)
    if ladder_id is None:
        raise HTTPException(400, "id must be a ladder's number")
    return ladder_id


def _chart_lines(request: Request, default: int | None) -> int | None:
    """The chart's lines per board that a request's ``chart`` asks for: "" the ``default``,
    "top" the top ``CHART_LINES``, "all" every entrant (None). No other count: each is a read of
    the ladder's whole history, cached per ladder and asked count, and a visitor cycling
    through counts would have emptied the cache for everyone."""
    raw = request.query_params.get("chart", "")
    if raw not in ("", "top", "all"):
        raise HTTPException(400, "chart must be top or all")
    return default if raw == "" else CHART_LINES if raw == "top" else None


def ladder_routes(pages: Pages, render: Render) -> list[Route]:
    """/ladder and /api/ladder; ``render(template, title, data)`` makes a page."""
    histories = EloHistoryCache()

    def ladder_page(request: Request) -> Response:
        rows = rows_shown(request.query_params.get("rows", ""), BOARD_PAGE_ROWS)
        lines = _chart_lines(request, CHART_LINES)
        data = ladder_page_data(pages, _ladder_id(request), histories, rows, lines)
        title = f"Ladder {data['ladder']['name']}" if data["ladder"] else "Ladder"
        return render("ladder.html", title, data)

    def api_ladder(request: Request) -> Response:
        rows = rows_shown(request.query_params.get("rows", ""), None)
        lines = _chart_lines(request, None)
        return JSONResponse(ladder_page_data(pages, _ladder_id(request), histories, rows, lines))

    def api_ladder_now(request: Request) -> Response:
        ladder_id = _ladder_id(request)
        if ladder_id is None:
            raise HTTPException(400, "give the ladder's id: /api/ladder/now?id=ID")
        return JSONResponse(ladder_now(pages, ladder_id))

    return [
        Route("/ladder", ladder_page),
        Route("/api/ladder", api_ladder),
        Route("/api/ladder/now", api_ladder_now),
    ]
