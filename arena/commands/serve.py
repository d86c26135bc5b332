"""``arena serve``: the read-only web arena over the database (leaderboards, bots, tournaments,
games and the replay viewer); see docs/web.md."""

from __future__ import annotations

from pathlib import Path

import typer

from arena.commands import fail
from arena.commands.database import db_option

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def serve(
    db: Path = db_option(),
    host: str = typer.Option(DEFAULT_HOST, "--host",
                             help="address to listen on; the default is reachable from this "
                                  "machine only"),
    port: int = typer.Option(DEFAULT_PORT, "--port", min=0, max=65535, help="port to listen on"),
) -> None:
    """Serve the web arena, read-only, on http://HOST:PORT (safe while tournaments write)."""
    # Imported here: the other commands need neither the web stack nor its start-up time.
    import uvicorn

    from arena.web.app import create_app
    from arena.web.queries import DatabaseUnavailable

    try:
        app = create_app(db)
    except DatabaseUnavailable as exc:
        fail(str(exc))
    shown = f"[{host}]" if ":" in host else host
    print(f"arena: serving {db} read-only at http://{shown}:{port}/ (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
