"""``arena submit``: register a bot directory, or a bot already running elsewhere."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import grpc
import trio
import typer

from arena.bot.v1 import bot_pb2
from arena.errors import NotReadyError, SubmitError
from arena.referee.botprocess import connect, run_bot
from arena.referee.client import BotClient
from arena.commands import fail
from arena.commands.database import db_option, open_or_fail
from arena.manifest import BotSpec, ManifestError, load_manifest, remote_bot
from arena.storage import bots
from arena.storage.database import Database, StorageError

HANDSHAKE_SECONDS = 10.0


async def _local_handshake(spec: BotSpec) -> bot_pb2.HandshakeReply:
    workdir = Path(tempfile.mkdtemp(prefix="arena-submit-"))
    try:
        async with run_bot(spec, seat=0, game_seed=0, workdir=workdir) as bot:
            client, reply = await connect(bot, spec.games[0], HANDSHAKE_SECONDS)
            client.close()
            return reply
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


async def _remote_handshake(address: str) -> bot_pb2.HandshakeReply:
    client = BotClient(address, token="")
    try:
        return await client.handshake(HANDSHAKE_SECONDS)
    finally:
        client.close()


def check_local_bot(directory: Path) -> BotSpec:
    """The bot's manifest, once it has answered the handshake for all the games it claims."""
    spec = load_manifest(directory)
    try:
        reply = trio.run(_local_handshake, spec)
    except NotReadyError as exc:
        raise SubmitError(f"{directory}: bot {spec.name!r} did not answer the handshake: "
                          f"{exc}") from None
    missing = sorted(set(spec.games) - set(reply.games))
    if missing:
        raise SubmitError(f"{directory}: bot.toml lists {', '.join(missing)} but the bot's "
                          f"handshake does not")
    return spec


def check_remote_bot(address: str, name: str) -> BotSpec:
    try:
        reply = trio.run(_remote_handshake, address)
    except grpc.RpcError as exc:
        raise SubmitError(f"{address}: no bot answered the handshake: {exc.code().name}: "
                          f"{exc.details()}") from None
    if reply.protocol_version != bot_pb2.PROTOCOL_VERSION_1:
        raise SubmitError(f"{address}: speaks protocol version {reply.protocol_version}, "
                          "the arena speaks 1")
    return remote_bot(address, name, version=reply.version or "remote",
                      games=[game.lower() for game in reply.games])


def register_spec(database: Database, spec: BotSpec) -> tuple[bots.RegisteredVersion, bool]:
    content_hash = (bots.remote_hash(spec.address, spec.version) if spec.is_remote
                    else bots.directory_hash(spec.directory))
    with database.write() as session:
        return bots.register(session, spec, content_hash)


def submit(
    path: Path = typer.Argument(None, help="bot directory with a bot.toml"),
    address: str = typer.Option(None, "--address", help="HOST:PORT of a bot running elsewhere"),
    name: str = typer.Option(None, "--name", help="name of the remote bot (with --address)"),
    db: Path = db_option(),
) -> None:
    """Register a bot (a new version when its code changed) after checking its handshake."""
    if (path is None) == (address is None):
        fail("give either a bot directory or --address HOST:PORT --name NAME")
    if address is not None and not name:
        fail("--address needs --name NAME")
    try:
        spec = check_local_bot(path) if path is not None else check_remote_bot(address, name)
    except (ManifestError, SubmitError) as exc:
        fail(str(exc))
    database = open_or_fail(db, create=True)
    try:
        registered, created = register_spec(database, spec)
    except StorageError as exc:
        fail(str(exc))
    finally:
        database.close()
    state = "registered" if created else "already registered (same content)"
    typer.echo(f"{registered.label} {state}; plays {', '.join(spec.games)}")


def register(app: typer.Typer) -> None:
    app.command("submit")(submit)
