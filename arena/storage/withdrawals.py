"""Bots the operator took out of play (``arena bots withdraw``): a misbehaving or abusive bot, or
every bot of an author whose token was revoked. A withdrawn bot's versions join no ladder round
and no new tournament, match or SPRT test until ``arena bots restore``; its games, ratings and
versions stay, and the reason is shown on its page and to its author.

Per bot, not per version: a new upload of a withdrawn bot stays out of play too, so an author
cannot step around a withdrawal by uploading again."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import inspect
from sqlmodel import Session, col, select

from arena.errors import UnknownBotError
from arena.storage.models import Bot, BotVersion, BotWithdrawal


def _bot(session: Session, name: str) -> Bot:
    bot = session.exec(select(Bot).where(Bot.name == name)).first()
    if bot is None:
        known = ", ".join(session.exec(select(Bot.name).order_by(Bot.name))) or "none"
        raise UnknownBotError(f"unknown bot {name!r} (registered: {known})")
    return bot


def withdraw(session: Session, name: str, reason: str) -> bool:
    """Take the bot ``name`` out of play; False if it was already (its reason is then
    replaced)."""
    bot = _bot(session, name)
    found = session.get(BotWithdrawal, bot.id)
    if found is not None:
        found.reason = reason
        session.add(found)
        return False
    session.add(BotWithdrawal(bot_id=bot.id or 0, reason=reason))
    return True


def restore(session: Session, name: str) -> bool:
    """Let the bot ``name`` play again; False if it was not withdrawn."""
    found = session.get(BotWithdrawal, _bot(session, name).id)
    if found is None:
        return False
    session.delete(found)
    return True


def withdraw_authors_bots(session: Session, author_id: int, reason: str) -> list[str]:
    """Withdraw every bot of author ``author_id`` not withdrawn yet; their names."""
    names = []
    for bot in session.exec(select(Bot).where(Bot.author_id == author_id).order_by(Bot.name)):
        if session.get(BotWithdrawal, bot.id) is None:
            session.add(BotWithdrawal(bot_id=bot.id or 0, reason=reason))
            names.append(bot.name)
    return names


def _kept(session: Session) -> bool:
    """False in a database of schema 9 or older, which the web reads without migrating (a
    writing command migrates it): nothing was withdrawn there."""
    return inspect(session.connection()).has_table(BotWithdrawal.__tablename__)


def shown(withdrawal: BotWithdrawal) -> str:
    return (
        f"withdrawn by the operator on {withdrawal.withdrawn_at:%Y-%m-%d %H:%M} UTC: "
        f"{withdrawal.reason}"
    )


def of_bots(session: Session, bot_ids: Iterable[int] | None = None) -> dict[int, str]:
    """Why bots are withdrawn (all, or those of ``bot_ids``), by bot id."""
    if not _kept(session):
        return {}
    query = select(BotWithdrawal)
    if bot_ids is not None:
        query = query.where(col(BotWithdrawal.bot_id).in_(list(bot_ids)))
    return {row.bot_id: shown(row) for row in session.exec(query)}


def of_name(session: Session, name: str) -> str | None:
    """Why the bot ``name`` is withdrawn; None if it is not (or there is no such bot)."""
    if not _kept(session):
        return None
    row = session.exec(
        select(BotWithdrawal)
        .join(Bot, col(Bot.id) == col(BotWithdrawal.bot_id))
        .where(Bot.name == name)
    ).first()
    return None if row is None else shown(row)


def of_versions(session: Session, version_ids: Iterable[int]) -> dict[int, str]:
    """Why versions (of ``version_ids``) may not play, by version id: their bot is withdrawn."""
    if not _kept(session):
        return {}
    rows = session.exec(
        select(BotVersion.id, BotWithdrawal)
        .join(BotWithdrawal, col(BotWithdrawal.bot_id) == col(BotVersion.bot_id))
        .where(col(BotVersion.id).in_(list(version_ids)))
    )
    return {version_id or 0: shown(row) for version_id, row in rows}
