"""`arena match` runs a bot's directory as it is: a compiled bot whose source was edited after its
program was built is played as it was, so the command warns (outside review G: a Go author's
change did not play, and nothing said so)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from arena.bot_tree import NODE_SDK
from arena.manifest import load_manifest, stale_build, unbuilt_problem
from tests.tournament.helpers import SAMPLE_BOTS, run_cli


def compiled_bot(directory: Path) -> Path:
    """random-python dressed as a compiled bot: a "built" ./bot, its "source" bot.go."""
    directory.mkdir()
    (directory / "bot.py").write_text((SAMPLE_BOTS / "random-python" / "bot.py").read_text())
    (directory / "bot.go").write_text("package main\n")
    program = directory / "bot"
    program.write_text(f"#!/bin/sh\nexec {sys.executable} bot.py\n")
    program.chmod(0o755)
    (directory / "bot.toml").write_text(
        'name = "compiled"\nversion = "1"\ncommand = ["./bot"]\nbuild = ["sh", "build.sh"]\n'
        'games = ["oregon"]\n'
    )
    os.utime(directory / "bot.go", (1_000_000, 1_000_000))  # built after its source
    return directory


def test_a_source_newer_than_the_program_is_warned_of(tmp_path: Path):
    bot = compiled_bot(tmp_path / "compiled")
    assert stale_build(load_manifest(bot)) == ""
    os.utime(bot / "bot.go")  # edited now, after the build
    warning = stale_build(load_manifest(bot))
    assert warning.startswith("bot.go is newer than ./bot: the game runs the program as it is")
    assert "(`sh build.sh` in" in warning
    played = run_cli("match", str(bot), str(SAMPLE_BOTS / "random-python"), "--game", "oregon",
                     "--no-store", "--sandbox", "none")  # fmt: skip
    assert f"warning: {warning}" in played.stderr


def test_a_bot_built_on_the_authors_machine_is_warned_of_too(tmp_path: Path):
    """No build step (docs/bots.md's way for Rust): an edited source played the old program
    without a word (outside review, a Rust author)."""
    bot = compiled_bot(tmp_path / "prebuilt")
    manifest = bot / "bot.toml"
    manifest.write_text(manifest.read_text().replace('build = ["sh", "build.sh"]\n', ""))
    assert stale_build(load_manifest(bot)) == ""
    os.utime(bot / "bot.go")
    assert stale_build(load_manifest(bot)) == (
        "bot.go is newer than ./bot: the game runs the program as it is; rebuild it for your "
        "change to play"
    )


def test_a_java_bot_is_judged_by_the_argument_file_its_build_writes(tmp_path: Path):
    """`java @java.args Bot`: an edited Bot.java was played as it was built, with no warning,
    and a Java bot never built failed in its game with "could not open `java.args`" (outside
    review)."""
    bot = tmp_path / "java"
    bot.mkdir()
    (bot / "Bot.java").write_text("class Bot {}\n")
    (bot / "bot.toml").write_text(
        'name = "j"\nversion = "1"\ncommand = ["java", "@java.args", "Bot"]\n'
        'build = ["sh", "build.sh"]\ngames = ["oregon"]\n'
    )
    assert unbuilt_problem(load_manifest(bot)).endswith(
        "java.args does not exist: build it first by running `sh build.sh` (bot.toml's build) in "
        "that directory, or `arena submit` it, which builds it"
    )
    (bot / "java.args").write_text("-cp classes\n")
    os.utime(bot / "Bot.java", (1_000_000, 1_000_000))  # built after its source
    assert unbuilt_problem(load_manifest(bot)) == "" and stale_build(load_manifest(bot)) == ""
    os.utime(bot / "Bot.java")  # edited now, after the build
    assert stale_build(load_manifest(bot)).startswith("Bot.java is newer than java.args: ")


def test_a_command_naming_a_host_path_tells_nothing_of_it(tmp_path: Path):
    """Whether a path outside the bot's directory exists is not the author's to learn from the
    arena's messages: no "does not exist" for it, no "newer than" it."""
    bot = tmp_path / "prober"
    bot.mkdir()
    (bot / "Bot.java").write_text("class Bot {}\n")
    for probed in ("@/nonexistent/secret", "@../../nonexistent", "@/etc/hostname"):
        (bot / "bot.toml").write_text(
            f'name = "p"\nversion = "1"\ncommand = ["java", "{probed}", "Bot"]\n'
            'build = ["sh", "build.sh"]\ngames = ["oregon"]\n'
        )
        spec = load_manifest(bot)
        assert unbuilt_problem(spec) == "" and stale_build(spec) == "", probed


def test_a_node_bot_moved_after_npm_install_is_told_how_to_mend_it(tmp_path: Path):
    """npm links a ``file:`` dependency by a relative path: a Node bot moved elsewhere kept a
    link that led nowhere, and its game ended in a CRASH ("Cannot find module 'arena-bot-sdk'")
    with nothing said of the cause (outside review)."""
    bot = tmp_path / "moved"
    (bot / "node_modules").mkdir(parents=True)
    (bot / "index.js").write_text("require('arena-bot-sdk')\n")
    (bot / "package.json").write_text('{"dependencies": {"arena-bot-sdk": "file:../sdk/node"}}')
    (bot / "node_modules" / "arena-bot-sdk").symlink_to("../../sdk/node")  # from where it was
    (bot / "bot.toml").write_text(
        'name = "moved"\nversion = "1"\ncommand = ["node", "index.js"]\ngames = ["oregon"]\n'
    )
    sdk = os.path.relpath(NODE_SDK, bot)
    assert unbuilt_problem(load_manifest(bot)) == (
        f"{bot}: node_modules/arena-bot-sdk is missing or leads nowhere (was the bot moved after "
        f'`npm install`?): set package.json\'s "arena-bot-sdk" to "file:{sdk}" and run `npm '
        "install` in that directory"
    )
    played = run_cli("match", str(bot), str(SAMPLE_BOTS / "random-python"), "--game", "oregon",
                     "--no-store", "--sandbox", "none")  # fmt: skip
    assert played.exit_code == 2 and played.stderr.count("\n") == 1
    assert "node_modules/arena-bot-sdk is missing or leads nowhere" in played.stderr
    validated = run_cli("validate", str(bot), "--sandbox", "none")
    assert validated.exit_code == 1
    assert "FAIL files: " + unbuilt_problem(load_manifest(bot)) in validated.stdout
    (bot / "node_modules" / "arena-bot-sdk").unlink()
    link = os.path.relpath(NODE_SDK, bot / "node_modules")  # as `npm install` makes it
    (bot / "node_modules" / "arena-bot-sdk").symlink_to(link)
    assert unbuilt_problem(load_manifest(bot)) == ""
