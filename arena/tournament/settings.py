"""A tournament's settings: given when it is created, stored with it (as JSON), and read back by
every run, so a resumed tournament plays on exactly as it began.

Stored flat, one key per leaf field, by one walk over the dataclass fields (``stored_keys``): a
field added to the settings, the bot limits or the sandbox policy is stored and read back
without another line here, and a key missing from an older tournament gets the field's default.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from arena.errors import SetupError
from arena.sandbox import SandboxPolicy
from arena.sandbox.limits import BotLimits
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
    # A ladder's rules (``arena ladder``, ``arena.tournament.ladder.LadderRules``); None for a
    # round robin or an SPRT.
    ladder: Mapping[str, Any] | None = None
    sandbox: SandboxPolicy = SandboxPolicy()  # how each local bot is confined
    # A process per seat and game (--fresh-bots) instead of bots that stay up across games
    # (arena.referee.pool).
    fresh_bots: bool = False

    def __post_init__(self) -> None:
        # Only the options given wrong are named: a ladder has no --deals to blame.
        problems = [
            f"{option} must be {rule} (not {value})"
            for option, value, wrong, rule in (
                ("--deals", self.deals, self.deals < 1, ">= 1"),
                ("--concurrency", self.concurrency, self.concurrency < 1, ">= 1"),
                (
                    "--move-time",
                    self.move_time,
                    not (math.isfinite(self.move_time) and self.move_time > 0),
                    "a finite number > 0",
                ),
            )
            if wrong
        ]
        if problems:
            raise SetupError("; ".join(problems))

    def to_stored(self) -> dict[str, Any]:
        return {
            key: dict(value) if isinstance(value, Mapping) else value
            for key, value in zip(stored_keys().values(), _leaves(self), strict=True)
        }

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any]) -> TournamentSettings:
        """The settings as stored; a field an older tournament did not store gets its default
        (a tournament stored before sandboxes existed runs sandboxed, one stored before bots
        stayed up keeps its bots up)."""
        given = {path: stored[key] for path, key in stored_keys().items() if key in stored}
        return _build(cls(), (), given)


# Where the fields of the nested dataclasses are stored: flat, under these prefixes, and the
# sandbox's tool as "sandbox" (the names tournaments have been stored with since these existed).
# A new nested dataclass needs its prefix here (stored_keys raises a KeyError until it has one).
_PREFIXES = {"limits": "bot_", "sandbox": ""}
_RENAMED: dict[tuple[str, ...], str] = {("sandbox", "tool"): "sandbox"}


@cache
def stored_keys() -> dict[tuple[str, ...], str]:
    """The key each leaf field is stored under, by its path of field names."""
    keys: dict[tuple[str, ...], str] = {}

    def walk(instance: Any, path: tuple[str, ...], prefix: str) -> None:
        for item in dataclasses.fields(instance):
            here = (*path, item.name)
            value = getattr(instance, item.name)
            if dataclasses.is_dataclass(value):
                walk(value, here, _PREFIXES[item.name])
            else:
                keys[here] = _RENAMED.get(here, prefix + item.name)

    walk(TournamentSettings(), (), "")
    assert len(set(keys.values())) == len(keys), "two fields stored under one key"
    return keys


def _leaves(instance: Any) -> list[Any]:
    """The leaf values of ``instance``, in the order of ``stored_keys``."""
    return [
        leaf
        for item in dataclasses.fields(instance)
        for value in [getattr(instance, item.name)]
        for leaf in (_leaves(value) if dataclasses.is_dataclass(value) else [value])
    ]


def _build(default: Any, path: tuple[str, ...], given: Mapping[tuple[str, ...], Any]) -> Any:
    """A dataclass like ``default`` (the instance at ``path``) with the stored leaf values
    ``given`` (by path) in place of its defaults."""
    changes: dict[str, Any] = {}
    for item in dataclasses.fields(default):
        here = (*path, item.name)
        value = getattr(default, item.name)
        if dataclasses.is_dataclass(value):
            changes[item.name] = _build(value, here, given)
        elif here in given:
            stored = given[here]
            changes[item.name] = dict(stored) if isinstance(stored, Mapping) else stored
    return dataclasses.replace(default, **changes)
