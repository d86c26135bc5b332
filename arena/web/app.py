"""The web arena: a read-only Starlette app over the arena's SQLite file.

Every page has a JSON twin under /api/ (docs/web.md lists them). Pages are Jinja2 templates with
autoescape on, so every string a bot provides (its name, its comments) reaches the browser as
text; data for scripts is embedded with ``tojson``, which escapes ``<``, ``>`` and ``&``.
The replay viewer loads its frames from the API in chunks (``arena.web.replay`` says what a seat's
frames may hold). Game seeds are never published: with the public engines a seed reveals the
order of every deck, including what the other seat rotations of the same deal will draw.
"""

from __future__ import annotations

import gzip
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.convertors import Convertor, register_url_convertor
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arena.errors import DamagedDatabaseError, ReplayError, StorageError
from arena.storage.models import GameOutcome, GameStatus
from arena.storage.read_only import GameFilter, ReadOnlyDatabase
from arena.storage.target import DatabaseTarget
from arena.web import downloads
from arena.web.authors import author_routes
from arena.web.bot_logs import bot_log_routes
from arena.web.frame_store import DEFAULT_MAX_SIZE, FrameStore, default_dir
from arena.web.ladder import ladder_routes
from arena.web.live import LARGEST_ID, live_routes
from arena.web.pages import BOARD_PAGE_ROWS, BadRequest, NotFound, Pages, held_back, rows_shown
from arena.web.replay import FrameCache
from arena.web.sessions import WebAuth, session_routes
from arena.web.submissions import UploadDesk, submission_routes
from arena.wording import counted, size, utc_time
from engine.registry import game_names
from leaderboard.tables import interval_text

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)
FRAME_CHUNK = 50
_MAX_LIST = 200
_LONGEST_SEARCH = 100  # characters of a bot search
# The largest integer SQLite stores: a larger filter would fail inside the query.
_LARGEST_VALUE = 2**63 - 1
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
# What the browser may load: our own scripts and styles only (no inline script runs, no
# third-party origin); embedded page data is JSON in <script type="application/json">.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
_PUBLIC_GAME_KEYS = (
    "id",
    "game",
    "rules_version",
    "options",
    "num_players",
    "status",
    "termination",
    "duration",
    "finished_at",
    "tournament_id",
    "tournament",
    "seats",
    "held",
)


def _templates() -> Environment:
    environment = Environment(
        loader=PackageLoader("arena.web", "templates"), autoescape=select_autoescape(["html"])
    )
    environment.filters["pathquote"] = lambda value: quote(str(value), safe="")
    environment.filters["ordinal"] = _ordinal
    environment.filters["counted"] = counted
    environment.filters["size"] = size
    environment.filters["utc"] = utc_time  # every time a page shows: one format, its zone said
    environment.filters["interval"] = _interval
    environment.globals.update(GameStatus=GameStatus, GameOutcome=GameOutcome)
    return environment


def _interval(batch: dict[str, Any]) -> str:
    """A board row's 95% interval as the terminal writes it (``leaderboard.tables``)."""
    return interval_text(batch["low"], batch["high"])


def _ordinal(value: Any) -> str:
    number = int(value)
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _int(
    request: Request,
    name: str,
    default: int | None = None,
    *,
    low: int = 0,
    high: int | None = None,
) -> int | None:
    raw = request.query_params.get(name, "")
    if raw == "":
        return default
    # ASCII digits only: ``int`` also takes "+1", " 1", "0_1" and other scripts' digits, which
    # the pages' scripts read otherwise (they opened another seat than the server checked)
    if _WHOLE_NUMBER.fullmatch(raw) is None:
        raise HTTPException(400, f"{name} must be a whole number")
    if len(raw.lstrip("-")) > 19:
        raise HTTPException(400, f"{name} is too large")
    value = int(raw)
    if high is not None and not low <= value <= high:
        raise HTTPException(400, f"{name} must be between {low} and {high}")
    if value < low:
        raise HTTPException(400, f"{name} must be at least {low}")
    if value > _LARGEST_VALUE:
        raise HTTPException(400, f"{name} is too large")
    return value


def _text(request: Request, name: str) -> str | None:
    return request.query_params.get(name) or None


