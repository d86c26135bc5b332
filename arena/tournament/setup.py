"""Creating a tournament and resuming one: every check happens before anything is stored, and
every problem is an ``InputError`` with a one-line reason.

A new tournament's entrants are named as for ``arena match`` (``arena.entrants``); without
names, they are the registered bots that play the game, else the sample bots that do. Entrants
given as directories or addresses are registered (after a handshake) in the same transaction
that stores the tournament."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from arena import game_setup, registration
from arena.building import build_bot
from arena.entrants import Entrant, check_unchanged, resolve_bot, resolve_registered
from arena.errors import InputError, SetupError
from arena.manifest import MANIFEST_NAME, BotSpec, load_manifest
from arena.sandbox import SandboxPolicy, check_available
from arena.storage import bots, run_lock, tournaments, withdrawals
from arena.storage.database import Database, check_creatable, open_database
from arena.storage.target import DatabaseTarget, may_exist
from arena.tournament.schedule import schedule_size
from arena.tournament.settings import TournamentSettings

# The sample bots of a checkout: the entrants of a first tournament.
SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"
MAX_SEED = (1 << 63) - 1  # seeds are stored as SQLite's signed 64-bit integers


@dataclass
class ReadyTournament:
    """A tournament stored and ready to run; the caller closes ``database``."""

    database: Database
    id: int
    name: str
    game: str
    state: str
    entrants: list[str]  # labels, in schedule order
    seed: int
    games: int  # scheduled games in all


def default_entrants(database: Database | None, game: str) -> list[Entrant]:
    """All registered bots that play the game, else every sample bot that does."""
    if database is not None:
        with database.read() as session:
            names = sorted({entry.bot.name for entry in bots.all_versions(session)})
        entrants = []
        for name in names:
            try:
                entrants.append(resolve_registered(name, game, database))
            except InputError:
                continue  # plays another game, or changed on disk: not an entrant by default
        if entrants:
            return entrants
    if not SAMPLE_BOTS.is_dir():
        # The sample bots are not package data (the Node bot needs `npm ci` in its own
        # directory): an installed wheel has none to fall back on.
        raise SetupError(
            "no bots given and none registered, and the sample bots come only "
            "with a source checkout: give --bots DIR,DIR,... or run "
            "`arena submit DIR` first"
        )
    found = []
    for directory in sorted(SAMPLE_BOTS.iterdir()):
        if (directory / MANIFEST_NAME).is_file():
            spec = load_manifest(directory)
            if game in spec.games:
                found.append(Entrant(spec.name, spec))
    return found


def resolve_entrants(database: Database | None, texts: Sequence[str], game: str) -> list[Entrant]:
    """The entrants named by ``texts`` (the defaults if none), each entered once."""
    entrants = (
        [resolve_bot(text, game, database) for text in texts]
        if texts
        else default_entrants(database, game)
    )
    names = [entrant.name for entrant in entrants]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise SetupError(f"bot(s) entered twice: {', '.join(duplicates)}")
    return entrants


_NAME_CHARS = 100


def _check_name(name: str) -> None:
    """A tournament's name is typed after --resume and shown in tables and pages: one line."""
    if not name.strip() or not name.isprintable() or len(name) > _NAME_CHARS:
        raise SetupError(
            f"tournament name {name[:80]!r}: use 1 to {_NAME_CHARS} printable characters"
        )


def _taken(name: str, settings: TournamentSettings) -> str:
    """Why ``name`` cannot be used, and how to go on with the one that has it."""
    if settings.ladder is not None:  # a ladder started twice at once: the other one made it
        return (
            f"another run made the ladder {name!r} just now, and plays it: `arena ladder --name "
            f"{name}` goes on with it once that run stops"
        )
    return f"a tournament named {name!r} exists; continue it with --resume {name}"


def _default_name(game: str) -> str:
    return f"{game}-{datetime.now(UTC):%Y%m%d-%H%M%S}"


def _checked_spec(entrant: Entrant, game: str, sandbox: SandboxPolicy) -> BotSpec:
    """An unregistered entrant's spec once its handshake has been checked (a local bot built by
    bot.toml's build, then started, in the tournament's sandbox, as ``arena submit`` does)."""
    spec = entrant.spec
    if spec.is_remote:
        assert spec.address is not None
        spec = registration.check_remote_bot(spec.address, spec.name)
        if game not in spec.games:
            raise SetupError(
                f"{spec.address}: bot {spec.name!r} says it plays "
                f"{', '.join(spec.games) or 'nothing'}, not {game}"
            )
        return spec
    assert spec.directory is not None
    build_bot(spec, sandbox)  # the code registered is the code built from the directory
    return registration.check_local_bot(spec.directory, sandbox)


# How entrant texts become entrants: ``resolve_entrants`` for a round robin; ``arena sprt`` has
# its own (two versions of one bot are two entrants there).
EntrantResolver = Callable[[Database | None, Sequence[str], str], list[Entrant]]


