"""``arena serve``: the web arena over the database (leaderboards, bots, tournaments, games, the
replay viewer, live games; authors' sign-in and uploads, which alone write); see docs/web.md."""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer

from arena import stopping
from arena.commands import stopped_by_signal
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.logs import parse_size
from arena.commands.options import LogLevel, ServeLogFile
from arena.errors import InputError
from arena.operator_log import LogConfig, logging_to
from arena.web import DEFAULT_HOST, DEFAULT_PORT

if TYPE_CHECKING:
    import uvicorn


def serve(
    db: DbPath = DEFAULT_PATH,
    host: Annotated[
        str,
        typer.Option(
            "--host",
            "--bind",
            help="address to listen on; the default is reachable from this machine only",
        ),
    ] = DEFAULT_HOST,
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="port to listen on")
    ] = DEFAULT_PORT,
    frames_dir: Annotated[
        Path | None,
        typer.Option(
            "--frames-dir",
            metavar="DIR",
            file_okay=False,
            help="keep the replay viewer's frames (a cache) in DIR (default: DB.frames beside "
            "an SQLite file; ~/.cache/arena/HOST-PORT-DBNAME.frames for a postgresql:// --db)",
        ),
    ] = None,
    frames_max_size: Annotated[
        str,
        typer.Option(
            "--frames-max-size",
            metavar="SIZE",
            help="keep the frames within SIZE (500M, 10G; 0: in memory only, none stored), "
            "removing the least recently viewed games' when over it",
        ),
    ] = "1G",
    log_file: ServeLogFile = None,
    log_level: LogLevel = None,
) -> None:
    """Serve the web arena on http://HOST:PORT (safe while tournaments and ladders write).

    It reads the games; it writes only what authors do on a shared arena (sign-ins, uploads:
    docs/hosting.md)."""
    # Imported here: the other commands need neither the web stack nor its start-up time.
    import uvicorn

    from arena.web.app import create_app

    config = LogConfig(log_file, log_level)
    with logging_to(config, also=("uvicorn",)):
        budget = _frames_budget(frames_max_size)
        # a missing or foreign db: one line
        app = create_app(db, frames_dir=frames_dir, frames_max_size=budget)
        listening = _listening(host, port)  # a port in use: one line, before "serving"
        port = listening.getsockname()[1]  # --port 0: the one the system chose
        shown = f"[{host}]" if ":" in host else host
        if config == LogConfig():  # uvicorn's own warnings on stderr, as ever
            settings = uvicorn.Config(app, log_level="warning")
        else:  # uvicorn's lines (requests too, at info) go to the arena's log
            settings = uvicorn.Config(app, log_config=None, log_level=log_level or "info")
        with stopped_by_signal("arena serve"):
            print(f"arena: serving {db} at http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
            _serve_until_stopped(settings, listening)


def _serve_until_stopped(settings: uvicorn.Config, listening: socket.socket) -> None:
    """uvicorn's server on ``listening`` until SIGINT or SIGTERM, then KeyboardInterrupt once its
    orderly shutdown is over. A repeat waits for it (``arena.stopping``): uvicorn's second
    Ctrl-C forced an exit that skipped the app's shutdown (a traceback of its cancelled
    lifespan), and a repeat as the command exited killed it by the signal (143, not 130)."""
    import uvicorn

    class Server(uvicorn.Server):
        stopped = False

        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield  # as uvicorn's own: signals are the main thread's
                return
            previous = {
                signum: signal.signal(signum, self.handle_exit) for signum in stopping.STOP_SIGNALS
            }
            try:
                yield
            finally:
                for signum, handler in previous.items():
                    signal.signal(signum, handler)
                if self.stopped:
                    stopping.command_stops()

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            self.stopped = True  # the first signal shuts down, a repeat changes nothing
            self.should_exit = True

    server = Server(settings)
    server.run(sockets=[listening])
    if server.stopped:
        raise KeyboardInterrupt


def _frames_budget(text: str) -> int:
    """``--frames-max-size``: bytes, as ``arena ladder --logs-max-size`` reads them; 0 keeps
    the frames in memory only."""
    return 0 if text.strip() == "0" else parse_size(text, "--frames-max-size")


def _listening(host: str, port: int) -> socket.socket:
    """A socket listening on HOST:PORT, or InputError (exit 2) saying why not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        listening = socket.socket(family, kind, proto)
    except OSError as exc:  # socket.gaierror included: a host that does not resolve
        raise InputError(f"--host {host!r}: {exc.strerror or exc}") from None
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        listening.bind(address)
        listening.listen(2048)
    except OSError as exc:
        listening.close()
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    listening.set_inheritable(True)
    return listening


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
