"""Replaying a stored game through its engine, from its seed and action log, and checking it
(``arena replay``): the replay's result must equal the stored one, and a game stored with a seal
(``arena.verification``) must match it in every decision, seat and score."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.engines import load_game
from arena.errors import ReplayError, SetupError, UnknownGameError
from arena.records import Outcome, arena_ranks
from arena.storage import bots
from arena.storage.database import open_database
from arena.storage.games import sealed_from_game, sealed_game, seats_of
from arena.storage.models import GameRecord, GameStatus, SeatRecordRow
from arena.storage.target import DatabaseTarget
from arena.verification import check
from engine.core import EngineError, GameState, Result


@dataclass
class StoredGame:
    game: GameRecord
    seats: list[SeatRecordRow]  # in seat order
    versions: dict[int, bots.RegisteredVersion]  # by bot version id
    sealed_from: int  # games from this id on were stored with a seal (``Sealing``)


def load_stored_game(db: DatabaseTarget, game_id: int) -> StoredGame:
    """Game ``game_id`` of the arena database ``db`` (opened read-only), with its seats."""
    database = open_database(db, create=False)
    try:
        with database.read() as session:
            game = session.get(GameRecord, game_id)
            if game is None:
                raise UnknownGameError(f"no game {game_id} in {db}")
            seats = seats_of(session, game_id)
            versions = bots.versions_by_id(session, [s.bot_version_id for s in seats])
            sealed_from = sealed_from_game(session)
    finally:
        database.close()
    return StoredGame(game, seats, versions, sealed_from)


def replayed_state(
    game: GameRecord, before_each: Callable[[int, GameState, int], None] | None = None
) -> GameState:
    """The game's state after replaying its stored actions; ``before_each(step, state, index)``
    sees each position on the way (``Game.replay``)."""
    try:
        return load_game(game.game).replay(
            game.num_players,
            game.seed,
            game.actions,
            game.options,
            rules_version=game.rules_version,
            before_each=before_each,
        )
    except (EngineError, SetupError) as exc:
        raise ReplayError(f"game {game.id} cannot be replayed: {exc}") from None


@dataclass(frozen=True)
class Move:
    """One decision of a stored game, in words."""

    number: int
    seat: int
    decision: str  # its kind and what it is about, as the engine describes it
    words: str  # the chosen action, as its engine describes it
    seconds: float | None  # the seat's time to answer; None: the arena decided, or not recorded
    comment: str


def moves(game: GameRecord) -> list[Move]:
    """Every decision of the stored game, replayed through its engine in order."""
    seconds = game.decision_seconds or []
    comments = game.comments or []
    found: list[Move] = []

    def describe(number: int, state: GameState, index: int) -> None:
        assert state.current_seat is not None  # replay checked that the game goes on
        found.append(
            Move(
                number,
                state.current_seat,
                state.describe_decision(),
                state.describe_action(state.legal_actions()[index]),
                seconds[number] if number < len(seconds) else None,
                comments[number] if number < len(comments) else "",
            )
        )

    replayed_state(game, describe)
    return found


def move_line(move: Move, names: Sequence[str]) -> str:
    """ "#12 seat 1 (random-python) PLAY: farmer on (3,4) with settler [1.8 ms] - a comment";
    Ogallala's "PLACE_CARD (warrior 3): place on (0,1)" names the card too."""
    took = "" if move.seconds is None else f" [{move.seconds * 1000:.1f} ms]"
    note = f" - {move.comment}" if move.comment else ""
    who = f"#{move.number} seat {move.seat} ({names[move.seat]})"
    return f"{who} {move.decision}: {move.words}{took}{note}"


def mismatches(result: Result, seats: Sequence[SeatRecordRow]) -> list[str]:
    """Where the replay's scores and ranks (ranked as the referee ranks forfeits) differ from the
    stored seats; empty when they agree."""
    forfeited = [seat.outcome != Outcome.FINISHED.value for seat in seats]
    ranks = arena_ranks(result.ranks, forfeited)
    problems = []
    for seat in seats:
        replayed_score = result.scores[seat.seat]
        if not math.isclose(replayed_score, seat.score, rel_tol=1e-9, abs_tol=1e-9):
            problems.append(f"seat {seat.seat} score {replayed_score:g} != stored {seat.score:g}")
        if ranks[seat.seat] != seat.rank:
            problems.append(f"seat {seat.seat} rank {ranks[seat.seat]} != stored {seat.rank}")
    return problems


@dataclass(frozen=True)
class Verdict:
    # False: stored before seals (schema < 3), only the result could be checked; or the seal was
    # removed, which is a problem
    sealed: bool
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(stored: StoredGame) -> Verdict:
    """Check the stored game against its replay and its seal. A log that does not replay is a
    failed check, not an error."""
    game = stored.game
    problems: list[str] = []
    if game.verification is None and (game.id or 0) >= stored.sealed_from:
        problems.append(
            f"its seal is missing: every game from id {stored.sealed_from} on was stored with "
            "one, so it was removed (without it the seats' bot versions, scores and ranks "
            "cannot be checked)"
        )
    if game.verification is not None:
        hashes = {
            version_id: registered.version.content_hash
            for version_id, registered in stored.versions.items()
        }
        problems += check(sealed_game(game, stored.seats, hashes), game.verification)
    try:
        state = replayed_state(game)
    except ReplayError as exc:
        return Verdict(game.verification is not None, problems or [str(exc)])
    if game.status in (GameStatus.FINISHED, GameStatus.UNRATED):
        if not state.is_over:
            problems.append(
                f"the replayed game is not over after its {len(game.actions)} stored actions"
            )
        elif differences := mismatches(state.result(), stored.seats):
            problems.append(f"the replay differs from the stored result: {', '.join(differences)}")
    return Verdict(game.verification is not None, list(dict.fromkeys(problems)))