MAX_SCHEDULE = 1_000_000  # games of one tournament (about 350 MB of schedule)


def create_tournament(
    db: DatabaseTarget,
    game_name: str,
    entrant_texts: Sequence[str],
    settings: TournamentSettings,
    seed: int | None = None,
    name: str | None = None,
    resolve: EntrantResolver = resolve_entrants,
) -> ReadyTournament:
    """Check everything, then (and only then) register the entrants not registered yet and
    store the tournament, in one transaction. ``seed`` None: a random 63-bit seed."""
    game = game_setup.load_game(game_name)
    game_setup.check_players(game, settings.players, dict(settings.options))
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise SetupError(f"--seed must be between 0 and {MAX_SEED} (2^63-1)")
    if name is not None:
        _check_name(name)
    if may_exist(db):
        database: Database | None = open_database(db, create=True)
    else:
        database = None
        check_creatable(db)
    try:
        entrants = resolve(database, entrant_texts, game.name)
        if len(entrants) < settings.players:
            raise SetupError(
                f"{len(entrants)} entrant(s) for {settings.players}-player games; "
                f"need at least {settings.players}"
            )
        games = schedule_size(len(entrants), settings.players, settings.deals)
        if games > MAX_SCHEDULE:  # it is built whole, a few hundred bytes a game
            raise SetupError(
                f"{games:,} games in the schedule (at most {MAX_SCHEDULE:,}): give fewer --deals "
                "or entrants, or run `arena ladder`, which plays on without a schedule"
            )
        name = name or _default_name(game.name)
        if database is not None:
            with database.read() as session:
                if tournaments.name_taken(session, name):
                    raise SetupError(_taken(name, settings))
        specs = {
            e.name: _checked_spec(e, game.name, settings.sandbox)
            for e in entrants
            if e.registered is None
        }
        hashes = {entrant: registration.content_hash(spec) for entrant, spec in specs.items()}
        if seed is None:
            seed = secrets.randbits(63)  # large: bots cannot guess deals
        database = database or open_database(db, create=True)
        with database.write() as session:
            if tournaments.name_taken(session, name):  # another process made it meanwhile
                raise SetupError(_taken(name, settings))
            registered = [
                entrant.registered
                or bots.register(session, specs[entrant.name], hashes[entrant.name])[0]
                for entrant in entrants
            ]
            if len({version.version.id for version in registered}) < len(registered):
                raise SetupError(
                    "the same bot version entered twice (same code as a registered version)"
                )
            tournament = tournaments.create(
                session, name, game.name, seed, settings.to_stored(), registered
            )
            assert tournament.id is not None
    except BaseException:
        if database is not None:
            database.close()
        raise
    return ReadyTournament(
        database,
        tournament.id,
        name,
        game.name,
        tournament.state,
        [version.label for version in registered],
        seed,
        schedule_size(len(registered), settings.players, settings.deals),
    )


def open_for_resume(db: DatabaseTarget, name: str, *, sprt: bool = False) -> ReadyTournament:
    """The stored tournament ``name`` (an SPRT test if ``sprt``, else a round robin), its
    entrants unchanged on disk since it started."""
    database = open_database(db, create=may_exist(db))  # an old schema is migrated; none is made
    try:
        with database.read() as session:
            tournament = tournaments.by_name(session, name)
            assert tournament.id is not None  # stored
            entrants = tournaments.entrants(session, tournament.id)
            state = run_lock.shown_state(  # "running" after kill -9 shows as stopped
                database.target, tournament.id, tournament.state, session.connection()
            )
            withdrawn = withdrawals.of_versions(session, [e.version.id or 0 for e in entrants])
        for entrant in entrants:
            if why := withdrawn.get(entrant.version.id or 0):
                raise SetupError(
                    f"bot {entrant.bot.name!r} is {why}; `arena bots restore "
                    f"{entrant.bot.name}` lets it play again, and the tournament go on"
                )
            check_unchanged(
                entrant, "the tournament started; restore it, or start a new tournament"
            )
        settings = TournamentSettings.from_stored(tournament.settings)
        check_available(settings.sandbox)  # e.g. sandboxed, but bwrap is gone from this machine
        if settings.ladder is not None:
            raise SetupError(f"{name!r} is a ladder: go on with `arena ladder --name {name}`")
        if (settings.sprt is not None) != sprt:
            raise SetupError(
                f"{name!r} is "
                + (
                    f"an SPRT test: continue it with `arena sprt --resume {name}`"
                    if settings.sprt is not None
                    else "a round-robin tournament, not an SPRT test"
                )
            )
    except BaseException:
        database.close()
        raise
    return ReadyTournament(
        database,
        tournament.id,
        tournament.name,
        tournament.game,
        state,
        [entrant.label for entrant in entrants],
        tournament.seed,
        schedule_size(len(entrants), settings.players, settings.deals),
    )