def _game_name(request: Request) -> str | None:
    """The ``game`` filter: a typo is an error, not an empty page that looks like no games."""
    game = _text(request, "game")
    if game is not None and game not in game_names():
        raise HTTPException(400, f"game must be one of {', '.join(game_names())}")
    return game


def _public_game(game: dict[str, Any]) -> dict[str, Any]:
    return {key: game[key] for key in _PUBLIC_GAME_KEYS if key in game} | {
        "decisions": len(game["actions"])
    }


def create_app(
    db_path: DatabaseTarget,
    *,
    warm_up: bool = True,
    frames_dir: Path | None = None,
    frames_max_size: int = DEFAULT_MAX_SIZE,
) -> Starlette:
    """The web arena over ``db_path``; ``warm_up`` starts computing the leaderboards at once.
    Replay frames are stored in ``frames_dir`` (default: ``frame_store.default_dir``), within
    ``frames_max_size`` bytes (0: in memory only)."""
    database = ReadOnlyDatabase(db_path, public=True)  # reasons without bots' own words
    pages = Pages(database)
    if warm_up:
        pages.boards.warm_up()
    store = (
        FrameStore(frames_dir or default_dir(db_path), frames_max_size)
        if frames_max_size > 0
        else None
    )
    frames = FrameCache(store, FRAME_CHUNK)
    templates = _templates()
    desk = UploadDesk(db_path)  # uploads, sign-in and the author pages write through it
    auth = WebAuth(desk)

    def page(name: str, title: str, data: dict[str, Any], **context: Any) -> HTMLResponse:
        html = templates.get_template(name).render(title=title, data=data, **context)
        return HTMLResponse(html)

    def seat_param(request: Request, num_players: int) -> int | None:
        raw = request.query_params.get("seat", "referee")
        if raw in ("", "referee"):
            return None
        return _int(request, "seat", low=0, high=num_players - 1)

    def tournament_param(request: Request) -> int | None:
        """The ``tournament`` filter: a stale or mistyped id is an error, not an empty page."""
        tournament = _int(request, "tournament", high=LARGEST_ID)
        if tournament is not None and database.tournament(tournament) is None:
            raise HTTPException(400, f"no tournament {tournament}")
        return tournament

    def game_filter(request: Request) -> GameFilter:
        outcome = _text(request, "outcome")
        if outcome is not None and outcome not in list(GameOutcome):
            *some, last = GameOutcome
            raise HTTPException(400, f"outcome must be {', '.join(some)} or {last}")
        limit = _int(request, "limit", 50, low=1, high=_MAX_LIST)
        assert limit is not None
        bot = (_text(request, "bot") or "")[:_LONGEST_SEARCH] or None  # echoed in the page
        return GameFilter(
            game=_game_name(request),
            **bot_search(bot),
            tournament=tournament_param(request),
            outcome=None if outcome is None else GameOutcome(outcome),
            limit=limit,
            offset=_int(request, "offset", 0) or 0,
        )

    def bot_search(text: str | None) -> dict[str, Any]:
        """``bot``: a bot's name, or else part of one in any case (the games of every bot whose
        name holds it)."""
        if text is None:
            return {}
        names = database.bot_names()
        if text in names:
            return {"bot": text}
        return {"bot": text, "bots": tuple(n for n in names if text.casefold() in n.casefold())}

    def leaderboard_data(request: Request, rows: int | None = None) -> dict[str, Any]:
        """``rows``: each board's first rows unless the request says (``rows=N`` or ``all``)."""
        return pages.leaderboard(
            game=_game_name(request),
            players=_int(request, "players", low=1),
            tournament=tournament_param(request),
            all_versions=request.query_params.get("all_versions") == "1",
            rows=rows_shown(request.query_params.get("rows", ""), rows),
            bot=request.query_params.get("bot", "").strip()[:_LONGEST_SEARCH] or None,
        )

    def game_data(request: Request) -> dict[str, Any]:
        return pages.game(_path_id(request, "game_id", "game"))

    def replayed_game(request: Request) -> dict[str, Any]:
        """The game, for what shows its moves or cards: 403 while its deal is in play."""
        game = game_data(request)
        if (why := held_back(game)) is not None:
            raise HTTPException(403, why)
        return game

    # --- pages ----------------------------------------------------------------------------------
    async def home(request: Request) -> Response:
        return RedirectResponse("/leaderboard")

    def leaderboard_page(request: Request) -> Response:
        return page("leaderboard.html", "Leaderboard", leaderboard_data(request, BOARD_PAGE_ROWS))

    def bots_page(request: Request) -> Response:
        return page("bots.html", "Bots", pages.bots())

    def bot_page(request: Request) -> Response:
        data = pages.bot(request.path_params["name"])
        return page("bot.html", data["name"], data)

    def tournaments_page(request: Request) -> Response:
        return page("tournaments.html", "Tournaments", pages.tournaments())

    def tournament_page(request: Request) -> Response:
        tournament_id = _path_id(request, "tournament_id", "tournament")
        stored = database.tournament(tournament_id)
        if stored is not None and stored["settings"].get("ladder"):  # no schedule: its own page
            return RedirectResponse(f"/ladder?id={tournament_id}", status_code=303)
        data = pages.tournament(tournament_id)
        # the crosstable's cells by (row, column), looked up once each: a scan of every cell
        # for each of them took 7 s at 60 entrants (outside review K)
        cells = {(c["version_id"], c["opponent_version_id"]): c for c in data["crosstable"]}
        return page("tournament.html", data["name"], data, cells=cells)

    def games_page(request: Request) -> Response:
        return page("games.html", "Games", pages.games(game_filter(request)))

    def game_page(request: Request) -> Response:
        game = _public_game(game_data(request))
        # What the viewer would open: a mistyped address is an error, as in the API.
        seat_param(request, game["num_players"])
        _int(request, "d", low=0, high=game["decisions"])
        return page(
            "game.html",
            f"Game {game['id']}",
            game,
            frame_chunk=FRAME_CHUNK,
            board_script=_board_script(game["game"]),
            held_back=held_back(game),
        )

    # --- the JSON twins -------------------------------------------------------------------------
    def api_leaderboard(request: Request) -> Response:
        return JSONResponse(leaderboard_data(request))

    def api_bots(request: Request) -> Response:
        return JSONResponse(pages.bots())

    def api_bot(request: Request) -> Response:
        return JSONResponse(pages.bot(request.path_params["name"]))

    def api_tournaments(request: Request) -> Response:
        return JSONResponse(pages.tournaments())

    def api_tournament(request: Request) -> Response:
        return JSONResponse(pages.tournament(_path_id(request, "tournament_id", "tournament")))

    def api_games(request: Request) -> Response:
        return JSONResponse(pages.games(game_filter(request)))

    def api_game(request: Request) -> Response:
        return JSONResponse(_public_game(game_data(request)))

    def replay_piece(
        request: Request, piece: Callable[[dict[str, Any], int | None], bytes]
    ) -> Response:
        """A stored, gzipped piece of a game's replay as the seat asked for (or the referee)
        sees it; 409 for a game the engine cannot replay."""
        game = replayed_game(request)
        seat = seat_param(request, game["num_players"])
        try:
            return gzipped_json(request, piece(game, seat))
        except ReplayError as exc:
            raise HTTPException(409, str(exc)) from None

    def api_replay(request: Request) -> Response:
        """The replay's outline: per frame who decides and what kind, and the score series;
        the frames themselves come from /frames in chunks."""
        return replay_piece(request, frames.outline)

    def api_log(request: Request) -> Response:
        """The decision log, made from the frames of the seat asked for (or the referee's)."""
        return replay_piece(request, frames.log)

    def api_frames(request: Request) -> Response:
        game = replayed_game(request)
        seat = seat_param(request, game["num_players"])
        start = _int(request, "start", 0) or 0
        count = _int(request, "count", FRAME_CHUNK, low=1, high=_MAX_LIST) or FRAME_CHUNK
        try:
            return gzipped_json(request, frames.chunk(game, seat, start, count))
        except ReplayError as exc:
            raise HTTPException(409, str(exc)) from None

    def api_record(request: Request) -> Response:
        game = replayed_game(request)
        return downloads.record(_public_game(game), game)

    def api_moves(request: Request) -> Response:
        try:
            return downloads.moves(replayed_game(request))
        except ReplayError as exc:
            raise HTTPException(409, str(exc)) from None

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(request, 404, str(exc))

    async def bad_request(request: Request, exc: Exception) -> Response:
        return _error(request, 400, str(exc))

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404 and exc.detail == "Not Found":  # no route: Starlette's words
            return _error(request, 404, f"no page at {request.url.path}")
        response = _error(request, exc.status_code, exc.detail)
        response.headers.update(exc.headers or {})  # a 429's Retry-After
        return response

    async def unavailable(request: Request, exc: Exception) -> Response:
        # The reason names the database (a PostgreSQL URL: its user and host): the server's log
        # has it, a stranger does not.
        log.warning("%s %s: the database failed: %s", request.method, request.url.path, exc)
        if isinstance(exc, DamagedDatabaseError):  # no retry mends it
            return _error(
                request, 500, "the arena's database is damaged: its operator has to restore it"
            )
        return _error(request, 503, "the arena's database cannot be read now; try again shortly")

    def _error(request: Request, status: int, message: str) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status)
        # an author's form (an upload refused) leads back to their page, the rest to the boards
        back = ("/me", "your page") if request.url.path.startswith("/me") else None
        html = templates.get_template("error.html").render(
            title=f"Error {status}", data={}, status=status, message=message, back=back
        )
        return HTMLResponse(html, status_code=status)

    routes = [
        Route("/", home),
        Route("/leaderboard", leaderboard_page),
        Route("/bots", bots_page),
        Route("/bots/{name:path}", bot_page),
        Route("/tournaments", tournaments_page),
        Route("/tournaments/{tournament_id:int}", tournament_page),
        Route("/games", games_page),
        Route("/games/{game_id:int}", game_page),
        Route("/api/leaderboard", api_leaderboard),
        Route("/api/bots", api_bots),
        Route("/api/bots/{name:path}", api_bot),
        Route("/api/tournaments", api_tournaments),
        Route("/api/tournaments/{tournament_id:int}", api_tournament),
        Route("/api/games", api_games),
        Route("/api/games/{game_id:int}", api_game),
        Route("/api/games/{game_id:int}/replay", api_replay),
        Route("/api/games/{game_id:int}/frames", api_frames),
        Route("/api/games/{game_id:int}/record.json", api_record),
        Route("/api/games/{game_id:int}/moves.txt", api_moves),
        *submission_routes(db_path, desk=desk),
        *session_routes(auth, page),
        *author_routes(auth, page),
        *bot_log_routes(auth),
        *ladder_routes(pages, page),
        Route("/api/games/{game_id:int}/log", api_log),
        *live_routes(database, page, _board_script),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(SecurityHeaders), Middleware(GZipMiddleware, minimum_size=1024)],
        exception_handlers={
            NotFound: not_found,
            BadRequest: bad_request,
            HTTPException: http_error,
            StorageError: unavailable,
        },
    )


