"""Registering a bot (``arena submit``, and a tournament's entrants given as directories or
addresses): its handshake is checked first, then a version is stored when its code changed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import trio

from arena.bot.v1 import bot_pb2
from arena.errors import HandshakeMismatchError, NotReadyError, SubmitError
from arena.manifest import (
    BotSpec,
    address_problem,
    expand_games,
    load_manifest,
    name_problem,
    remote_bot,
    unbuilt_problem,
    unknown_games_problem,
    version_problem,
)
from arena.protocol import PROTOCOL_VERSION
from arena.referee.botprocess import check_handshake_name, connect, first_handshake, run_bot
from arena.sandbox import SandboxPolicy, unreadable_problem
from arena.sandbox.tempdirs import new_match_dir, remove_tree
from arena.storage import bots, submissions
from arena.storage.database import Database
from engine.registry import game_names

HANDSHAKE_SECONDS = 10.0


async def _local_handshake(spec: BotSpec, sandbox: SandboxPolicy) -> bot_pb2.HandshakeReply:
    workdir = new_match_dir()
    try:
        async with run_bot(spec, seat=0, game_seed=0, workdir=workdir, sandbox=sandbox) as bot:
            client, reply = await connect(bot, spec.games[0], HANDSHAKE_SECONDS)
            client.close()
            return reply
    finally:
        remove_tree(workdir)


async def _remote_handshake(address: str, name: str) -> bot_pb2.HandshakeReply:
    """The handshake read as a game reads the bot: through the filter of its HTTP/2, so that a
    flood while it is registered costs its filter, not the arena (outside review: 6 s of CPU
    and 377 MB in the arena for a 10 s flood), and with its reason written as a seat's is (the
    bot's own words one line, its control characters as text). Raises NotReadyError."""
    workdir = new_match_dir()
    try:
        spec = remote_bot(address, name)
        async with run_bot(spec, seat=0, game_seed=0, workdir=workdir) as bot:
            client, reply = await first_handshake(bot, HANDSHAKE_SECONDS)
            client.close()
            return reply
    finally:
        remove_tree(workdir)


def check_local_bot(directory: Path, sandbox: SandboxPolicy, built: bool = False) -> BotSpec:
    """The bot's manifest, once it has answered the handshake for all the games it claims,
    started as ``sandbox`` says (its code is a stranger's: as a match would run it). Raises
    SubmitError, SandboxUnavailableError."""
    spec = load_manifest(directory)
    _check_games(spec.games, f"{directory}: bot.toml")
    if problem := unbuilt_problem(spec, built) or unreadable_problem(directory, sandbox):
        raise SubmitError(problem)
    try:
        reply = trio.run(_local_handshake, spec, sandbox)
    except NotReadyError as exc:
        raise SubmitError(
            f"{directory}: bot {spec.name!r} did not answer the handshake: {exc}"
        ) from None
    except HandshakeMismatchError as exc:
        raise SubmitError(
            f"{directory}: bot {spec.name!r}'s handshake does not fit: {exc}"
        ) from None
    missing = sorted(set(spec.games) - set(expand_games(reply.games)))
    if missing:
        raise SubmitError(
            f"{directory}: bot.toml lists {', '.join(missing)} but the bot's handshake does not"
        )
    return spec


def _check_games(games: Sequence[str], where: str) -> None:
    """A bot registered must play a game this arena has (``arena validate`` checks the same)."""
    problem = unknown_games_problem(games) if games else "lists no game"
    if problem:
        raise SubmitError(f"{where} {problem} (it has {', '.join(game_names())})")


def check_remote_bot(address: str, name: str) -> BotSpec:
    """The bot at ``address``, as its handshake describes it."""
    if problem := name_problem(name):
        raise SubmitError(f"--name: {problem}")
    if problem := address_problem(address):
        raise SubmitError(f"--address: {problem}")
    try:  # (the handshake waits for a bot still starting to listen)
        reply = trio.run(_remote_handshake, address, name)
    except NotReadyError as exc:
        raise SubmitError(f"{address}: {exc}") from None
    if reply.protocol_version != PROTOCOL_VERSION:
        raise SubmitError(
            f"{address}: speaks protocol version {reply.protocol_version}, the arena speaks 1"
        )
    try:
        check_handshake_name(reply, name)
    except HandshakeMismatchError as exc:
        raise SubmitError(f"{address}: handshake: {exc} (the --name given)") from None
    version = reply.version or "remote"  # the bot's word, stored and printed: checked as bot.toml's
    if problem := version_problem(version):
        raise SubmitError(f"{address}: handshake: {problem}")
    games = expand_games(reply.games)
    _check_games(games, f"{address}: the handshake")
    return remote_bot(address, name, version=version, games=games)


def content_hash(spec: BotSpec) -> str:
    """What identifies a version of the bot: its files' hash, or a remote bot's address and
    version."""
    if spec.is_remote:
        assert spec.address is not None
        return bots.remote_hash(spec.address, spec.version)
    assert spec.directory is not None
    return bots.directory_hash(spec.directory)


def register_spec(database: Database, spec: BotSpec) -> tuple[bots.RegisteredVersion, bool]:
    """Store the bot as the operator's (a new version only when its content changed); True if
    a version was created. Anyone may name a version that exists; a new one under a name the
    operator may not take is refused as an author's upload of it would be
    (``submissions.name_refused``): on a hosted arena, a name that an author's upload waiting
    in the queue claims, or that could pass for an author's bot."""
    digest = content_hash(spec)
    with database.write() as session:
        if bots.existing_version(session, spec.name, digest) is None and (
            refused := submissions.name_refused(session, spec.name, bots.operator_id(session))
        ):
            raise SubmitError(refused[1])
        return bots.register(session, spec, digest)
