"""bot.toml parsing: valid manifests load; every malformed one is a one-line error naming the file
and the problem."""

import pytest

from arena.manifest import ManifestError, expand_games, load_manifest, plays, remote_bot
from engine.registry import game_names
from tests.support.bots import SAMPLE_BOTS

VALID = 'name = "b"\nversion = "2.0"\ncommand = ["python", "bot.py"]\ngames = ["Oregon"]\n'


def test_sample_manifest_loads():
    spec = load_manifest(SAMPLE_BOTS / "random-python")
    assert spec.name == "random-python"
    assert spec.command == ("python", "bot.py")
    assert "oregon" in spec.games
    assert spec.directory == (SAMPLE_BOTS / "random-python").resolve()
    assert not spec.is_remote


def test_env_table_and_game_names_are_read(tmp_path):
    (tmp_path / "bot.toml").write_text(VALID + '[env]\nLEVEL = "3"\n')
    spec = load_manifest(tmp_path)
    assert spec.games == ("oregon",)
    assert dict(spec.env) == {"LEVEL": "3"}


def test_every_game_is_a_star(tmp_path):
    """games = ["*"]: every game of the registry, as the random sample bots say (a new game
    needs no edit of their bot.toml); a handshake's ["*"] means the same."""
    (tmp_path / "bot.toml").write_text(VALID.replace('["Oregon"]', '["*"]'))
    assert load_manifest(tmp_path).games == tuple(game_names())
    assert load_manifest(SAMPLE_BOTS / "random-node").games == tuple(game_names())
    assert expand_games(["Oregon", "merkator"]) == ("oregon", "merkator")
    assert plays(["*"], "ogallala") and plays(["oregon"], "oregon")
    assert not plays(["oregon"], "merkator") and not plays(["*"], "chess")


def test_remote_bot_has_an_address_and_no_command():
    spec = remote_bot("10.0.0.5:7000", "far", games=["oregon"])
    assert spec.is_remote and spec.command is None and spec.games == ("oregon",)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("name = ", "invalid TOML"),
        (VALID.replace('name = "b"\n', ""), "'name' must be a non-empty string"),
        (VALID.replace('"2.0"', "2"), "'version' must be a non-empty string"),
        (VALID.replace('["python", "bot.py"]', '"x y"'), "'command' must be a non-empty list"),
        (VALID.replace('["python", "bot.py"]', "[]"), "'command' must be a non-empty list"),
        (VALID.replace('["Oregon"]', '"oregon"'), "'games' must be a non-empty list"),
        (VALID + 'colour = "red"\n', "unknown key(s) colour"),
        (VALID + "[env]\nLEVEL = 3\n", "'env' must be a table of string values"),
        # a name users could not type (NAME@VERSION, --bots A,B) or that would garble tables
        (VALID.replace('"b"', '"a@b"'), "bot name 'a@b': use 1 to 64 printable characters"),
        (VALID.replace('"b"', '"a,b"'), "bot name 'a,b'"),
        (VALID.replace('"b"', '".."'), "bot name '..'"),
        (VALID.replace('"b"', '"."'), "bot name '.'"),
        (VALID.replace('"b"', '"a b"'), "bot name 'a b'"),
        (VALID.replace('"b"', '"a\\nb"'), "bot name 'a\\nb'"),
        (VALID.replace('"b"', '"a\\u001b[2Jb"'), "bot name 'a\\x1b[2Jb'"),
        (VALID.replace('"b"', f'"{"n" * 65}"'), "use 1 to 64 printable characters"),
        (VALID.replace('"2.0"', '"2\\u001b[2J"'), "bot version '2\\x1b[2J'"),
        (VALID.replace('"2.0"', f'"{"9" * 65}"'), "at most 64 printable characters"),
        # what no process can be given: the game was voided as the arena's fault instead
        (VALID + '[env]\n"A=B" = "x"\n', "'env': 'A=B' is no environment variable name"),
        (VALID + '[env]\n"" = "x"\n', "'env': '' is no environment variable name"),
        (VALID + '[env]\nA = "x\\u0000y"\n', "'env': 'A' is no environment variable name"),
        # names a shell could not export (as root, the sandbox's shell sets the environment)
        (VALID + '[env]\n"my-var" = "x"\n', "'env': 'my-var' is no environment variable name"),
        (VALID + '[env]\n"1ST" = "x"\n', "'env': '1ST' is no environment variable name"),
        (VALID.replace('"bot.py"', '"bot\\u0000.py"'), "'command' must not hold a NUL"),
    ],
)
def test_malformed_manifest_is_a_one_line_error(tmp_path, text, problem):
    (tmp_path / "bot.toml").write_text(text)
    with pytest.raises(ManifestError) as error:
        load_manifest(tmp_path)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(str(tmp_path / "bot.toml"))
    assert problem in message


def test_missing_directory_and_missing_manifest(tmp_path):
    with pytest.raises(ManifestError, match="not a bot directory"):
        load_manifest(tmp_path / "nowhere")
    with pytest.raises(ManifestError, match="file not found"):
        load_manifest(tmp_path)


def test_a_bare_program_name_of_a_file_in_the_bot_directory_asks_for_a_path(tmp_path):
    # A compiled bot's `command = ["bot"]` was looked up on PATH (as exec does) and failed only at
    # start: "execvp bot: No such file or directory", after the manifest check had passed.
    (tmp_path / "bot.toml").write_text(VALID.replace('["python", "bot.py"]', '["bot", "--fast"]'))
    (tmp_path / "bot").write_bytes(b"\x7fELF")
    with pytest.raises(ManifestError) as error:
        load_manifest(tmp_path)
    message = str(error.value)
    assert "\n" not in message
    assert "'bot' is looked up on PATH" in message and '"./bot"' in message


def test_a_program_on_path_or_given_by_path_loads(tmp_path):
    (tmp_path / "bot").write_bytes(b"\x7fELF")
    for command in ('["./bot"]', f'["{tmp_path / "bot"}"]', '["java", "-jar", "bot.jar"]'):
        (tmp_path / "bot.toml").write_text(VALID.replace('["python", "bot.py"]', command))
        assert load_manifest(tmp_path).command[0] in ("./bot", str(tmp_path / "bot"), "java")
