"""A tournament's settings: given when it is created, stored with it (as JSON), and read back by
every run, so a resumed tournament plays on exactly as it began."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.errors import SetupError
from arena.referee.limits import BotLimits
from arena.sandbox import SandboxPolicy
from engine.core import OptionValue


@dataclass(frozen=True)
class TournamentSettings:
    players: int = 2  # seats per game
    deals: int = 2  # deals (seeds) per pod
    concurrency: int = 2  # games at once
    move_time: float = 2.0  # seconds per decision
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    limits: BotLimits = BotLimits()
    # An SPRT between entrants 0 (NEW) and 1 (BASE), ``arena sprt``: elo0, elo1, alpha, beta.
    # None for a round robin.
    sprt: Mapping[str, float] | None = None
    sandbox: SandboxPolicy = SandboxPolicy()  # how each local bot is confined
    # A process per seat and game (--fresh-bots) instead of bots that stay up across games
    # (arena.referee.pool).
    fresh_bots: bool = False

    def __post_init__(self) -> None:
        if (
            self.deals < 1
            or self.concurrency < 1
            or not (math.isfinite(self.move_time) and self.move_time > 0)
        ):
            raise SetupError(
                "--deals and --concurrency must be >= 1, --move-time a finite number > 0"
            )

    def to_stored(self) -> dict[str, Any]:
        stored: dict[str, Any] = {
            "players": self.players,
            "deals": self.deals,
            "concurrency": self.concurrency,
            "move_time": self.move_time,
            "options": dict(self.options),
            "bot_memory_mib": self.limits.memory_mib,
            "fresh_bots": self.fresh_bots,
            **self.sandbox.to_settings(),
        }
        if self.sprt is not None:
            stored["sprt"] = dict(self.sprt)
        return stored

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> TournamentSettings:
        """The settings as stored; a tournament stored before options or bot limits existed
        gets their defaults (a tournament stored before sandboxes existed runs sandboxed, and
        one stored before bots stayed up keeps its bots up)."""
        defaults = cls()
        memory = stored.get("bot_memory_mib")
        return cls(
            players=stored.get("players", defaults.players),
            deals=stored.get("deals", defaults.deals),
            concurrency=stored.get("concurrency", defaults.concurrency),
            move_time=stored.get("move_time", defaults.move_time),
            options=dict(stored.get("options") or {}),
            limits=BotLimits() if memory is None else BotLimits(memory_mib=memory),
            sandbox=SandboxPolicy.from_settings(dict(stored)),
            sprt=stored.get("sprt"),
            fresh_bots=bool(stored.get("fresh_bots", defaults.fresh_bots)),
        )
