"""Bots and their versions: registering, finding, and turning a stored version back into a
``BotSpec`` the referee can start."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from sqlmodel import Session, col, select

from arena.bot_tree import directory_hash as directory_hash  # what registering a bot stores
from arena.errors import SubmitError, UnknownBotError
from arena.look_alikes import could_pass_for, look_alike_of
from arena.manifest import BotSpec
from arena.storage.models import OPERATOR, Author, Bot, BotVersion


@dataclass(frozen=True)
class RegisteredVersion:
    bot: Bot
    version: BotVersion

    @property
    def label(self) -> str:
        """``name@version#hash``: bot.toml's version plus the start of the content hash, since
        changed code under an unchanged bot.toml version is a new version too."""
        return f"{self.bot.name}@{self.version.version}#{self.version.content_hash[:8]}"


def remote_hash(address: str, version: str) -> str:
    return hashlib.sha256(f"remote:{address}:{version}".encode()).hexdigest()


def register(
    session: Session, spec: BotSpec, content_hash: str, *, author_id: int | None = None
) -> tuple[RegisteredVersion, bool]:
    """Store ``spec`` as a version of its bot, owned by author ``author_id`` (None: the operator,
    who registers on the host itself), unless the same content is already registered; return
    the version and whether it is new. Raises SubmitError for a new version of a bot another
    author owns."""
    if existing := existing_version(session, spec.name, content_hash):
        return existing, False  # anyone may name a version that exists (arena match NAME)
    owner = author_id if author_id is not None else operator_id(session)
    bot = session.exec(select(Bot).where(Bot.name == spec.name)).first()
    if bot is None:
        bot = Bot(name=spec.name, author_id=owner)
        session.add(bot)
        session.flush()
    assert bot.id is not None, "the bot is stored"
    if bot.author_id != owner:
        raise SubmitError(f"bot name {spec.name!r} belongs to another author; choose another name")
    version = BotVersion(
        bot_id=bot.id,
        version=spec.version,
        content_hash=content_hash,
        directory=str(spec.directory) if spec.directory else None,
        command=list(spec.command) if spec.command else None,
        address=spec.address,
        games=list(spec.games),
        env=dict(spec.env),
    )
    session.add(version)
    session.flush()
    return RegisteredVersion(bot, version), True


def existing_version(session: Session, name: str, content_hash: str) -> RegisteredVersion | None:
    """The version of bot ``name`` with the content ``content_hash``, if it is registered."""
    found = session.exec(
        select(Bot, BotVersion)
        .join(BotVersion, col(BotVersion.bot_id) == Bot.id)
        .where(Bot.name == name, BotVersion.content_hash == content_hash)
    ).first()
    return None if found is None else RegisteredVersion(*found)


def operator_id(session: Session) -> int:
    operator = session.exec(select(Author.id).where(Author.name == OPERATOR)).first()
    assert operator is not None, "every database has the operator (schema 5)"
    return operator


def owner_of(session: Session, name: str) -> int | None:
    """The author id of the bot called ``name``, None if there is no such bot."""
    return session.exec(select(Bot.author_id).where(Bot.name == name)).first()


def look_alike_of_others(session: Session, name: str, author_id: int) -> str | None:
    """The name of a bot of another author than ``author_id`` that ``name`` could pass for
    (``arena.look_alikes.look_alike_of``: "аррӏе" for "apple"), or None. One query of every other
    author's bot name: 10,000 names take about 0.05 s the first time, 0.01 s once their
    skeletons are kept."""
    others = session.exec(select(Bot.name).where(col(Bot.author_id) != author_id))
    return look_alike_of(name, others)


def name_taken_by_others(session: Session, name: str, author_id: int) -> str:
    """Why author ``author_id`` may not register a bot called ``name`` (another author's, or,
    new, one that could pass for another author's: ``look_alike_of_others``), or ""."""
    owner = owner_of(session, name)
    if owner is not None and owner != author_id:
        return f"bot name {name!r} belongs to another author; choose another name"
    if owner is None and (other := look_alike_of_others(session, name, author_id)):
        return could_pass_for(name, other)
    return ""


def version_directories(session: Session, author_id: int) -> list[str]:
    """The directories of the versions of author ``author_id``'s bots (remote bots have none)."""
    found = session.exec(
        select(BotVersion.directory)
        .join(Bot, col(Bot.id) == BotVersion.bot_id)
        .where(Bot.author_id == author_id)
    )
    return [directory for directory in found if directory is not None]


def owned(session: Session, author_id: int) -> list[tuple[Bot, list[BotVersion]]]:
    """The bots of author ``author_id`` by name, each with its versions, oldest first."""
    found = session.exec(select(Bot).where(Bot.author_id == author_id).order_by(col(Bot.name)))
    return [
        (
            bot,
            list(
                session.exec(
                    select(BotVersion)
                    .where(BotVersion.bot_id == bot.id)
                    .order_by(col(BotVersion.id))
                )
            ),
        )
        for bot in found
    ]


def latest_version(session: Session, name: str) -> RegisteredVersion:
    """The newest version of the bot called ``name``."""
    bot = session.exec(select(Bot).where(Bot.name == name)).first()
    if bot is None:
        known = ", ".join(session.exec(select(Bot.name).order_by(Bot.name))) or "none"
        raise UnknownBotError(f"unknown bot {name!r} (registered: {known})")
    version = session.exec(
        select(BotVersion).where(BotVersion.bot_id == bot.id).order_by(col(BotVersion.id).desc())
    ).first()
    assert version is not None, "a bot is only ever stored with a version"
    return RegisteredVersion(bot, version)


def all_versions(session: Session) -> list[RegisteredVersion]:
    rows = session.exec(
        select(Bot, BotVersion)
        .join(BotVersion, col(BotVersion.bot_id) == col(Bot.id))
        .order_by(col(Bot.name), col(BotVersion.id))
    )
    return [RegisteredVersion(bot, version) for bot, version in rows]


def version_labels(versions: list[RegisteredVersion]) -> dict[int, str]:
    """A label per version id that tells a bot's versions apart: bot.toml's version, and for a
    later upload under the same bot.toml version (changed code, unchanged number) "-r2", "-r3"...
    in upload order. The first keeps the plain number, so a label never changes."""
    seen: dict[tuple[int | None, str], int] = {}
    labels = {}
    for entry in sorted(versions, key=lambda entry: entry.version.id or 0):
        key = (entry.bot.id, entry.version.version)
        seen[key] = seen.get(key, 0) + 1
        assert entry.version.id is not None
        labels[entry.version.id] = (
            entry.version.version if seen[key] == 1 else f"{entry.version.version}-r{seen[key]}"
        )
    return labels


def versions_named(
    versions: list[RegisteredVersion], labels: dict[int, str], version: str
) -> list[RegisteredVersion]:
    """The versions among ``versions`` (one bot's) that ``version`` names: the one of that label
    (``version_labels``: 1.0, 1.0-r2), else those whose content hash starts with it, or for
    ``VERSION#HASH`` (``RegisteredVersion.label``'s form, which submit and tournaments print)
    those of that bot.toml version whose hash starts with HASH. A bot.toml version needs no rule
    of its own: its first upload is labelled with it."""
    if "#" in version:
        number, _, prefix = version.partition("#")
        return [
            e
            for e in versions
            if e.version.version == number and prefix and e.version.content_hash.startswith(prefix)
        ]
    return [e for e in versions if labels[e.version.id or 0] == version] or [
        e for e in versions if e.version.content_hash.startswith(version)
    ]


def versions_by_id(session: Session, ids: list[int]) -> dict[int, RegisteredVersion]:
    rows = session.exec(
        select(Bot, BotVersion)
        .join(BotVersion, col(BotVersion.bot_id) == col(Bot.id))
        .where(col(BotVersion.id).in_(ids))
    )
    found = {}
    for bot, version in rows:
        assert version.id is not None, "a version read from the database has its id"
        found[version.id] = RegisteredVersion(bot, version)
    return found


def to_spec(registered: RegisteredVersion) -> BotSpec:
    version = registered.version
    return BotSpec(
        name=registered.bot.name,
        version=version.version,
        games=tuple(version.games),
        directory=Path(version.directory) if version.directory else None,
        command=tuple(version.command) if version.command else None,
        address=version.address,
        env=dict(version.env),
        content_hash=None if version.address else version.content_hash,
    )
