"""One bot resolver for match, tournament and sprt: a directory, NAME@HOST:PORT, a registered
name or NAME@VERSION; each is checked to play the game."""

import shutil
from pathlib import Path

import pytest

from arena.entrants import resolve_bot, resolve_match_bots
from arena.errors import InputError, SetupError, StorageError, UnknownBotError
from arena.manifest import load_manifest
from arena.registration import register_spec
from arena.storage.database import open_database
from arena.tournament.setup import resolve_entrants
from tests.support.bots import SAMPLE_BOTS

PYTHON_BOT = SAMPLE_BOTS / "random-python"


def test_a_directory_an_address_and_a_registered_name_each_resolve(tmp_path: Path):
    database = open_database(tmp_path / "arena.db", create=True)
    register_spec(database, load_manifest(PYTHON_BOT))

    by_directory = resolve_bot(str(PYTHON_BOT), "oregon", database)
    by_address = resolve_bot("far@127.0.0.1:5000", "oregon", database)
    by_name = resolve_bot("random-python", "oregon", database)
    database.close()

    assert (by_directory.name, by_directory.registered) == ("random-python", None)
    assert by_directory.spec.directory == PYTHON_BOT
    assert by_address.name == "far" and by_address.spec.address == "127.0.0.1:5000"
    assert by_address.registered is None
    assert by_name.registered is not None and by_name.spec.directory == PYTHON_BOT


def test_a_tournament_accepts_a_bot_running_elsewhere():
    entrants = resolve_entrants(None, [str(PYTHON_BOT), "far@127.0.0.1:5000"], "oregon")
    assert [entrant.name for entrant in entrants] == ["random-python", "far"]
    assert entrants[1].spec.is_remote


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("nobody", UnknownBotError, "neither a bot directory, an address .* nor a registered"),
        # a version, not an address (no port): refused at once, not waited on as a remote bot
        ("random-python@1.0.0", UnknownBotError, "no bot is registered yet"),
        ("./missing", InputError, "not a bot directory"),
    ],
)
def test_without_a_database_only_directories_and_addresses_resolve(text, error, message):
    with pytest.raises(error, match=message):
        resolve_bot(text, "oregon", None)


def test_a_bot_that_does_not_play_the_game_is_refused(tmp_path: Path):
    (tmp_path / "bot.toml").write_text(
        'name = "x"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["merkator"]\n'
    )
    with pytest.raises(SetupError, match="does not play oregon"):
        resolve_bot(str(tmp_path), "oregon", None)


def test_a_match_opens_no_database_when_it_needs_none(tmp_path: Path):
    corrupt = tmp_path / "arena.db"
    corrupt.write_bytes(b"not a database")
    bots = resolve_match_bots([str(PYTHON_BOT), "far@127.0.0.1:5000"], "oregon", corrupt)
    assert [bot.name for bot in bots] == ["random-python", "far"]
    with pytest.raises(StorageError, match="not an SQLite database"):
        resolve_match_bots(["random-python"], "oregon", corrupt)


def _bot_directory(directory: Path, version: str) -> Path:
    directory.mkdir()
    (directory / "bot.toml").write_text(
        f'name = "two"\nversion = "{version}"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
    )
    (directory / "bot.py").write_text(f"# version {version}\n")
    return directory


def test_name_at_version_names_one_registered_version(tmp_path: Path):
    first = _bot_directory(tmp_path / "first", "1.0")
    second = _bot_directory(tmp_path / "second", "2.0")
    database = open_database(tmp_path / "arena.db", create=True)
    register_spec(database, load_manifest(first))
    register_spec(database, load_manifest(second))

    older = resolve_bot("two@1.0", "oregon", database)
    newest = resolve_bot("two", "oregon", database)
    assert older.spec.directory == first and older.registered is not None
    assert older.registered.version.version == "1.0"
    assert newest.spec.directory == second
    assert resolve_entrants(database, ["two@1.0"], "oregon")[0].spec.directory == first
    # the label submit and tournaments print (name@version#hash) names the same version
    assert older.registered.label.startswith("two@1.0#")
    assert resolve_bot(older.registered.label, "oregon", database).spec.directory == first
    with pytest.raises(UnknownBotError, match="no version '2.0#"):
        resolve_bot("two@2.0#" + older.registered.version.content_hash[:8], "oregon", database)

    with pytest.raises(UnknownBotError, match=r"no version '3\.0' \(versions: 1\.0, 2\.0\)"):
        resolve_bot("two@3.0", "oregon", database)
    with pytest.raises(UnknownBotError, match="unknown bot 'three' \\(registered: two\\)"):
        resolve_bot("three@1.0", "oregon", database)

    (first / "bot.py").write_text("# edited after it was submitted\n")
    with pytest.raises(SetupError, match="since this version was submitted; name its newest"):
        resolve_bot("two@1.0", "oregon", database)
    (second / "bot.py").write_text("# edited too\n")
    with pytest.raises(SetupError, match="run `arena submit` on it again"):
        resolve_bot("two", "oregon", database)
    database.close()


def test_every_registered_bot_is_entered_by_its_name_never_as_a_host_path(tmp_path, monkeypatch):
    """A tournament or ladder without --bots read each registered name as the CLI reads a
    text: a name that was also a directory (or held '/') was built and run from the host's
    disk. An author naming a bot after another's directory stopped the hosted ladder
    ("entered twice"), or made it run a directory of the host (outside review)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(PYTHON_BOT, tmp_path / "decoy")  # holds bot 'random-python'
    database = open_database(tmp_path / "arena.db", create=True)
    register_spec(database, load_manifest(PYTHON_BOT))
    renamed = shutil.copytree(PYTHON_BOT, tmp_path / "src" / "alice")
    toml = renamed / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random-python"', 'name = "decoy"'))
    register_spec(database, load_manifest(renamed))

    entrants = resolve_entrants(database, [], "oregon")
    database.close()

    assert sorted(entrant.name for entrant in entrants) == ["decoy", "random-python"]
    assert all(entrant.registered is not None for entrant in entrants)
    assert {entrant.spec.directory for entrant in entrants} == {PYTHON_BOT, renamed}


def test_a_name_with_a_slash_is_refused(tmp_path: Path):
    bot = shutil.copytree(PYTHON_BOT, tmp_path / "bot")
    toml = bot / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random-python"', 'name = "/etc/bots"'))
    with pytest.raises(InputError, match="without spaces, '@', ',' or '/'"):
        load_manifest(bot)
