"""One way to name a bot, for ``arena match``, ``arena tournament`` and ``arena sprt`` alike: a
bot directory (with a bot.toml), ``NAME@HOST:PORT`` for a bot already running elsewhere, the name
of a bot registered with ``arena submit`` (its newest version), or ``NAME@VERSION`` for one of its
versions (a label as ``arena bots`` shows it, 1.0 or 1.0-r2, or a content-hash prefix). An
address has a port; a version has no colon, so the two never meet."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.bot_tree import holds_code
from arena.errors import ArenaError, SetupError, UnknownBotError
from arena.manifest import (
    BotSpec,
    address_problem,
    load_manifest,
    name_problem,
    remote_bot,
    unbuilt_problem,
)
from arena.storage import bots, withdrawals
from arena.storage.database import Database, open_database
from arena.storage.target import DatabaseTarget, may_exist


@dataclass(frozen=True)
class Entrant:
    """A bot as the user named it: how to run it, and its registered version if it has one
    (None for a bot directory or a remote bot given directly)."""

    name: str
    spec: BotSpec
    registered: bots.RegisteredVersion | None = None


def names_a_registered_bot(text: str) -> bool:
    """Whether ``text`` is a registered bot's name rather than a directory or an address."""
    return not (_is_address(text) or _is_directory(text))


def _is_address(text: str) -> bool:
    return ":" in text.partition("@")[2] and not Path(text).exists()


def _is_directory(text: str) -> bool:
    return "/" in text or Path(text).exists()


def check_unchanged(version: bots.RegisteredVersion, since: str) -> None:
    """A registered version runs from its directory: refuse it once that code has changed,
    since its games would be recorded under a version whose code is gone."""
    directory = version.version.directory
    if directory and not holds_code(Path(directory), version.version.content_hash):
        raise SetupError(f"bot {version.bot.name!r} changed in {directory} since {since}")


def _refuse_withdrawn(name: str, withdrawn: str | None) -> None:
    """Withdrawal is per bot name (``arena.storage.withdrawals``), however the bot is named: by
    its registration, its directory (whose bot.toml gives the name) or its address."""
    if withdrawn:
        raise SetupError(
            f"bot {name!r} is {withdrawn}; `arena bots restore {name}` lets it play again"
        )


def _in_play(registry: Database | None, entrant: Entrant) -> Entrant:
    if registry is not None:
        with registry.read() as session:
            _refuse_withdrawn(entrant.name, withdrawals.of_name(session, entrant.name))
    return entrant


def _registered(registry: Database, text: str) -> bots.RegisteredVersion:
    """The version ``NAME`` (the newest) or ``NAME@VERSION`` names, with its code unchanged and
    its bot in play."""
    name, _, version = text.partition("@")
    with registry.read() as session:
        _refuse_withdrawn(name, withdrawals.of_name(session, name))
        if not version:
            newest = bots.latest_version(session, name)
            check_unchanged(newest, "it was submitted; run `arena submit` on it again")
            return newest
        everything = bots.all_versions(session)
    mine = [entry for entry in everything if entry.bot.name == name]
    if not mine:
        known = ", ".join(sorted({entry.bot.name for entry in everything})) or "none"
        raise UnknownBotError(f"unknown bot {name!r} (registered: {known})")
    labels = bots.version_labels(mine)
    found = bots.versions_named(mine, labels, version)
    if not found:
        raise UnknownBotError(
            f"bot {name!r} has no version {version!r} (versions: {', '.join(labels.values())})"
        )
    if len(found) > 1:
        raise SetupError(f"{text!r} names {len(found)} versions; give a longer hash prefix")
    newest = max(mine, key=lambda entry: entry.version.id or 0)
    check_unchanged(
        found[0],
        "it was submitted; run `arena submit` on it again"
        if found[0] is newest
        else "this version was submitted; name its newest version instead",
    )
    return found[0]


def resolve_bot(text: str, game: str, registry: Database | None) -> Entrant:
    """The bot ``text`` names, checked to play ``game`` and not withdrawn; ``registry`` is the
    database of registered bots, None when there is none yet. A word that is both a directory
    here and a registered bot's name is the directory (``NAME@VERSION`` names the registered
    one)."""
    if _is_address(text):
        name, address = text.split("@", 1)
        if problem := name_problem(name) or address_problem(address):
            raise SetupError(f"{text!r} is no NAME@HOST:PORT: {problem}")
        return _in_play(registry, Entrant(name, remote_bot(address, name, games=(game,))))
    if _is_directory(text):
        spec = load_manifest(Path(text))
        _check_plays(spec, game, f"{Path(text) / 'bot.toml'}: bot")
        return _in_play(registry, Entrant(spec.name, spec))
    if registry is None:
        raise UnknownBotError(
            f"{text!r} is neither a bot directory, an address NAME@HOST:PORT nor a registered "
            "bot (no bot is registered yet; give a bot directory or run `arena submit DIR`)"
        )
    return resolve_registered(text, game, registry)


def resolve_registered(text: str, game: str, registry: Database) -> Entrant:
    """The registered bot ``text`` (``NAME`` or ``NAME@VERSION``) names, checked to play
    ``game``; never read as a directory or an address. A name comes from its author: the names
    of every registered bot (a tournament or ladder without ``--bots``) must not reach the
    host's paths, as a name equal to a directory on the host once made a ladder build and run
    that directory (outside review)."""
    registered = _registered(registry, text)
    spec = bots.to_spec(registered)
    _check_plays(spec, game, "registered bot")
    return Entrant(spec.name, spec, registered)


def resolve_match_bots(texts: Sequence[str], game: str, db: DatabaseTarget) -> list[Entrant]:
    """The bots of one match, in seat order; the database ``db`` is opened (read only) to look
    up registered names and withdrawn bots. Where no bot is named by its registration, a
    database that cannot be opened here is left alone: a match with --no-store needs none, and
    one of an older schema is migrated when the game is stored (it knows no withdrawals)."""
    database = None
    if may_exist(db):
        try:
            database = open_database(db, create=False)
        except ArenaError:
            if any(map(names_a_registered_bot, texts)):
                raise
    try:
        entrants = [resolve_bot(text, game, database) for text in texts]
    finally:
        if database is not None:
            database.close()
    # A match runs a directory as it is (a tournament builds it first, as submit does).
    for entrant in entrants:
        if entrant.registered is None and (problem := unbuilt_problem(entrant.spec)):
            raise SetupError(problem)
    return entrants


def _check_plays(spec: BotSpec, game: str, what: str) -> None:
    if game not in spec.games:
        raise SetupError(
            f"{what} {spec.name!r} does not play {game} (games: {', '.join(spec.games)})"
        )
