"""Each game's log of an author's own bot, for that author alone:
``GET /me/games/{game_id}/seats/{seat}/log``, with the session's cookie or the author's token
(``Authorization: Bearer TOKEN``, for scripts).

The bot's stdout and stderr as the referee kept them (a hosted ladder keeps them in
``DB-hosted/logs/``, ``docs/hosting.md``; only regular files right inside that directory are
read): the part of the bot's log file that game wrote (``seat_log``), at most ``LOG_LIMIT``
bytes (its tail past that, said so in its first line). Sent as a download of plain text
(``attachment``, ``nosniff``): a bot writes anything in its log, and no browser may take it for
a page. Nobody else gets it: another author, a visitor without credentials, or any seat of
a bot that is not the author's (the operator's included) gets the same 404 as a game that does
not exist.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.storage import seat_logs
from arena.storage.models import SeatLog
from arena.storage.read_only import stored_deal_in_play
from arena.web.pages import held_back
from arena.web.sessions import WebAuth
from arena.web.submissions import Refused

LOG_LIMIT = 4 << 20  # bytes of one game's log sent at most: its end, where a crash is told
_LARGEST_ID = 2**63 - 1
_READ_NO_FOLLOW = (
    os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
)  # SQLite's largest integer: a larger one names nothing


def log_path(game_id: int, seat: int) -> str:
    return f"/me/games/{game_id}/seats/{seat}/log"


def still_kept(logs: Path, path: str) -> bool:
    """Whether the log file ``path`` can still be read (not pruned, nor rotated away)."""
    file = _open_kept(logs, path)
    if file is None:
        return False
    file.close()
    return True


def _open_kept(logs: Path, path: str) -> BinaryIO | None:
    """The log file ``path`` opened for reading, if it is a regular file right inside ``logs``
    (the arena's logs directory) and nothing else: not a link (never followed, even to another
    author's log), not a FIFO (opened without waiting, then refused), not a hard link (a log has
    one name). None otherwise, or if it is gone."""
    where = Path(path)
    try:
        directory = os.path.realpath(logs)
        if os.path.realpath(where.parent) != directory:
            return None
        folder = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fd = os.open(where.name, _READ_NO_FOLLOW, dir_fd=folder)
        finally:
            os.close(folder)
    except OSError:
        return None
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode) or status.st_nlink != 1:
        os.close(fd)
        return None
    return os.fdopen(fd, "rb")


def read_slice(logs: Path, piece: SeatLog, limit: int) -> bytes | None:
    """The bytes the game wrote, the last ``limit`` of them after a line that says what was left
    out; None if the file is gone (an operator pruned old logs) or is not a log of ``logs``."""
    start = max(piece.start, piece.end - limit)
    file = _open_kept(logs, piece.path)
    if file is None:
        return None
    try:
        with file:
            file.seek(start)
            data = file.read(piece.end - start)
    except OSError:
        return None
    if start > piece.start:
        note = (
            f"[arena: this game's log has {piece.end - piece.start} bytes; the first "
            f"{start - piece.start} are left out, the last {piece.end - start} follow]\n"
        )
        return note.encode() + data
    return data


def bot_log_routes(auth: WebAuth) -> list[Route]:
    desk = auth.desk

    async def author_id(request: Request) -> int | None:
        """Who asks: a token's author (a bad token is refused, 401), else the signed-in one."""
        if "authorization" in request.headers:
            try:
                author, _ = await desk.bearer(request)
            except Refused as refused:
                raise HTTPException(refused.status, refused.message, refused.headers) from None
            return author.id
        who = await auth.signed_in(request)
        return None if who is None else who.author_id

    async def bot_log(request: Request) -> Response:
        game_id, seat = request.path_params["game_id"], request.path_params["seat"]
        nothing = HTTPException(404, f"you have no log of seat {seat} of game {game_id}")
        asking = await author_id(request)
        if asking is None or game_id > _LARGEST_ID or seat > _LARGEST_ID:
            raise nothing

        def find() -> tuple[str, bytes | None] | None:
            with desk.database().read() as session:
                found = seat_logs.own_seat_log(session, asking, game_id, seat)
                held = found is not None and stored_deal_in_play(session, game_id)
            if found is None:
                return None
            if held:  # what the bot wrote of the deal (the final views) would tell the others
                raise HTTPException(403, held_back({"id": game_id, "held": held}))
            return found[0], read_slice(desk.hosted.logs, found[1], LOG_LIMIT)

        found = await run_in_threadpool(find)
        if found is None:
            raise nothing
        bot, data = found
        if data is None:
            raise HTTPException(410, f"the log of seat {seat} of game {game_id} is kept no more")
        name = f"game{game_id}-seat{seat}-{re.sub(r'[^A-Za-z0-9._-]', '_', bot)}.log"
        return Response(
            data,
            media_type="text/plain; charset=utf-8",
            headers={
                "content-disposition": f'attachment; filename="{name}"',
                "cache-control": "private, no-store",
            },
        )

    return [Route("/me/games/{game_id:int}/seats/{seat:int}/log", bot_log, methods=["GET"])]
