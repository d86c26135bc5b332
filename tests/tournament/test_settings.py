"""A tournament's settings survive being stored, and bad ones are refused before anything is."""

import json

import pytest

from arena.errors import SetupError
from arena.referee.limits import BotLimits
from arena.tournament.settings import TournamentSettings


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


@pytest.mark.parametrize("bad", [{"deals": 0}, {"concurrency": 0}, {"move_time": 0.0}])
def test_impossible_settings_are_refused(bad):
    with pytest.raises(SetupError, match="must be"):
        TournamentSettings(**bad)
