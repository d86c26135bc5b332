"""An author's own pages, for the signed-in author only (``arena.web.sessions`` checks):

- ``GET /me``: my bots and their versions, how much of the logs directory each one's kept
  logs hold against its quota (``arena.log_names``), my uploads with their state, and the upload
  form (its JSON twin ``GET /api/me``, with the session's cookie as well);
- ``GET /me/submissions/{id}``: one of my uploads with its build and validation log;
- the games of my bots, each with a link to my bot's log of it (``arena.web.bot_logs``);
- ``POST /me/upload``: the upload form (a bot's name and its archive): the same checks, limits
  and queue as the upload API (``arena.web.submissions.UploadDesk``).

Another author's upload is "not found" (404), never "forbidden": its existence stays private.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from arena.log_names import QUOTA_MIB, BotLogs, kept_logs, safe_name
from arena.reasons import authors_reason
from arena.storage import bots, ladders, seat_logs, submissions, withdrawals
from arena.storage.read_only import stored_deal_in_play
from arena.storage.web_sessions import SignedIn
from arena.web.bot_logs import log_path, still_kept
from arena.web.live import LARGEST_ID, whole_number
from arena.web.sessions import Render, WebAuth
from arena.web.submissions import Refused

UPLOADS_LISTED = 50
GAMES_LISTED = 50  # my bots' newest games per page (``?before=GAME`` pages back)
MOST_GAMES_LISTED = 500  # ``?games=N``: a script pages in fewer requests than its rate limit


def author_routes(auth: WebAuth, render: Render) -> list[Route]:
    desk = auth.desk

    def my_data(
        who: SignedIn, path: str, before: int | None, asked: int | None = None
    ) -> dict[str, Any]:
        games = GAMES_LISTED if asked is None else asked
        with desk.database().read() as session:
            owned = bots.owned(session, who.author_id)
            withdrawn = withdrawals.of_bots(session, [bot.id or 0 for bot, _ in owned])
            ids = [version.id or 0 for _, versions in owned for version in versions]
            paused = ladders.pauses(session, ids, shown=authors_reason)  # in full: their own
            uploads = submissions.views(
                session, desk.db_path, author_id=who.author_id, limit=UPLOADS_LISTED
            )
            seats, older = seat_logs.own_seats(session, who.author_id, games, before)
            # a deal still in play: its logs, as its replay, wait (arena.web.bot_logs)
            held = {g for g in {s.game_id for s in seats} if stored_deal_in_play(session, g)}
        logs = kept_logs(desk.hosted.logs)
        known: dict[str, bool] = {}

        def kept(seat: seat_logs.OwnSeat) -> bool:
            if seat.log_file is None:
                return False
            if seat.log_file not in known:  # a kept-up bot's games share one file
                known[seat.log_file] = still_kept(desk.hosted.logs, seat.log_file)
            return known[seat.log_file]

        return {
            "author": who.author,
            "log_quota_bytes": QUOTA_MIB << 20,
            "bots": [
                {
                    "name": bot.name,
                    "withdrawn": withdrawn.get(bot.id or 0),  # out of play: the operator's why
                    "log_bytes": logs.get(safe_name(bot.name), BotLogs()).size,
                    "versions": [
                        {
                            "id": v.id,
                            "version": v.version,
                            "hash": v.content_hash[:8],
                            "created_at": v.created_at.isoformat(),
                            "paused": paused.get(v.id or 0, []),  # why a ladder does not play it
                        }
                        for v in versions
                    ],
                }
                for bot, versions in owned
            ],
            "submissions": [
                {key: value for key, value in u.as_json().items() if key != "log"} for u in uploads
            ],
            "games": [
                {
                    "game_id": s.game_id,
                    "game": s.game,
                    "finished_at": s.finished_at.isoformat(),
                    "seat": s.seat,
                    "bot": s.bot,
                    "outcome": s.outcome,
                    "reason": authors_reason(s.reason),  # in full: the author's own bot's
                    "log": log_path(s.game_id, s.seat)
                    if kept(s) and s.game_id not in held
                    else None,
                    # kept once, then pruned or rotated away within the bot's quota
                    "log_removed": s.log_file is not None and not kept(s),
                    "log_held": s.log_file is not None and s.game_id in held,
                }
                for s in seats
            ],
            "older_games": None
            if older is None
            else f"{path}?before={older}" + ("" if asked is None else f"&games={asked}"),
            "newest_games": None if before is None else path,
        }

    def before(request: Request) -> int | None:
        raw = request.query_params.get("before", "")
        if raw == "":
            return None
        if (game_id := whole_number(raw)) is None:
            raise HTTPException(400, "before must be a game's number")
        return game_id

    async def me(request: Request, who: SignedIn, form: FormData | None) -> Response:
        data = await run_in_threadpool(my_data, who, "/me", before(request))
        return render("author.html", "My bots", data, csrf=who.csrf, author=who.author)

    async def api_me(request: Request, who: SignedIn, form: FormData | None) -> Response:
        raw = request.query_params.get("games", "")
        games = None if raw == "" else whole_number(raw, MOST_GAMES_LISTED)
        if raw != "" and (games is None or games < 1):
            raise HTTPException(400, f"games must be a whole number from 1 to {MOST_GAMES_LISTED}")
        data = await run_in_threadpool(my_data, who, "/api/me", before(request), games)
        return JSONResponse(data)

    async def my_submission(request: Request, who: SignedIn, form: FormData | None) -> Response:
        wanted = int(request.path_params["submission_id"])
        if wanted > LARGEST_ID:  # more than SQLite stores: the query would fail
            raise HTTPException(404, f"you have no upload {wanted}")

        def find() -> dict[str, Any] | None:
            with desk.database().read() as session:
                view = submissions.view(session, desk.db_path, wanted)
            return view.as_json() if view and view.author == who.author else None

        data = await run_in_threadpool(find)
        if data is None:
            raise HTTPException(404, f"you have no upload {wanted}")
        title = f"Upload {wanted}: {data['bot']}"
        return render("author_submission.html", title, data, csrf=who.csrf, author=who.author)

    async def upload(request: Request, who: SignedIn, form: FormData | None) -> Response:
        assert form is not None
        name = form.get("bot")
        archive = form.get("archive")
        try:
            desk.check_name(name if isinstance(name, str) else "", 'fill in "Bot name"')
            if not isinstance(archive, UploadFile):
                raise Refused(400, "choose the bot's archive (tar.gz or zip)")
            assert isinstance(name, str)
            body = await archive.read(desk.limits.archive_bytes + 1)
            desk.check_size(len(body))
            await desk.count_upload(who.token_public_id)
            submission_id, _ = await run_in_threadpool(desk.queue, who.author_id, name, body)
        except Refused as refused:
            raise HTTPException(refused.status, refused.message, refused.headers) from None
        return RedirectResponse(f"/me/submissions/{submission_id}", status_code=303)

    return [
        Route("/me", auth.private(me), methods=["GET"]),
        Route("/me/submissions/{submission_id:int}", auth.private(my_submission), methods=["GET"]),
        Route("/me/upload", auth.private(upload), methods=["POST"]),
        Route("/api/me", auth.private(api_me), methods=["GET"]),
    ]
