"""``arena tournament``: a round robin between bots, recorded game by game; ``--resume T``
continues a stopped or killed one."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

import trio
import typer

from arena.commands import fail, match_setup, sandbox_options, warn, warn_if_guessable
from arena.commands.database import db_option, open_or_fail
from arena.commands.leaderboard import load_boards, print_board
from arena.commands.submit import SubmitError, check_local_bot
from arena.limits import BotLimits
from arena.manifest import ManifestError, load_manifest
from arena.match import MatchSetupError
from arena.sandbox import SandboxPolicy
from arena.storage import bots, tournaments
from arena.storage.database import Database, StorageError, check_creatable
from arena.storage.models import Tournament
from arena.tournament.runner import run_tournament
from arena.tournament.schedule import schedule_size
from engine.core import EngineError

SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"
MAX_SEED = (1 << 63) - 1  # stored as SQLite's signed 64-bit integer


class TournamentSetupError(Exception):
    """The tournament cannot be set up as asked; one line."""


@dataclass(frozen=True)
class Entrant:
    """A registered version, or a bot directory still to be submitted."""

    name: str
    registered: bots.RegisteredVersion | None = None
    directory: Path | None = None


def _looks_like_path(text: str) -> bool:
    return "/" in text or Path(text).is_dir()


def _registered_entrant(database: Database | None, name: str, game: str) -> Entrant:
    if database is None:
        raise TournamentSetupError(f"unknown bot {name!r} (no bot is registered yet; give a "
                                   "bot directory or run `arena submit DIR`)")
    with database.read() as session:
        try:
            registered = bots.latest_version(session, name)
        except bots.UnknownBotError as exc:
            raise TournamentSetupError(str(exc)) from None
    version = registered.version
    if game not in version.games:
        raise TournamentSetupError(f"bot {name!r} does not play {game} "
                                   f"(games: {', '.join(version.games)})")
    if version.directory and bots.directory_hash(Path(version.directory)) != version.content_hash:
        raise TournamentSetupError(f"bot {name!r} changed in {version.directory} since it was "
                                   "submitted; run `arena submit` on it again")
    return Entrant(name, registered=registered)


def _directory_entrant(directory: Path, game: str) -> Entrant:
    spec = load_manifest(directory)
    if game not in spec.games:
        raise TournamentSetupError(f"{directory}: bot {spec.name!r} does not play {game} "
                                   f"(games: {', '.join(spec.games)})")
    return Entrant(spec.name, directory=directory)


def _default_entrants(database: Database | None, game: str) -> list[Entrant]:
    """All registered bots that play the game, else every sample bot that does."""
    if database is not None:
        with database.read() as session:
            names = sorted({entry.bot.name for entry in bots.all_versions(session)})
        entrants = []
        for name in names:
            try:
                entrants.append(_registered_entrant(database, name, game))
            except TournamentSetupError:
                continue  # plays another game, or changed on disk: not an entrant by default
        if entrants:
            return entrants
    found = []
    for directory in sorted(SAMPLE_BOTS.iterdir()) if SAMPLE_BOTS.is_dir() else []:
        if (directory / "bot.toml").is_file():
            try:
                found.append(_directory_entrant(directory, game))
            except TournamentSetupError:
                continue
    return found


def resolve_entrants(database: Database | None, texts: list[str], game: str) -> list[Entrant]:
    entrants = [(_directory_entrant(Path(text), game) if _looks_like_path(text)
                 else _registered_entrant(database, text, game)) for text in texts]
    if not texts:
        entrants = _default_entrants(database, game)
    names = [entrant.name for entrant in entrants]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise TournamentSetupError(f"bot(s) entered twice: {', '.join(duplicates)}")
    return entrants


def _default_name(game: str) -> str:
    return f"{game}-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}"


def create_tournament(db: Path, game_name: str, bot_texts: list[str], players: int, deals: int,
                      concurrency: int, seed: int | None, move_time: float, name: str | None,
                      option_texts: list[str], limits: BotLimits,
                      sandbox: SandboxPolicy = SandboxPolicy()) -> tuple[Database, int]:
    """Validate everything, then (and only then) submit bot directories given as entrants and
    store the tournament, in one transaction."""
    game = match_setup.load_game(game_name)
    options = match_setup.parse_options(game.name, option_texts)
    game.check_setup(players, options)
    if deals < 1 or concurrency < 1 or not (math.isfinite(move_time) and move_time > 0):
        raise TournamentSetupError("--deals and --concurrency must be >= 1, --move-time a "
                                   "finite number > 0")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise TournamentSetupError(f"--seed must be between 0 and {MAX_SEED} (2^63-1)")
    if db.exists():
        database = open_or_fail(db, create=True)
    else:
        database = None
        check_creatable(db)
    try:
        entrants = resolve_entrants(database, bot_texts, game.name)
        if len(entrants) < players:
            raise TournamentSetupError(
                f"{len(entrants)} entrant(s) for {players}-player games; need at least {players}")
        name = name or _default_name(game.name)
        if database is not None:
            with database.read() as session:
                if tournaments.name_taken(session, name):
                    raise TournamentSetupError(f"a tournament named {name!r} exists; "
                                               f"continue it with --resume {name}")
        specs = {e.name: check_local_bot(e.directory) for e in entrants if e.directory}
    except BaseException:
        if database is not None:
            database.close()
        raise
    hashes = {name: bots.directory_hash(spec.directory) for name, spec in specs.items()}
    settings = {"players": players, "deals": deals, "concurrency": concurrency,
                "move_time": move_time, "options": options, "bot_memory_mib": limits.memory_mib,
                **sandbox.to_settings()}
    if seed is None:
        seed = secrets.randbits(63)  # large: bots cannot guess deals
    else:
        warn_if_guessable(seed)
    database = database or open_or_fail(db, create=True)
    try:
        with database.write() as session:
            if tournaments.name_taken(session, name):  # another process made it meanwhile
                raise TournamentSetupError(f"a tournament named {name!r} exists; "
                                           f"continue it with --resume {name}")
            registered = [entrant.registered
                          or bots.register(session, specs[entrant.name], hashes[entrant.name])[0]
                          for entrant in entrants]
            tournament = tournaments.create(session, name, game.name, seed, settings, registered)
    except (StorageError, TournamentSetupError):
        database.close()
        raise
    typer.echo(f"tournament {name!r}: {game.name}, {len(registered)} entrants "
               f"({', '.join(e.label for e in registered)}), {players} players, {deals} deal(s) "
               f"per pod, {schedule_size(len(registered), players, deals)} games, seed {seed}")
    return database, tournament.id


def open_for_resume(db: Path, name: str) -> tuple[Database, int]:
    database = open_or_fail(db, create=db.exists())  # an old schema is migrated; none is made
    try:
        with database.read() as session:
            tournament = tournaments.by_name(session, name)
            entrants = tournaments.entrants(session, tournament.id)
        for entrant in entrants:
            directory = entrant.version.directory
            if directory and bots.directory_hash(Path(directory)) != entrant.version.content_hash:
                raise TournamentSetupError(
                    f"bot {entrant.bot.name!r} changed in {directory} since the tournament "
                    "started; restore it, or start a new tournament")
        sandbox_options.check_available(SandboxPolicy.from_settings(tournament.settings))
    except (tournaments.UnknownTournamentError, TournamentSetupError, MatchSetupError) as exc:
        database.close()
        raise TournamentSetupError(str(exc)) from None
    typer.echo(f"resuming tournament {name!r} ({tournament.game}, state {tournament.state})")
    return database, tournament.id


def tournament(
    game: str = typer.Option(None, "--game", "-g", help="game to play, see `arena games`"),
    bot_list: str = typer.Option(None, "--bots", help="comma-separated registered bot names or "
                                 "bot directories (default: all registered bots of the game, "
                                 "else the sample bots)"),
    players: int = typer.Option(2, "--players", "-p", help="seats per game"),
    deals: int = typer.Option(2, "--deals", "-k", help="deals (seeds) per pod"),
    concurrency: int = typer.Option(2, "--concurrency", "-c", help="games at once"),
    seed: int = typer.Option(None, "--seed", "-s", help="tournament seed (default: random)"),
    move_time: float = typer.Option(2.0, "--move-time", help="seconds per decision"),
    name: str = typer.Option(None, "--name", "-n", help="tournament name (default: game-time)"),
    option: list[str] = typer.Option([], "--option", "-o", help="game option NAME=VALUE"),
    bot_memory: str = match_setup.bot_memory_option(),
    bot_logs: Path = match_setup.bot_logs_option(),
    sandbox: str = sandbox_options.sandbox_option(),
    allow_network: bool = sandbox_options.allow_network_option(),
    resume: str = typer.Option(None, "--resume", help="continue the tournament of this name "
                               "(its stored settings, --bot-memory and --sandbox included, "
                               "apply; other "
                               "options but --bot-logs are ignored)"),
    db: Path = db_option(),
) -> None:
    """Round robin: every combination of --players entrants (a pod) plays --deals deals, each
    deal once per rotation of the seats. Ctrl-C stops; --resume NAME continues."""
    try:
        limits = match_setup.parse_limits(bot_memory)
        bot_logs = match_setup.prepare_bot_logs(bot_logs)
        if resume is not None:
            given = {"--game": game, "--bots": bot_list, "--seed": seed, "--name": name,
                     "--option": option or None, "--bot-memory": bot_memory,
                     "--sandbox": sandbox, "--allow-network": allow_network or None}
            ignored = [flag for flag, value in given.items() if value is not None]
            if ignored:
                warn(f"--resume continues with the tournament's stored settings; ignored: "
                     f"{', '.join(ignored)}")
            database, tournament_id = open_for_resume(db, resume)
        elif game is None:
            fail("give --game GAME for a new tournament, or --resume NAME")
        else:
            texts = [text.strip() for text in (bot_list or "").split(",") if text.strip()]
            policy = sandbox_options.resolve_policy(sandbox, allow_network, strict=True)
            database, tournament_id = create_tournament(
                db, game, texts, players, deals, concurrency, seed, move_time, name, option,
                limits, policy)
    except (TournamentSetupError, ManifestError, SubmitError, MatchSetupError, EngineError,
            StorageError) as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted before the tournament started; nothing was stored", code=130)
    match_setup.warn_unless_limits_enforced()
    try:
        summary = trio.run(partial(run_tournament, database, tournament_id, bot_logs=bot_logs))
        with database.read() as session:
            stored = session.get(Tournament, tournament_id)
        boards = load_boards(database, stored.game)
    except (StorageError, MatchSetupError) as exc:
        fail(str(exc))
    finally:
        database.close()
    for board in boards:
        print_board(board)
    if summary.stopped or not summary.complete:
        why = "stopped" if summary.stopped else "incomplete (voided games remain)"
        typer.echo(f"{why}: {summary.done}/{summary.total} games recorded; continue with "
                   f"`arena tournament --resume {stored.name}`", err=True)
        raise typer.Exit(130 if summary.stopped else 1)
    typer.echo(f"tournament {stored.name!r} finished: {summary.total} games")


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)
