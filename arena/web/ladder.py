"""The /ladder page and its JSON twin /api/ladder: the ladders, and for one (``?id=``, else the
newest) its live leaderboard per board, games per hour, who is paused and why, and per entrant
its Elo over the ladder's games and its latest games. The page reloads itself while the ladder
writes (``static/ladder.js``), as ``arena serve`` reads the same SQLite file."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.storage import ladders, tournaments, withdrawals
from arena.storage.models import as_utc, utc_now
from arena.storage.read_only import GameFilter
from arena.web.live import whole_number
from arena.web.pages import NotFound, Pages

LATEST_GAMES = 5  # per entrant
HISTORY_POINTS = 5_000  # the newest Elo updates charted, all entrants together

Render = Callable[..., Response]


def ladder_page_data(pages: Pages, ladder_id: int | None) -> dict[str, Any]:
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
        history = ladders.elo_history(session, chosen.id, HISTORY_POINTS)
    versions = pages.database.versions(sorted({update.bot_version_id for update, _ in history}))
    boards = []
    for players in rules["boards"]:
        board = pages.boards.board(chosen.game, players, chosen.id, all_versions=False)
        for row in board["rows"]:
            row["paused"] = paused.get(row["version_id"], [])
            row["latest_games"] = pages.database.games(
                GameFilter(bot=row["bot"], tournament=chosen.id, limit=LATEST_GAMES)
            )["games"]
        boards.append({"players": players, "rows": board["rows"]})
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
            "labels": {str(i): f"{v['bot']} {v['version']}" for i, v in versions.items()},
            "rating_history": [
                {
                    "bot_version_id": update.bot_version_id,
                    "players": update.players,
                    "elo": round(update.after, 1),
                    "game_id": update.game_id,
                    # with its offset: a browser reads a time without one as its own local time
                    "finished_at": as_utc(finished_at).isoformat() if finished_at else None,
                }
                for update, finished_at in history
            ],
        },
    }


def ladder_now(pages: Pages, ladder_id: int) -> dict[str, Any]:
    """What an open ladder page polls for, small and cheap: the ladder's state, finished games
    and games in play (the whole page, 1 MB with its chart's history, is fetched again only
    when these change; polling it every 3 s cost a second of the server's CPU per viewer)."""
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


def ladder_routes(pages: Pages, render: Render) -> list[Route]:
    """/ladder and /api/ladder; ``render(template, title, data)`` makes a page."""

    def ladder_page(request: Request) -> Response:
        data = ladder_page_data(pages, _ladder_id(request))
        title = f"Ladder {data['ladder']['name']}" if data["ladder"] else "Ladder"
        return render("ladder.html", title, data)

    def api_ladder(request: Request) -> Response:
        return JSONResponse(ladder_page_data(pages, _ladder_id(request)))

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
