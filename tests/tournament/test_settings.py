"""A tournament's settings survive being stored, and bad ones are refused before anything is."""

import dataclasses
import json
from typing import Any

import pytest

from arena.errors import SetupError
from arena.sandbox import TOOLS, SandboxPolicy
from arena.sandbox.limits import BotLimits
from arena.tournament.settings import TournamentSettings, stored_keys


def test_settings_survive_storing_as_json():
    settings = TournamentSettings(
        players=3,
        deals=4,
        concurrency=1,
        move_time=0.5,
        options={"rounds": 2},
        limits=BotLimits(memory_mib=1024),
    )
    stored = json.loads(json.dumps(settings.to_stored()))
    assert TournamentSettings.from_stored(stored) == settings


def _other(value: Any) -> Any:
    """A valid value of the same kind as the default ``value``, but different."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value * 2 + 1
    if isinstance(value, str):
        return next(tool for tool in TOOLS if tool != value)  # the sandbox tool
    return {"elo0": 1.0, "elo1": 5.0}  # a mapping (options) or None (sprt)


def _changed(instance: Any, name: str, rest: tuple[str, ...]) -> Any:
    value = getattr(instance, name)
    new = _changed(value, rest[0], rest[1:]) if rest else _other(value)
    return dataclasses.replace(instance, **{name: new})


@pytest.mark.parametrize("path", list(stored_keys()), ids=".".join)
def test_every_field_survives_a_resume(path):
    """Each leaf field, nested ones included, changed from its default alone, comes back from
    the stored JSON: a field the storage dropped would come back as its default."""
    settings = _changed(TournamentSettings(), path[0], path[1:])
    assert settings != TournamentSettings()
    stored = json.loads(json.dumps(settings.to_stored()))
    assert TournamentSettings.from_stored(stored) == settings


def test_every_field_has_a_stored_key():
    """A field of a nested dataclass the walk missed would have no key of its own."""

    def leaves(cls: type) -> int:
        return sum(
            leaves(type(value)) if dataclasses.is_dataclass(value) else 1
            for item in dataclasses.fields(cls)
            for value in [getattr(cls(), item.name)]
        )

    assert len(stored_keys()) == leaves(TournamentSettings)
    assert set(TournamentSettings().to_stored()) == set(stored_keys().values())


def test_settings_stored_by_an_older_arena_still_load():
    # As stored before the limits' file and disk sizes and the sandbox's processes and cores were.
    stored = {
        "players": 3,
        "deals": 1,
        "concurrency": 4,
        "move_time": 0.5,
        "options": {"rounds": 2},
        "bot_memory_mib": 1024,
        "fresh_bots": True,
        "sandbox": "none",
        "allow_network": True,
        "sprt": {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05},
    }
    assert TournamentSettings.from_stored(stored) == TournamentSettings(
        players=3,
        deals=1,
        concurrency=4,
        move_time=0.5,
        options={"rounds": 2},
        limits=BotLimits(memory_mib=1024),
        sprt={"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05},
        sandbox=SandboxPolicy(tool="none", allow_network=True),
        fresh_bots=True,
    )
    assert TournamentSettings.from_stored({}) == TournamentSettings()


@pytest.mark.parametrize("bad", [{"deals": 0}, {"concurrency": 0}, {"move_time": 0.0}])
def test_impossible_settings_are_refused(bad):
    with pytest.raises(SetupError, match="must be"):
        TournamentSettings(**bad)
