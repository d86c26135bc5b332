"""``arena new-bot``: a starter bot directory in Python, Node.js, Go, Java or C++ that passes
``arena validate`` as it is: a bot.toml, the code with a ``choose`` function to edit (a random
legal choice, seeded by the arena), the game's history kept from its events, a unit test of
``choose`` on the requests of every decision kind (``fixtures/``, written by ``arena.fixtures``),
and a README with the next steps. The compiled languages get a ``build.sh`` (bot.toml's
``build``, which ``arena validate`` and ``arena submit`` run in the sandbox), a ``test.sh`` (the
build, then the unit test) and a copy of the protocol's .proto files.

The starters' files live in ``arena/starters/<language>/``, copied as they are.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from arena.bot_tree import NODE_SDK, REPO
from arena.errors import InputError
from arena.fixtures import write_fixtures
from engine.registry import game_names

STARTERS = Path(__file__).resolve().parent / "starters"
# The Node SDK lives in the source checkout, next to the arena package.
PROTO = REPO / "proto"
_NAME = re.compile(r"[a-z0-9][a-z0-9._-]*")
_BUILD = ("sh", "build.sh")


@dataclass(frozen=True)
class Language:
    label: str
    code: str  # the file holding choose
    command: tuple[str, ...]
    build: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()  # programs its build needs on PATH
    packages: str = ""  # Debian's packages that hold them (scripts/setup --for-tests installs)
    test_file: str = ""  # the unit test of choose, on fixtures/
    test: tuple[str, ...] = ("sh", "test.sh")  # runs it, in the bot's directory

    @property
    def compiled(self) -> bool:
        return bool(self.build)


LANGUAGES = {
    "python": Language(
        "Python",
        "bot.py",
        ("python", "bot.py"),
        test_file="test_bot.py",
        test=("python", "-m", "unittest", "test_bot"),
    ),
    "node": Language(
        "Node.js",
        "index.js",
        ("node", "index.js"),
        tools=("node", "npm"),
        test_file="index.test.js",
        test=("node", "--test"),
    ),
    "go": Language(
        "Go",
        "bot.go",
        ("./bot",),
        _BUILD,
        ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc"),
        "golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev "
        "golang-github-golang-protobuf-1-5-dev",
        test_file="bot_test.go",
    ),
    "java": Language(
        "Java",
        "Bot.java",
        ("java", "@java.args", "Bot"),
        _BUILD,
        ("javac", "protoc", "grpc_java_plugin"),
        "default-jdk-headless protobuf-compiler protobuf-compiler-grpc-java-plugin libgrpc-java "
        "libprotobuf-java libnetty-java libperfmark-java libgeronimo-annotation-1.3-spec-java",
        test_file="BotTest.java",
    ),
    "cpp": Language(
        "C++",
        "bot.cc",
        ("./bot",),
        _BUILD,
        ("g++", "pkg-config", "protoc", "grpc_cpp_plugin"),
        "g++ pkg-config protobuf-compiler protobuf-compiler-grpc libgrpc++-dev libprotobuf-dev",
        test_file="bot_test.cc",
    ),
}

_README = """# {name}

An arena bot in {language}, made by `arena new-bot`. It plays every game with a uniformly random
legal action; make it better by editing `choose` in `{code}`, which also gets the game's history
(every event this seat has seen) and a deadline.

1. Read the rules of the games: `docs/rules/` in the arena's repository. Each decision kind and
   its options are listed there, with the messages that carry them.
2. Edit `choose`: it returns an index into the request's legal actions.
3. `{test}` runs its unit test ({test_file}{python_note}): `choose` on the request the arena
   sends at each decision kind of every game, recorded in `fixtures/GAME/KIND/` (`decide.json`
   is the readable form). `arena fixtures --out fixtures` writes them again, e.g. after the
   arena's rules change.
4. `arena validate {directory}` {build_step}checks the bot as the arena will run it, in the
   sandbox (add `--game oregon` to check one game): every check should pass.
5. `arena submit {directory}`, then `arena tournament --game oregon --bots {name},...` to measure
   it against other bots.

