"""Rate limits per token, counted in the arena's database (``rate_event``, schema 9), so that
every web process of one arena (several ``arena serve`` over one PostgreSQL database) shares
them: N processes still allow the rate once, not N times.

A sliding window: at most ``count`` events of a token in any ``seconds``. Each counted event is
one row, kept until it leaves the window; one short write transaction counts it (taking the
write lock, so two processes cannot both take the last place), after a read that refuses a
token already at its limit without taking the lock. What the table can hold is bounded: only
tokens the arena made are counted (a made-up token id is refused by its check anyway and costs
no row), a token has at most ``count`` rows per limit, and each write first purges every row
whose window has passed.

Times are the database's clock, not the web process's: web processes on machines whose clocks
disagree still count one window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlmodel import Session, col, delete, select

from arena.storage.database import Database
from arena.storage.migrations import is_sqlite
from arena.storage.models import AuthorToken, RateEvent


def database_clock(session: Session) -> float:
    """Seconds since the epoch by the database's clock."""
    if is_sqlite(session.connection()):
        sql = "SELECT (julianday('now') - 2440587.5) * 86400.0"
    else:
        sql = "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"
    return float(session.connection().exec_driver_sql(sql).scalar_one())


@dataclass(frozen=True)
class RateLimit:
    """At most ``count`` events per token in any ``seconds``, named ``name`` in the table (each
    limit counts its own events)."""

    name: str
    count: int
    seconds: float
    clock: Callable[[], float] | None = None  # a test's; else the database's clock

    def retry_after(self, database: Database, public_id: str) -> float | None:
        """None, and the event counted, if the token of public id ``public_id`` may go on (or
        no token has that id: nothing to count, its check refuses it); else the seconds until it
        may."""
        with database.read() as session:
            token_id = session.exec(
                select(AuthorToken.id).where(AuthorToken.public_id == public_id)
            ).first()
            if token_id is None:
                return None
            if (wait := self._wait(session, token_id, self._now(session))) is not None:
                return wait  # at its limit already: refused without taking the write lock
        with database.write() as session:
            now = self._now(session)
            session.exec(delete(RateEvent).where(col(RateEvent.expires_at) <= now))
            if (wait := self._wait(session, token_id, now)) is not None:
                return wait  # another process took the last place meanwhile
            session.add(
                RateEvent(token_id=token_id, rate_limit=self.name, expires_at=now + self.seconds)
            )
        return None

    def _now(self, session: Session) -> float:
        return self.clock() if self.clock is not None else database_clock(session)

    def _wait(self, session: Session, token_id: int, now: float) -> float | None:
        """Seconds until the token has fewer than ``count`` events in the window (when the
        ``count``-th newest leaves it), None if it has fewer now."""
        expires = session.exec(
            select(RateEvent.expires_at)
            .where(
                RateEvent.token_id == token_id,
                RateEvent.rate_limit == self.name,
                col(RateEvent.expires_at) > now,
            )
            .order_by(col(RateEvent.expires_at).desc())
            .offset(self.count - 1)
            .limit(1)
        ).first()
        return None if expires is None else expires - now
