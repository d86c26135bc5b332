"""Without --bots: the registered bots that play the game, else every sample bot."""

from pathlib import Path

import pytest

from arena.errors import SetupError
from arena.manifest import BotSpec
from arena.storage import bots
from arena.storage.database import open_database
from arena.tournament.setup import SAMPLE_BOTS, resolve_entrants


def test_a_new_user_gets_the_sample_bots():
    entrants = resolve_entrants(None, [], "oregon")
    expected = sorted(p for p in SAMPLE_BOTS.iterdir() if (p / "bot.toml").is_file())
    assert sorted(entrant.spec.directory for entrant in entrants) == expected
    assert all(entrant.registered is None for entrant in entrants)


def test_registered_bots_that_play_the_game_come_first(tmp_path: Path):
    database = open_database(tmp_path / "arena.db", create=True)
    with database.write() as session:
        for name, games in (("plays-oregon", ("oregon",)), ("plays-merkator", ("merkator",))):
            spec = BotSpec(name, "1", games, None, None, address="127.0.0.1:5000")
            bots.register(session, spec, bots.remote_hash("127.0.0.1:5000", name))
    entrants = resolve_entrants(database, [], "oregon")
    database.close()
    assert [entrant.name for entrant in entrants] == ["plays-oregon"]


def test_without_a_checkout_the_missing_sample_bots_are_named(monkeypatch, tmp_path: Path):
    # An installed wheel has no sample_bots/ beside the package.
    monkeypatch.setattr("arena.tournament.setup.SAMPLE_BOTS", tmp_path / "sample_bots")
    with pytest.raises(SetupError, match="only with a source checkout"):
        resolve_entrants(None, [], "oregon")
