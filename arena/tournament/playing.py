"""Where a tournament's games are played, behind one interface: ``GamePlayer.play(slot, seats,
seed)``, which plays one game and returns its record. Three backends implement it: this
process (``InProcessGames``, below), worker processes (``arena.tournament.workers``) and Ray
actors (``arena.tournament.ray_backend``); the latter two run an ``InProcessGames`` at the other
end. A game slot is one of the runner's ``--concurrency`` lanes: each keeps its own bots up.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from arena.manifest import BotSpec
from arena.records import MatchRecord, Outcome, SeatRecord, TimeControl
from arena.referee.match import MatchObserver, play_match
from arena.referee.pool import BotPool
from arena.tournament.settings import TournamentSettings
from engine.registry import get_game


class Watcher(MatchObserver):
    """Who follows a game as it is played (the live view): played here, it observes the
    referee; played in another process, that process reports the actions so far instead."""

    def progress(self, actions: list[int]) -> None: ...


class GamePlayer(Protocol):
    async def play(
        self, slot: int, seats: Sequence[int], seed: int, watcher: Watcher | None = None
    ) -> MatchRecord:
        """Play the entrants at positions ``seats`` on the deal ``seed`` in game slot ``slot``,
        followed by ``watcher``. A game the arena lost (its worker or node died) comes back
        voided; raises what ``play_match`` raises (a SetupError)."""
        ...


@dataclass(frozen=True)
class GameSetup:
    """What any backend needs to play any game of the tournament (sent once, pickled)."""

    game: str
    seed: int  # the tournament's: kept-up bots' seeds derive from it
    specs: list[BotSpec]  # the entrants, by position
    settings: TournamentSettings
    bot_logs: Path | None


class InProcessGames:
    """Plays the games in this process's trio loop, each slot with its own bots from ``pool``
    (None, --fresh-bots: a process per seat and game)."""

    def __init__(self, setup: GameSetup, pool: BotPool | None) -> None:
        self.setup = setup
        self.pool = pool

    async def play(
        self, slot: int, seats: Sequence[int], seed: int, watcher: Watcher | None = None
    ) -> MatchRecord:
        setup, settings = self.setup, self.setup.settings
        return await play_match(
            setup.game,
            [setup.specs[p] for p in seats],
            seed,
            options=settings.options or None,
            time_control=TimeControl(move_seconds=settings.move_time),
            limits=settings.limits,
            bot_logs=setup.bot_logs,
            sandbox=settings.sandbox,
            lender=None if self.pool is None else self.pool.lender(slot),
            observer=watcher,
        )


@asynccontextmanager
async def in_process(setup: GameSetup) -> AsyncIterator[InProcessGames]:
    """Games played here; the bots kept up for them stop on exit."""
    if setup.settings.fresh_bots:
        yield InProcessGames(setup, None)
        return
    async with BotPool(
        setup.game,
        game_seed=setup.seed,
        limits=setup.settings.limits,
        bot_logs=setup.bot_logs,
        sandbox=setup.settings.sandbox,
    ) as pool:
        yield InProcessGames(setup, pool)


def picklable(setup: GameSetup) -> GameSetup:
    """``setup`` as it can be sent to another process: BotSpec.env is a read-only mapping,
    which does not pickle; a dict does."""
    return replace(setup, specs=[replace(spec, env=dict(spec.env)) for spec in setup.specs])


def voided_record(setup: GameSetup, seats: Sequence[int], seed: int, reason: str) -> MatchRecord:
    """The record of a game the arena lost (its worker or node died): voided, so the runner
    records it as such and plays it again with the same seed."""
    engine = get_game(setup.game)
    names = [setup.specs[p].name for p in seats]
    return MatchRecord(
        game=engine.name,
        rules_version=engine.rules_version,
        options=dict(setup.settings.options),
        seed=seed,
        num_players=len(names),
        actions=[],
        seats=[
            SeatRecord(i, name, 0.0, 0, Outcome.FINISHED, "", 0.0, 0)
            for i, name in enumerate(names)
        ],
        voided=True,
        void_reason=f"arena fault: {reason}",
        duration=0.0,
    )
