"""Everything ``arena match`` checks before any bot starts, gathered into one plan to play."""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena import game_setup
from arena.entrants import resolve_match_bots
from arena.errors import SetupError
from arena.manifest import BotSpec
from arena.records import TimeControl
from arena.sandbox import SandboxPolicy, unreadable_problem
from arena.sandbox.limits import BotLimits
from arena.storage.target import DatabaseTarget
from engine.core import OptionValue


@dataclass(frozen=True)
class MatchPlan:
    """The arguments of ``play_match`` for one checked match."""

    game: str
    bots: list[BotSpec]  # in seat order
    seed: int
    options: dict[str, OptionValue]
    time_control: TimeControl
    limits: BotLimits
    bot_logs: Path | None
    sandbox: SandboxPolicy


def plan_match(
    game: str,
    bot_texts: Sequence[str],
    db: DatabaseTarget,
    *,
    seed: int | None = None,
    option_texts: Sequence[str] = (),
    move_seconds: float = TimeControl.move_seconds,
    bank_seconds: float = TimeControl.bank_seconds,
    bot_memory: str | None = None,
    bot_logs: Path | None = None,
    sandbox: SandboxPolicy = SandboxPolicy(),
) -> MatchPlan:
    """Check the game, the bots (named as ``arena.entrants`` describes; registered names are
    looked up in ``db``), the options, clocks, limits and log directory. ``seed`` None: a random
    63-bit seed, too large for a bot to search for."""
    game_setup.check_seed(seed)
    engine = game_setup.load_game(game)
    bots = [entrant.spec for entrant in resolve_match_bots(bot_texts, engine.name, db)]
    for bot in bots:
        if bot.directory is not None and (problem := unreadable_problem(bot.directory, sandbox)):
            raise SetupError(problem)
    options = game_setup.parse_options(engine.name, option_texts)
    game_setup.check_players(engine, len(bots), options)
    if not (
        math.isfinite(move_seconds)
        and move_seconds > 0
        and math.isfinite(bank_seconds)
        and bank_seconds >= 0
    ):
        raise SetupError(
            "--move-time must be a finite number > 0 and --bank-time a finite number >= 0"
        )
    return MatchPlan(
        game=engine.name,
        bots=bots,
        seed=secrets.randbits(63) if seed is None else seed,
        options=options,
        time_control=TimeControl(move_seconds=move_seconds, bank_seconds=bank_seconds),
        limits=game_setup.parse_limits(bot_memory),
        bot_logs=game_setup.prepare_bot_logs(bot_logs),
        sandbox=sandbox,
    )
