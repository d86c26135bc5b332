"""``arena submit``: register a bot directory, or a bot already running elsewhere; or, with
``--to URL``, upload it to a hosted arena (``submit_remote``)."""

from __future__ import annotations

import json
import posixpath
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from arena import registration
from arena.building import build_bot
from arena.commands import fail, wide_console
from arena.commands.database import DEFAULT_PATH, DbPath
from arena.commands.sandbox_options import SandboxTool, resolve_policy
from arena.manifest import load_manifest
from arena.referee.bot_text import one_line, shown_lines
from arena.storage.database import open_database
from arena.submissions import client
from arena.uploads.pack import pack_directory, top_level
from arena.wording import counted


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
    to: Annotated[
        str | None,
        typer.Option(
            "--to",
            metavar="URL",
            help="upload the bot directory to the hosted arena at URL (it builds and validates "
            "it) instead of registering it here",
        ),
    ] = None,
    token_file: Annotated[
        Path | None,
        typer.Option(
            "--token-file",
            metavar="FILE",
            help=f"with --to: the file holding your token (default ${client.TOKEN_VARIABLE})",
        ),
    ] = None,
    status: Annotated[
        bool, typer.Option("--status", help="with --to: show your uploads and their state")
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="with --to: the upload's submission, or with --status the list, as JSON"
        ),
    ] = False,
) -> None:
    """Register a bot (a new version when its code changed) after building it (bot.toml's build
    step) and checking its handshake, both in the sandbox unless --sandbox none. With --to
    URL: upload it to a hosted arena, which builds, validates and registers it; --status
    shows how your uploads went."""
    if to is not None:
        if address is not None:
            fail("--to uploads a bot directory; a bot running elsewhere is submitted on the host")
        submit_remote(
            to,
            client.read_token(token_file),
            path,
            status=status,
            as_json=as_json,
            token_file=token_file,
        )
        return
    if status or token_file is not None or as_json:
        fail("--status, --token-file and --json go with --to URL")
    if (path is None) == (address is None):
        fail("give either a bot directory or --address HOST:PORT --name NAME")
    if address is not None and not name:
        fail("--address needs --name NAME")
    if path is not None:
        policy = resolve_policy(sandbox, False, strict=False)
        built = None if no_build else build_bot(load_manifest(path), policy)
        if built is not None:
            typer.echo(f"built in {built.seconds:.1f} s")
        spec = registration.check_local_bot(path, policy, built=built is not None)
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


def submit_remote(
    url: str,
    token: str,
    path: Path | None,
    *,
    status: bool,
    as_json: bool,
    token_file: Path | None = None,
) -> None:
    if status:
        if path is not None:
            fail("--status shows all your uploads: give no bot directory")
        _print_status(client.mine(url, token), as_json)
        if not as_json:  # an active upload whose bot does not play: say why
            _print_out_of_play(client.my_bots(url, token))
        return
    if path is None:
        fail("give the bot directory to upload (or --status)")
    spec = load_manifest(path)
    packed = pack_directory(path)
    if not spec.build and (needed := _left_out_of_command(spec.command or (), packed.left_out)):
        fail(
            f"{path}: bot.toml's command runs {needed}, which {packed.ignore_file} leaves out of "
            "the upload, and the bot has no build step to make it on the arena: keep it in the "
            "upload with an .arenaignore (read instead of .gitignore) that does not ignore it"
        )
    if packed.left_out and not as_json:
        typer.echo(
            f"left out {counted(len(packed.left_out), 'file')} that {packed.ignore_file} ignores "
            f"({_names(packed.left_out)}): "
            + (
                "bot.toml's build makes them again on the arena"
                if spec.build
                else "the bot has no build step, so it runs without them"
            )
        )
    archive = packed.archive
    queued = client.upload(url, token, spec.name, archive)
    if as_json:
        typer.echo(json.dumps({**queued, "files": packed.files, "left_out": packed.left_out}))
        return
    typer.echo(
        f"uploaded {spec.name} ({counted(packed.files, 'file')}, {len(archive)} bytes, "
        f"sha256 {queued['archive_sha256'][:12]}): "
        f"submission #{queued['id']} {queued['state']}; `arena submit --to {url} --status"
        f"{f' --token-file {token_file}' if token_file is not None else ''}` shows how it goes"
    )


def _left_out_of_command(command: tuple[str, ...], left_out: tuple[str, ...]) -> str:
    """The first file of the bot's directory that ``command`` names (its program, or a file it
    is given: ``java -jar target/bot.jar``) and the upload leaves out, or ""."""
    ignored = set(left_out)
    for word in command:
        name = posixpath.normpath(word)
        if not posixpath.isabs(name) and name in ignored:
            return word
    return ""


def _names(names: tuple[str, ...], shown: int = 3) -> str:
    """A few of ``names``, their top-level directories once each."""
    tops = list(dict.fromkeys(map(top_level, names)))
    return ", ".join(tops[:shown]) + (", ..." if len(tops) > shown else "")


def _print_status(found: list[dict[str, Any]], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(found, indent=2))
        return
    if not found:
        typer.echo("no uploads yet")
        return
    # What the server sends is shown as text only: a build's log (or a server) may hold
    # escape sequences that would retitle, clear or hide the author's terminal.
    table = Table("id", "bot", "state", "updated (UTC)", "last line of the log")
    for row in found:
        table.add_row(
            str(row["id"]),
            one_line(row["bot"], 100),
            # "replaced_by": from arenas of December 6 on
            one_line(
                f"{row['state']}, replaced by {row['replaced_by']}"
                if row.get("replaced_by")
                else row["state"],
                100,
            ),
            one_line(row["updated_at"][:19].replace("T", " "), 30),
            one_line((row["log"].splitlines() or [""])[-1], 300),
        )
    wide_console().print(table)
    # the newest failure's whole log (what to fix), unless a newer upload of its bot is active
    failed = next(
        (row for row in found if row["state"] == "failed" and not _superseded(row, found)), None
    )
    if failed is not None:
        typer.echo(f"--- the log of #{failed['id']} ({one_line(failed['bot'], 100)}, failed)")
        typer.echo(shown_lines(failed["log"]))


def _superseded(upload: dict[str, Any], found: list[dict[str, Any]]) -> bool:
    return any(
        row["bot"] == upload["bot"] and row["id"] > upload["id"] and row["state"] == "active"
        for row in found
    )


def _print_out_of_play(found: list[dict[str, Any]]) -> None:
    for bot in found:
        if bot.get("withdrawn"):
            typer.echo(f"{bot['name']}: {one_line(bot['withdrawn'], 500)}")
        for version in bot.get("versions", []):
            for why in version.get("paused", []):
                typer.echo(f"{bot['name']}@{version['version']}: {one_line(why, 500)}")


def register(app: typer.Typer) -> None:
    app.command("submit")(submit)
