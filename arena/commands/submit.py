"""``arena submit``: register a bot directory, or a bot already running elsewhere."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena import registration
from arena.building import build_bot
from arena.commands import fail
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.sandbox_options import SandboxTool, resolve_policy
from arena.manifest import load_manifest
from arena.storage.database import open_database


def submit(
    path: Annotated[Path | None, typer.Argument(help="bot directory with a bot.toml")] = None,
    address: Annotated[
        str | None, typer.Option("--address", help="HOST:PORT of a bot running elsewhere")
    ] = None,
    name: Annotated[
        str | None, typer.Option("--name", help="name of the remote bot (with --address)")
    ] = None,
    db: DbPath = DEFAULT_PATH,
    sandbox: SandboxTool = None,
    no_build: Annotated[
        bool,
        typer.Option(
            "--no-build", help="skip bot.toml's build step: the directory is built already"
        ),
    ] = False,
) -> None:
    """Register a bot (a new version when its code changed) after building it (bot.toml's build
    step) and checking its handshake, both in the sandbox unless --sandbox none."""
    if (path is None) == (address is None):
        fail("give either a bot directory or --address HOST:PORT --name NAME")
    if address is not None and not name:
        fail("--address needs --name NAME")
    if path is not None:
        policy = resolve_policy(sandbox, False, strict=False)
        if not no_build:
            built = build_bot(load_manifest(path), policy)
            if built is not None:
                typer.echo(f"built in {built.seconds:.1f} s")
        spec = registration.check_local_bot(path, policy)
    else:
        assert address is not None and name is not None
        spec = registration.check_remote_bot(address, name)
    database = open_database(db, create=True)
    try:
        registered, created = registration.register_spec(database, spec)
    finally:
        database.close()
    state = "registered" if created else "already registered (same content)"
    typer.echo(f"{registered.label} {state}; plays {', '.join(spec.games)}")


def register(app: typer.Typer) -> None:
    app.command("submit")(submit)
