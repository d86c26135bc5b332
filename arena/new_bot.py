"""``arena new-bot``: a starter bot directory in Python or Node.js that passes ``arena validate``
as it is: a bot.toml, the code with a ``choose`` function to edit (a random legal choice, seeded
by the arena), and a README with the next steps."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from arena.errors import InputError
from engine.registry import game_names

LANGUAGES = ("python", "node")
# The Node SDK lives in the source checkout, next to the arena package.
NODE_SDK = Path(__file__).resolve().parents[1] / "sdk" / "node"
_NAME = re.compile(r"[a-z0-9][a-z0-9._-]*")

_PYTHON_BOT = '''"""{name}: an arena bot. Edit choose(); `arena validate .` checks the bot."""

import arena_sdk as sdk

rng = sdk.seeded_random()  # seeded from ARENA_BOT_SEED: the same game seed gives the same game


def choose(request):
    """The index of the action to play in request.legal_actions.

    request is an arena.bot.v1.DecisionRequest: decision_kind names the decision, view holds this
    seat's view (view.oregon, view.ogallala or view.merkator), sdk.game_of(request) names the game.
    """
    return rng.randrange(len(request.legal_actions))


if __name__ == "__main__":
    sdk.run(choose)
'''

_NODE_BOT = """// {name}: an arena bot. Edit choose(); `arena validate .` checks the bot.
"use strict";

const sdk = require("arena-bot-sdk");

const random = sdk.seededRandom(); // seeded from ARENA_BOT_SEED: same seed, same game

// The index of the action to play in request.legal_actions. request is an
// arena.bot.v1.DecisionRequest: decision_kind names the decision, view holds this seat's view
// (view.oregon, view.ogallala or view.merkator), sdk.gameOf(request) names the game.
function choose(request) {{
  return Math.floor(random() * request.legal_actions.length);
}}

sdk.run(choose);
"""

_README = """# {name}

An arena bot in {language}, made by `arena new-bot`. It plays every game with a uniformly random
legal action; make it better by editing `choose` in `{code}`.

1. Read the rules of the games: `docs/rules/` in the arena's repository. Each decision kind and
   its options are listed there, with the messages that carry them.
2. Edit `choose(request)`: it returns an index into `request.legal_actions`.
3. `arena validate {directory}` checks the bot as the arena will run it (add `--game oregon` to
   check one game): every check should pass.
4. `arena submit {directory}`, then `arena tournament --game oregon --bots {name},...` to measure
   it against other bots.

`bot.toml` names the bot and how to start it ({start}). Any change to the files makes a new
version of the bot when it is submitted.
"""


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise InputError(
            f"bot name {name!r}: use lower-case letters, digits, '.', '_' and '-', "
            "starting with a letter or digit"
        )
    return name


def new_bot(name: str, language: str, directory: Path) -> list[Path]:
    """Write a starter bot into ``directory`` (new, or empty); the files written. A Node bot's
    packages are installed (npm), linking the Node SDK of this checkout."""
    check_name(name)
    if language not in LANGUAGES:
        raise InputError(f"--lang {language!r}: choose one of {', '.join(LANGUAGES)}")
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise InputError(f"{directory} exists and is not an empty directory")
    if language == "node":
        _check_node_sdk()
    directory.mkdir(parents=True, exist_ok=True)
    code = "bot.py" if language == "python" else "index.js"
    command = ["python", "bot.py"] if language == "python" else ["node", "index.js"]
    files = {
        "bot.toml": (
            f'name = "{name}"\nversion = "0.1.0"\n'
            f"command = {json.dumps(command)}\n"
            f"games = {json.dumps(game_names())}\n"
        ),
        code: (_PYTHON_BOT if language == "python" else _NODE_BOT).format(name=name),
        "README.md": _README.format(
            name=name,
            language="Python" if language == "python" else "Node.js",
            code=code,
            directory=directory,
            start="`python` means the arena's own interpreter, which has the Python SDK"
            if language == "python"
            else "the Node SDK comes from `package.json`'s dependency",
        ),
    }
    if language == "node":
        sdk = os.path.relpath(NODE_SDK, directory.resolve())
        files["package.json"] = (
            json.dumps(
                {
                    "name": name,
                    "version": "0.1.0",
                    "private": True,
                    "main": "index.js",
                    "dependencies": {"arena-bot-sdk": f"file:{sdk}"},
                },
                indent=2,
            )
            + "\n"
        )
    written = []
    for file_name, text in files.items():
        (directory / file_name).write_text(text, encoding="utf-8")
        written.append(directory / file_name)
    if language == "node":
        _npm_install(directory)
        written.append(directory / "package-lock.json")
    return written


def _check_node_sdk() -> None:
    if not (NODE_SDK / "package.json").is_file():
        raise InputError(
            "a Node.js bot needs the Node SDK, sdk/node in the arena's source "
            "checkout; this arena is installed without it"
        )
    if shutil.which("npm") is None:
        raise InputError("a Node.js bot needs Node.js and npm, which are not on PATH")
    if not (NODE_SDK / "node_modules").is_dir():
        raise InputError(
            f"the Node SDK's packages are not installed: run scripts/setup (or "
            f"npm ci in {NODE_SDK})"
        )


def _npm_install(directory: Path) -> None:
    done = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund"],
        cwd=directory,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise InputError(f"npm install in {directory} failed: {last}")
