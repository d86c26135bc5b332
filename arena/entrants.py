"""One way to name a bot, for ``arena match`` and ``arena tournament`` alike: a bot directory
(with a bot.toml), ``NAME@HOST:PORT`` for a bot already running elsewhere, or the name of a bot
registered with ``arena submit``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import SetupError, UnknownBotError
from arena.manifest import BotSpec, load_manifest, remote_bot
from arena.storage import bots
from arena.storage.database import Database, open_database


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
    return "@" in text and not Path(text).exists()


def _is_directory(text: str) -> bool:
    return "/" in text or Path(text).exists()


def resolve_bot(text: str, game: str, registry: Database | None) -> Entrant:
    """The bot ``text`` names, checked to play ``game``; ``registry`` is the database of
    registered bots, None when there is none yet."""
    if _is_address(text):
        name, address = text.split("@", 1)
        return Entrant(name, remote_bot(address, name, games=(game,)))
    if _is_directory(text):
        spec = load_manifest(Path(text))
        _check_plays(spec, game, f"{Path(text) / 'bot.toml'}: bot")
        return Entrant(spec.name, spec)
    if registry is None:
        raise UnknownBotError(
            f"{text!r} is neither a bot directory nor a registered bot (no bot "
            "is registered yet; give a bot directory or run `arena submit DIR`)"
        )
    with registry.read() as session:
        registered = bots.latest_version(session, text)
    spec = bots.to_spec(registered)
    _check_plays(spec, game, "registered bot")
    return Entrant(spec.name, spec, registered)


def resolve_match_bots(texts: Sequence[str], game: str, db: Path) -> list[Entrant]:
    """The bots of one match, in seat order; the database ``db`` is opened (read only) just when
    a bot is named by its registered name."""
    database = (
        open_database(db, create=False)
        if db.exists() and any(map(names_a_registered_bot, texts))
        else None
    )
    try:
        return [resolve_bot(text, game, database) for text in texts]
    finally:
        if database is not None:
            database.close()


def _check_plays(spec: BotSpec, game: str, what: str) -> None:
    if game not in spec.games:
        raise SetupError(
            f"{what} {spec.name!r} does not play {game} (games: {', '.join(spec.games)})"
        )
