"""Tournaments: their settings, entrants, state, and which scheduled games are done."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from arena.errors import SetupError, UnknownTournamentError
from arena.storage.bots import RegisteredVersion, versions_by_id
from arena.storage.models import (
    GameRecord,
    GameStatus,
    Tournament,
    TournamentEntrant,
    utc_now,
)

RUNNING = "running"
STOPPED = "stopped"
FINISHED = "finished"


def create(
    session: Session,
    name: str,
    game: str,
    seed: int,
    settings: dict[str, Any],
    entrants: list[RegisteredVersion],
) -> Tournament:
    """A new tournament (or ladder, or SPRT test). Refused (SetupError) with the seed of
    another of the same game: deals follow from the seed, pod and deal number alone, so they
    would deal the same cards, and the other's replays, public once its deals are played, would
    show this one's hands while its games are in play (outside review). Random seeds (63 bits)
    never meet."""
    same = session.exec(
        select(Tournament.name).where(Tournament.game == game, Tournament.seed == seed)
    ).first()
    if same is not None:
        raise SetupError(
            f"seed {seed} is the seed of {game} tournament {same!r}: the same seed deals the "
            "same cards, and its replays would show this one's hands; give another --seed, "
            "or none (a random one)"
        )
    tournament = Tournament(name=name, game=game, seed=seed, settings=settings)
    session.add(tournament)
    session.flush()
    assert tournament.id is not None, "the flush gave the tournament its id"
    for position, entrant in enumerate(entrants):
        assert entrant.version.id is not None, "a registered version is stored"
        session.add(
            TournamentEntrant(
                tournament_id=tournament.id, position=position, bot_version_id=entrant.version.id
            )
        )
    return tournament


def by_name(session: Session, name: str) -> Tournament:
    tournament = session.exec(select(Tournament).where(Tournament.name == name)).first()
    if tournament is None:
        known = (
            ", ".join(session.exec(select(Tournament.name).order_by(col(Tournament.id)))) or "none"
        )
        raise UnknownTournamentError(f"unknown tournament {name!r} (known: {known})")
    return tournament


def name_of(session: Session, tournament_id: int) -> str | None:
    """The name of the tournament ``tournament_id``, or None if there is none."""
    tournament = session.get(Tournament, tournament_id)
    return None if tournament is None else tournament.name


def name_taken(session: Session, name: str) -> bool:
    return session.exec(select(Tournament.id).where(Tournament.name == name)).first() is not None


def entrants(session: Session, tournament_id: int) -> list[RegisteredVersion]:
    ids = list(
        session.exec(
            select(TournamentEntrant.bot_version_id)
            .where(TournamentEntrant.tournament_id == tournament_id)
            .order_by(col(TournamentEntrant.position))
        )
    )
    found = versions_by_id(session, ids)
    return [found[i] for i in ids]


def finished_keys(session: Session, tournament_id: int) -> set[str]:
    keys = session.exec(
        select(col(GameRecord.schedule_key)).where(
            GameRecord.tournament_id == tournament_id, GameRecord.status == GameStatus.FINISHED
        )
    )
    return {key for key in keys if key is not None}  # a game outside the schedule has no key


def state_of(session: Session, tournament_id: int) -> str | None:
    tournament = session.get(Tournament, tournament_id)
    return None if tournament is None else tournament.state


def set_settings(session: Session, tournament_id: int, settings: dict[str, Any]) -> None:
    """Store a tournament's settings anew (a ladder's rules, given again to ``arena ladder``)."""
    tournament = session.get(Tournament, tournament_id)
    assert tournament is not None, "a stored tournament"
    tournament.settings = settings
    session.add(tournament)


def set_state(session: Session, tournament_id: int, state: str) -> None:
    tournament = session.get(Tournament, tournament_id)
    assert tournament is not None
    tournament.state = state
    tournament.finished_at = utc_now() if state == FINISHED else None
    session.add(tournament)