`bot.toml` names the bot and how to start it ({start}). Any change to the files makes a new
version of the bot when it is submitted. More: `docs/bots.md` in the arena's repository,
"{section}".
"""

_BUILD_STEP = "builds it (`sh build.sh`, in the sandbox: it may use only what is installed), then "


def check_name(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise InputError(
            f"bot name {name!r}: use lower-case letters, digits, '.', '_' and '-', "
            "starting with a letter or digit"
        )
    return name


def language_of(name: str) -> Language:
    if name not in LANGUAGES:
        raise InputError(
            f"--lang {name!r}: choose one of {', '.join(LANGUAGES)}; in another language, "
            "generate code from proto/arena/bot/v1/*.proto (docs/bots.md, 'A bot in another "
            "language')"
        )
    return LANGUAGES[name]


def missing_tools(language: str) -> list[str]:
    """The programs the starter of ``language`` needs that are not on PATH."""
    return [tool for tool in language_of(language).tools if shutil.which(tool) is None]


def new_bot(name: str, language: str, directory: Path, *, fixtures: bool = True) -> list[Path]:
    """Write a starter bot into ``directory`` (new, or empty); the files written (the code
    first). A Node bot's packages are installed (npm), linking the Node SDK of this checkout.
    The requests its unit test reads are written to ``fixtures/`` unless not ``fixtures``."""
    check_name(name)
    lang = language_of(language)
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise InputError(f"{directory} exists and is not an empty directory")
    if language == "node":
        _check_node_sdk()
    if lang.compiled and not (PROTO / "arena" / "bot" / "v1" / "bot.proto").is_file():
        raise InputError(
            f"a {lang.label} bot is built from the protocol's .proto files, proto/ in the "
            "arena's source checkout; this arena is installed without it"
        )
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file on its path, no permission, a read-only disk
        raise InputError(f"{directory}: cannot make the directory: {exc.strerror}") from None
    written = [directory / lang.code]
    for source in sorted((STARTERS / language).iterdir()):
        shutil.copyfile(source, directory / source.name)
        if source.name != lang.code:
            written.append(directory / source.name)
    manifest = (
        f'name = "{name}"\nversion = "0.1.0"\n'
        f"command = {json.dumps(list(lang.command))}\n"
        + (f"build = {json.dumps(list(lang.build))}\n" if lang.build else "")
        + f"games = {json.dumps(game_names())}\n"
    )
    files = {
        "bot.toml": manifest,
        "README.md": _wrapped(
            _README.format(
                name=name,
                language=lang.label,
                code=lang.code,
                directory=directory,
                build_step=_BUILD_STEP if lang.compiled else "",
                start=_start_note(language),
                section=f"A bot in {lang.label}",
                # the arena's own interpreter by its path: it has the SDK, and a fresh
                # terminal's `python` has not (outside review)
                test=shlex.join(
                    [sys.executable, *lang.test[1:]] if language == "python" else lang.test
                ),
                test_file=f"`{lang.test_file}`" + (", after the build" if lang.compiled else ""),
                python_note=" with the arena's Python, which has the SDK (or `python` once "
                "`.venv/bin/activate` of the arena is sourced)"
                if language == "python"
                else "",
            )
        ),
    }
    if language == "node":
        files["package.json"] = _package_json(name, directory)
    for file_name, text in files.items():
        (directory / file_name).write_text(text, encoding="utf-8")
        written.append(directory / file_name)
    if lang.compiled:
        protos = directory / "proto" / "arena" / "bot" / "v1"
        shutil.copytree(PROTO / "arena" / "bot" / "v1", protos)
        written.append(directory / "proto")
    if fixtures:
        write_fixtures([], directory / "fixtures")
        written.append(directory / "fixtures")
    if language == "node":
        _npm_install(directory)
        written.append(directory / "package-lock.json")
    _readable_by_all(directory)
    return written


def _readable_by_all(directory: Path) -> None:
    """``chmod -R a+rX``: as root the sandbox runs the bot as a user of its own, which reads the
    directory as others do, and a user's ``umask 077`` would have hidden every file from it."""
    for root, directories, files in os.walk(directory):
        for path in [Path(root), *(Path(root) / name for name in [*directories, *files])]:
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                continue
            searchable = stat.S_ISDIR(mode) or mode & stat.S_IXUSR
            wanted = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
            if searchable:
                wanted |= stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
            os.chmod(path, stat.S_IMODE(mode) | wanted)


def _wrapped(markdown: str, width: int = 96) -> str:
    """``markdown``'s paragraphs and numbered items re-wrapped at ``width`` (headings kept)."""
    blocks = []
    for block in markdown.strip().split("\n\n"):
        if block.startswith("#"):
            blocks.append(block)
            continue
        items = re.split(r"\n(?=\d+\. )", block)
        blocks.append(
            "\n".join(
                textwrap.fill(
                    " ".join(item.split()),
                    width,
                    subsequent_indent="   " if re.match(r"\d+\. ", item) else "",
                    break_on_hyphens=False,
                )
                for item in items
            )
        )
    return "\n\n".join(blocks) + "\n"


def _start_note(language: str) -> str:
    if language == "python":
        return "`python` means the arena's own interpreter, which has the Python SDK"
    if language == "node":
        return "the Node SDK comes from `package.json`'s dependency"
    return (
        "`build` builds it from `proto/`, a copy of the arena's protocol, with the packages "
        "named in `build.sh`; `command` runs what it built"
    )


def _package_json(name: str, directory: Path) -> str:
    sdk = os.path.relpath(NODE_SDK, directory.resolve())
    package = {
        "name": name,
        "version": "0.1.0",
        "private": True,
        "main": "index.js",
        "dependencies": {"arena-bot-sdk": f"file:{sdk}"},
    }
    return json.dumps(package, indent=2) + "\n"


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