class SecurityHeaders:
    """Adds the content security policy and friends to every response."""

    HEADERS: ClassVar[list[tuple[bytes, bytes]]] = [
        (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    ]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)


def gzipped_json(request: Request, body: bytes) -> Response:
    """JSON stored gzipped, sent as it is to a client that accepts gzip (every browser)."""
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(
            body,
            media_type="application/json",
            headers={"content-encoding": "gzip", "vary": "Accept-Encoding"},
        )
    return Response(gzip.decompress(body), media_type="application/json")


def _board_script(game: str) -> str | None:
    """The game's board drawing, static/boards/<game>.js, if it has one (it is optional: without
    it the replay shows each frame's views as they are)."""
    return f"/static/boards/{game}.js" if (STATIC / "boards" / f"{game}.js").is_file() else None


def _path_id(request: Request, name: str, what: str) -> int:
    """A game's or tournament's id from the path; one too large to be stored names nothing."""
    value = int(request.path_params[name])
    if value > LARGEST_ID:
        raise NotFound(f"no {what} {value}")
    return value


class _Id(Convertor[int]):
    """Starlette's ``{name:int}`` with at most 19 digits: ``int`` refuses a number of over 4,300
    digits (a 500 before any route ran); a longer one matches no route (404)."""

    regex = "[0-9]{1,19}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("int", _Id())
