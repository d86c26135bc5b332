"""``arena sprt``: is NEW stronger than BASE? A sequential probability ratio test on paired games,
run as a tournament of two entrants (NEW at position 0, BASE at 1, two players): each deal is
played twice with the seats swapped, which makes a pair (``leaderboard.sprt``, pentanomial model).

The test is stored like a tournament (its SPRT parameters in the settings; ``--deals`` is
``max_games / 2``), so it resumes like one and its games show on ``arena leaderboard``. Its
pairing (``SequentialTest``) is the round robin's until the test has decided, and then starts no
further game; the games still running then are recorded but do not count. Pairs are counted in
deal order, only once every earlier deal is complete, so the decision, and the pair it was
reached at, do not depend on which game finished first or on a resume in between. Two-player
games only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from arena.entrants import Entrant, resolve_bot
from arena.errors import SetupError
from arena.records import MatchRecord, Outcome
from arena.sandbox import SandboxPolicy
from arena.storage import tournaments
from arena.storage.database import Database
from arena.storage.sprt import NEW, PairedTest, new_score
from arena.storage.target import DatabaseTarget
from arena.tournament.pairing import Avoid, RoundRobin, never
from arena.tournament.schedule import ScheduledGame, schedule_size
from arena.tournament.settings import TournamentSettings
from arena.tournament.setup import ReadyTournament, create_tournament
from engine.core import OptionValue
from leaderboard.sprt import SPRT


@dataclass(frozen=True)
class SprtParameters:
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def new_test(self) -> SPRT:
        try:
            return SPRT(self.elo0, self.elo1, self.alpha, self.beta)
        except ValueError as exc:
            raise SetupError(str(exc)) from None

    def to_stored(self) -> dict[str, float]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta}


def record_score(scheduled: ScheduledGame, record: MatchRecord) -> float:
    return new_score(
        scheduled.seats,
        [
            (seat.rank, seat.score, "" if seat.outcome is Outcome.FINISHED else seat.outcome.value)
            for seat in record.seats
        ],
    )


def resolve_pair(database: Database | None, texts: Sequence[str], game: str) -> list[Entrant]:
    """NEW and BASE: directories, registered names (newest version), ``NAME@VERSION`` of a
    registered bot, or ``NAME@HOST:PORT``. They may be two versions of one bot."""
    entrants = [resolve_bot(text, game, database) for text in texts]
    new, base = entrants
    if new.registered is None and base.registered is None and new.name == base.name:
        raise SetupError(
            f"NEW and BASE are both unregistered bots named {new.name!r}: "
            "`arena submit` one of them first"
        )
    if (
        new.registered is not None
        and base.registered is not None
        and new.registered.version.id == base.registered.version.id
    ):
        raise SetupError("NEW and BASE are the same bot version")
    return entrants


def create_sprt(
    db: DatabaseTarget,
    game: str,
    new: str,
    base: str,
    parameters: SprtParameters,
    *,
    max_games: int,
    concurrency: int,
    move_time: float,
    seed: int | None,
    name: str | None,
    options: Mapping[str, OptionValue] | None = None,
    sandbox: SandboxPolicy = SandboxPolicy(),
) -> ReadyTournament:
    parameters.new_test()  # checks the parameters before anything is stored
    if max_games < 2:
        raise SetupError("--max-games must be at least 2 (one pair)")
    settings = TournamentSettings(
        players=2,
        deals=max_games // 2,
        concurrency=concurrency,
        move_time=move_time,
        options=dict(options or {}),
        sandbox=sandbox,
        sprt=parameters.to_stored(),
    )
    return create_tournament(db, game, [new, base], settings, seed, name, resolve=resolve_pair)


def raise_max_games(ready: ReadyTournament, max_games: int) -> ReadyTournament:
    """``arena sprt --resume NAME --max-games N``: a test that reached its limit undecided goes
    on to N games. The schedule only grows (deal k is the same deal whatever the count), so the
    pairs played stay the test's first; a limit is only raised."""
    with ready.database.read() as session:
        stored = tournaments.by_name(session, ready.name).settings
    settings = TournamentSettings.from_stored(stored)
    deals = max_games // 2
    if deals == settings.deals:
        return ready
    if deals < settings.deals:
        raise SetupError(
            f"--max-games {max_games}: a test's limit may only be raised (it is "
            f"{settings.deals * 2})"
        )
    if ready.state == tournaments.RUNNING:
        raise SetupError(f"{ready.name!r} is running: stop it before raising its --max-games")
    with ready.database.write() as session:
        tournaments.set_settings(session, ready.id, replace(settings, deals=deals).to_stored())
    return replace(ready, games=schedule_size(len(ready.entrants), settings.players, deals))


class SequentialTest(RoundRobin):
    """The runner's pairing for an SPRT: the round robin's games until ``paired`` has decided,
    each recorded game's score added to it."""

    def __init__(self, paired: PairedTest) -> None:
        super().__init__()
        self.paired = paired

    def next_game(self, avoid: Avoid = never) -> ScheduledGame | None:
        # In order, whatever the slot's bots played: the test counts pairs (a deal played both
        # ways), and a pair left half played when it decides is wasted.
        return None if self.paired.decided else super().next_game()

    def game_recorded(self, scheduled: ScheduledGame, record: MatchRecord) -> None:
        self.paired.add(scheduled.deal, scheduled.seats.index(NEW), record_score(scheduled, record))
