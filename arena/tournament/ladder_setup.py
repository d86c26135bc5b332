"""Starting a ladder, or finding the stored one to go on with: checked before anything is stored,
every problem an ``InputError`` with a one-line reason (as ``arena.tournament.setup`` does for a
tournament, whose creation this reuses)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from arena import game_setup
from arena.errors import SetupError
from arena.sandbox import check_available
from arena.storage import tournaments
from arena.storage.database import open_database
from arena.storage.target import DatabaseTarget, may_exist
from arena.tournament.ladder import LadderRules
from arena.tournament.settings import TournamentSettings
from arena.tournament.setup import ReadyTournament, create_tournament


def default_name(game: str) -> str:
    return f"{game}-ladder"


def ladder_exists(db: DatabaseTarget, name: str) -> bool:
    if not may_exist(db):
        return False
    database = open_database(db, create=True)  # an old schema is migrated
    try:
        with database.read() as session:
            return tournaments.name_taken(session, name)
    finally:
        database.close()


def create_ladder(
    db: DatabaseTarget,
    game: str,
    entrant_texts: Sequence[str],
    settings: TournamentSettings,
    rules: LadderRules,
    seed: int | None,
    name: str,
) -> ReadyTournament:
    """Store a new ladder: ``entrant_texts`` (fixed entrants, ``rules.fixed``) or every
    registered bot's newest version (else the sample bots), at least one pod's worth."""
    if not rules.boards or len(set(rules.boards)) != len(rules.boards):
        raise SetupError("give each --players count once")
    if rules.games_per_hour < 0 or rules.pause_after < 0:
        raise SetupError("--games-per-hour and --pause-after must be >= 0")
    engine = game_setup.load_game(game)
    for players in rules.boards:
        game_setup.check_players(engine, players, dict(settings.options))
    settings = replace(settings, players=min(rules.boards), deals=1, ladder=rules.to_stored())
    return create_tournament(db, engine.name, entrant_texts, settings, seed, name)


def open_ladder(db: DatabaseTarget, name: str) -> ReadyTournament:
    """The stored ladder ``name``, to run on."""
    database = open_database(db, create=True)
    try:
        with database.read() as session:
            ladder = tournaments.by_name(session, name)
            assert ladder.id is not None
            entrants = tournaments.entrants(session, ladder.id)
        settings = TournamentSettings.from_stored(ladder.settings)
        if settings.ladder is None:
            raise SetupError(
                f"{name!r} is a tournament, not a ladder: continue it with "
                f"`arena {'sprt' if settings.sprt else 'tournament'} --resume {name}`"
            )
        check_available(settings.sandbox)
    except BaseException:
        database.close()
        raise
    return ReadyTournament(
        database,
        ladder.id,
        ladder.name,
        ladder.game,
        ladder.state,
        [entrant.label for entrant in entrants],
        ladder.seed,
        0,
    )
