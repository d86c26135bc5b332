"""The ``arena`` command line: listing games, and one-line errors with a non-zero exit code."""

from typing import Any

import pytest
from typer.testing import CliRunner

from arena.cli import app
from tests.support.bots import SAMPLE_BOTS

runner = CliRunner()
PYTHON_BOT = str(SAMPLE_BOTS / "random-python")


def test_games_lists_every_game():
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for name in ("oregon", "ogallala", "merkator"):
        assert name in result.stdout


def bad_manifest(tmp_path):
    (tmp_path / "bot.toml").write_text('name = "x"\nversion = 1\n')
    return [str(tmp_path), PYTHON_BOT]


def wrong_game(tmp_path):
    (tmp_path / "bot.toml").write_text(
        'name = "x"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["merkator"]\n'
    )
    return [str(tmp_path), PYTHON_BOT]


@pytest.mark.parametrize(
    "arguments, message",
    [
        (lambda tmp: ["--game", "chess", PYTHON_BOT, PYTHON_BOT], "unknown game 'chess'"),
        (lambda tmp: ["--game", "oregon", PYTHON_BOT], "oregon is for 2-4 players, not 1"),
        (lambda tmp: ["--game", "oregon", *[PYTHON_BOT] * 5], "oregon is for 2-4 players, not 5"),
        (lambda tmp: ["--game", "oregon", str(tmp), PYTHON_BOT], "bot.toml: file not found"),
        (
            lambda tmp: ["--game", "oregon", *bad_manifest(tmp)],
            "'version' must be a non-empty string",
        ),
        (lambda tmp: ["--game", "oregon", *wrong_game(tmp)], "does not play oregon"),
        (
            lambda tmp: ["--game", "oregon", "-o", "nope=1", PYTHON_BOT, PYTHON_BOT],
            "option 'nope=1'",
        ),
        (
            lambda tmp: ["--game", "oregon", "--move-time", "0", PYTHON_BOT, PYTHON_BOT],
            "--move-time",
        ),
        (
            lambda tmp: ["--game", "oregon", "--db", str(tmp / "none.db"), "nobody", PYTHON_BOT],
            "'nobody' is neither a bot directory, an address NAME@HOST:PORT nor a registered bot",
        ),
    ],
    ids=[
        "unknown-game",
        "too-few",
        "too-many",
        "no-manifest",
        "bad-manifest",
        "wrong-game",
        "bad-option",
        "bad-move-time",
        "unknown-name",
    ],
)
def test_match_errors_are_one_line_with_nonzero_exit(arguments, message, tmp_path):
    result = runner.invoke(app, ["match", *arguments(tmp_path)])
    assert result.exit_code != 0
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_match_plays_registered_bots_by_name(tmp_path):
    db = str(tmp_path / "arena.db")
    assert runner.invoke(app, ["submit", PYTHON_BOT, "--db", db]).exit_code == 0
    result = runner.invoke(
        app,
        ["match", "--game", "oregon", "--db", db, "--seed", "3", "random-python", "random-python"],
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.count("random-python") == 2
    unknown = runner.invoke(app, ["match", "--game", "oregon", "--db", db, "nobody", PYTHON_BOT])
    assert unknown.exit_code != 0
    assert "unknown bot 'nobody' (registered: random-python)" in unknown.stderr


@pytest.mark.slow
@pytest.mark.parametrize("seed, warned", [("7", True), ("65536", True), (str(1 << 48), False)])
def test_a_guessable_seed_is_warned_about_and_the_game_still_plays(seed, warned):
    result = runner.invoke(
        app, ["match", "--game", "oregon", "--seed", seed, PYTHON_BOT, PYTHON_BOT]
    )
    assert result.exit_code == 0, result.output
    assert ("small enough for a bot to find" in result.stderr) is warned
    assert f"seed {seed}" in result.stdout


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["tournament", "--seed", "abc"], "Invalid value for '--seed'"),
        (["replay", "-1"], "No such option: -1"),
        (["replay", "one"], "Invalid value for 'game_id'"),
        (["match", "--game", "oregon"], "Missing argument 'BOT...'"),
        (["nosuch"], "No such command 'nosuch'"),
    ],
    ids=["bad-int-option", "unknown-option", "bad-argument", "missing-argument", "unknown-command"],
)
def test_usage_errors_are_one_line_with_exit_code_2(arguments, message):
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("error: ") and message in result.stderr
    command = "arena" if arguments[0] == "nosuch" else f"arena {arguments[0]}"
    assert f"(see `{command} --help`)" in result.stderr


def test_arena_alone_prints_the_help():
    result = runner.invoke(app, [])
    assert "Usage:" in result.stdout and "tournament" in result.stdout


def _commands(group: Any = None, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command's words (``("bots", "withdraw")``), through the groups."""
    import typer.main

    group = group or typer.main.get_command(app)
    found: list[tuple[str, ...]] = []
    for name, command in getattr(group, "commands", {}).items():
        found += _commands(command, (*path, name)) if hasattr(command, "commands") else []
        found.append((*path, name))
    return found


def test_every_commands_help_writes_usage_and_types_as_people_read_them():
    """No ``{name}`` in a usage line and no ``<bool>`` after a flag (typer 0.2x's style): a
    flag takes no value, and an argument reads NAME."""
    commands = _commands()
    assert ("bots", "withdraw") in commands and ("tournament",) in commands
    for words in commands:
        result = runner.invoke(app, [*words, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, (words, result.output)
        usage = next(line for line in result.stdout.splitlines() if "Usage:" in line)
        assert "{" not in usage and "}" not in usage, (words, usage)
        assert "<bool>" not in result.stdout and "<list[" not in result.stdout, words
    withdraw = runner.invoke(app, ["bots", "withdraw", "--help"], env={"COLUMNS": "200"})
    assert "Usage: arena bots withdraw [OPTIONS] NAME" in withdraw.stdout


def test_the_command_list_gives_each_command_its_first_sentence_on_one_line():
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "250"})
    rows = {
        words[1]: " ".join(words[2:-1])
        for words in (line.split() for line in result.stdout.splitlines())
        if len(words) > 2 and words[0] == "│"
    }
    assert rows["match"] == (
        "Play one game between bots, one per seat in the order given; "
        "the game is stored in the database unless --no-store, and rated only with --rated."
    )
    assert rows["sprt"] == "Is NEW stronger than BASE?"
    assert {"games", "match", "tournament", "leaderboard", "sprt", "serve"} <= rows.keys()
    assert "Exit code" not in result.stdout  # the rest of a docstring is for `arena CMD --help`
