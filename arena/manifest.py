"""Bot manifests: the ``bot.toml`` in each bot's directory says what the bot is and how to start it.

name = "random-python"
version = "1.0.0"
command = ["python", "bot.py"]   # run in the bot's directory; "python": the arena's Python
build = ["sh", "build.sh"]        # optional: run once before the bot, in its sandbox (building.py)
games = ["oregon", "ogallala", "merkator"]   # or ["*"]: every game the arena knows
network = true                    # optional: ask for network access (the operator decides)
[env]                             # optional extra environment variables
LOG_LEVEL = "info"
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from arena.bot_tree import node_sdk_problem
from arena.errors import ManifestError
from engine.registry import game_names

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MANIFEST_NAME = "bot.toml"
# ``games = ["*"]``: a bot that plays whatever it is given (a random bot picks among the legal
# actions of any game), so a new game needs no edit of its bot.toml. Sent as it is in the SDKs'
# handshake.
EVERY_GAME = "*"


def expand_games(games: Iterable[str]) -> tuple[str, ...]:
    """Game names as a bot lists them (bot.toml, its handshake), lower-case, with ``EVERY_GAME``
    standing for every game the arena knows (in the registry's order)."""
    named = [game.lower() for game in games]
    if EVERY_GAME in named:
        return tuple(game_names())
    return tuple(named)


def unknown_games_problem(games: Iterable[str]) -> str:
    """Why a bot listing ``games`` (a handshake's, a bot.toml's) lists one this arena does not
    have, or "": at most five named, each cut (a bot's words, printed; one listed 50,000)."""
    unknown = [game for game in expand_games(games) if game not in game_names()]
    if not unknown:
        return ""
    named = ", ".join(repr(game[:60]) for game in unknown[:5])
    more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
    return f"lists game(s) this arena does not have: {named}{more}"


def plays(games: Iterable[str], game: str) -> bool:
    """Whether a bot that lists ``games`` plays ``game``."""
    return game in expand_games(games)


@dataclass(frozen=True)
class BotSpec:
    name: str
    version: str
    games: tuple[str, ...]
    directory: Path | None
    command: tuple[str, ...] | None
    address: str | None = None
    env: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    network: bool = False  # asks for network access in its sandbox (``--allow-network`` grants)
    # What builds the bot (``arena validate`` and ``arena submit`` run it: arena.building), or ().
    build: tuple[str, ...] = ()
    # The registered version's code (``arena.bot_tree.directory_hash``): the referee starts no
    # process from a directory whose code has changed since. None: not checked (not registered).
    content_hash: str | None = None

    @property
    def is_remote(self) -> bool:
        return self.address is not None


# A bot's name is how users name it on the command line (``NAME@VERSION``, ``--bots A,B``) and
# how tables show it: no '@', ',', spaces or control characters. (Other punctuation stays allowed:
# the web's tests enter a bot named like an HTML script tag to check that pages escape it.)
_NAME_CHARS = 64


def address_problem(address: str) -> str:
    """Why ``address`` cannot be a remote bot's ``HOST:PORT`` (``[IPv6]:PORT``), or ""."""
    host, _, port = address.rpartition(":")
    if not host or not host.isprintable() or any(char.isspace() for char in host):
        return f"{address!r} has no host: give HOST:PORT"
    if not (port.isascii() and port.isdigit() and 0 < int(port) < 65536):
        return f"{address!r}: the port must be a number from 1 to 65535"
    return ""


def name_problem(name: str) -> str:
    """Why ``name`` cannot name a bot, or "". No '/': a name is never a path (the CLI reads
    a text with '/' as a bot directory, and a web address holds the name as one segment); nor
    '.' or '..', which the CLI takes for a directory and a browser drops from an address."""
    if (
        name not in ("", ".", "..")
        and name.isprintable()
        and len(name) <= _NAME_CHARS
        and not any(char.isspace() or char in "@,/" for char in name)
    ):
        return ""
    return (
        f"bot name {name[:80]!r}: use 1 to {_NAME_CHARS} printable characters without "
        "spaces, '@', ',' or '/', other than '.' and '..'"
    )


_VERSION_CHARS = 64


def version_problem(version: str) -> str:
    """Why ``version`` cannot be a bot's version (it is printed in tables), or ""."""
    if version.isprintable() and len(version) <= _VERSION_CHARS:
        return ""
    return f"bot version {version[:80]!r}: at most {_VERSION_CHARS} printable characters"


def remote_bot(
    address: str, name: str, version: str = "remote", games: tuple[str, ...] | list[str] = ()
) -> BotSpec:
    """A bot already running elsewhere, entered by its ``host:port`` address."""
    return BotSpec(
        name=name,
        version=version,
        games=tuple(games),
        directory=None,
        command=None,
        address=address,
    )


def _argv(
    data: dict, key: str, bot_dir: Path, fail: Callable[[str], ManifestError], *, example: str
) -> list[str]:
    """``data[key]``, a command as exec runs it in the bot's directory. Raises ``fail(...)``."""
    argv = data.get(key)
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) and a for a in argv):
        raise fail(f"'{key}' must be a non-empty list of strings, e.g. {example}")
    if any("\0" in part for part in argv):
        raise fail(f"'{key}' must not hold a NUL character")
    program = argv[0]
    # exec looks a bare name up on PATH, not in the bot's directory: a compiled bot's ["bot"]
    # would pass every check here and fail only at start ("execvp bot: No such file"). "python"
    # is the arena's own interpreter whatever the directory holds (botprocess._argv).
    if program != "python" and "/" not in program and (bot_dir / program).is_file():
        raise fail(
            f"'{key}': {program!r} is looked up on PATH, not in the bot's directory: "
            f'write "./{program}" to run the file of the bot\'s directory'
        )
    return argv


def _program(spec: BotSpec) -> str | None:
    """The file of the bot's directory that its command runs, which a build makes: the command
    itself as a path (``./bot``), or the JVM's argument file (``java @java.args Bot``, which the
    Java starter's build writes with the classes)."""
    if not spec.command:
        return None
    if "/" in spec.command[0]:
        program = spec.command[0]
    else:
        program = next((a[1:] for a in spec.command[1:] if a.startswith("@") and a[1:]), "")
    # only a file of the directory: whether a host path exists is not the author's to learn
    # from a message ("@/root/x does not exist")
    inside = program and not Path(program).is_absolute() and ".." not in Path(program).parts
    return program if inside else None


def unbuilt_problem(spec: BotSpec, built: bool = False) -> str:
    """Why ``spec``'s directory cannot start yet (its command names a file of the directory that
    is not there: a compiled bot not built, or, ``built`` just now, a command that names
    another file than the build makes), or ""."""
    if spec.directory is not None and (problem := node_sdk_problem(spec.directory)):
        return problem
    program = _program(spec)
    if spec.directory is None or program is None:
        return ""
    if (spec.directory / program).exists() or (spec.directory / program).is_symlink():
        return ""
    if built:
        return (
            f"{spec.directory}: {program} does not exist after the build: check that "
            f"bot.toml's command names the program `{' '.join(spec.build)}` makes"
        )
    if not spec.build:
        return (
            f"{spec.directory}: {program} does not exist: bot.toml has no build step, so put "
            f"the program there (build it on your machine), or add a `build` that makes it"
        )
    return (
        f"{spec.directory}: {program} does not exist: build it first by running "
        f"`{' '.join(spec.build)}` (bot.toml's build) in that directory, or `arena submit` it, "
        "which builds it"
    )


# What a build compiles: a file of these newer than the program it built means a stale program.
_SOURCE_SUFFIXES = frozenset(
    (".go", ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".java", ".kt", ".scala", ".rs")
    + (".cs", ".fs", ".swift", ".zig", ".hs", ".ml", ".proto")
)
_STALE_LOOK_LIMIT = 5_000  # files looked at, at most: a warning is not worth a long walk
_NOT_SOURCES = frozenset(("node_modules", "target", "gen", ".git"))


def stale_build(spec: BotSpec) -> str:
    """A warning if a source file of ``spec``'s directory is newer than the program its command
    runs (edited, not rebuilt: `arena match` runs the directory as it is), or "". Without a
    build step too: a compiled bot built on the author's machine (docs/bots.md's way for Rust)."""
    program = _program(spec)
    if spec.directory is None or program is None:
        return ""
    try:
        built = (spec.directory / program).stat().st_mtime
    except OSError:
        return ""
    looked = 0
    for root, directories, files in os.walk(spec.directory):
        directories[:] = [d for d in directories if d not in _NOT_SOURCES]
        for name in files:
            looked += 1
            if looked > _STALE_LOOK_LIMIT:
                return ""
            source = Path(root, name)
            if source.suffix in _SOURCE_SUFFIXES:
                try:
                    newer = source.stat().st_mtime > built
                except OSError:
                    continue
                if newer:
                    how = f" (`{' '.join(spec.build)}` in {spec.directory})" if spec.build else ""
                    return (
                        f"{source.relative_to(spec.directory)} is newer than "
                        f"{program}: the game runs the program as it is; rebuild it{how} "
                        "for your change to play"
                    )
    return ""


# A bot.toml is a few lines; anything larger is not one.
MAX_MANIFEST_BYTES = 64 * 1024


def _manifest_text(path: Path) -> str:
    """The text of ``path``, refused unless a regular file of at most MAX_MANIFEST_BYTES: a
    FIFO there hung the command, and a link to /dev/zero read until memory ran out, deaf to
    SIGTERM. Opened non-blocking, so that a FIFO without a writer opens at once."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ManifestError(f"{path}: not a regular file")
        data = b""
        while len(data) <= MAX_MANIFEST_BYTES:
            chunk = os.read(fd, MAX_MANIFEST_BYTES + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > MAX_MANIFEST_BYTES:
        raise ManifestError(
            f"{path}: larger than {MAX_MANIFEST_BYTES // 1024} KiB (a bot.toml is a few lines)"
        )
    return data.decode("utf-8")


def load_manifest(bot_dir: Path) -> BotSpec:
    """Read and validate ``bot_dir/bot.toml``."""
    path = Path(bot_dir) / MANIFEST_NAME
    if not Path(bot_dir).is_dir():
        raise ManifestError(f"{bot_dir}: not a bot directory")
    try:
        data = tomllib.loads(_manifest_text(path))
    except FileNotFoundError:
        raise ManifestError(
            f"{path}: file not found (every bot directory needs a bot.toml)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:  # tomllib parses nested arrays and tables recursively
        raise ManifestError(f"{path}: invalid TOML: arrays or tables nested too deeply") from None

    def fail(problem: str) -> ManifestError:
        return ManifestError(f"{path}: {problem}")

    unknown = sorted(set(data) - {"name", "version", "command", "build", "games", "env", "network"})
    if unknown:
        raise fail(f"unknown key(s) {', '.join(unknown)}")
    for key in ("name", "version"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise fail(f"'{key}' must be a non-empty string")
    if problem := name_problem(data["name"].strip()) or version_problem(data["version"].strip()):
        raise fail(problem)
    command = _argv(data, "command", Path(bot_dir), fail, example='["python", "bot.py"]')
    build = (
        _argv(data, "build", Path(bot_dir), fail, example='["sh", "build.sh"]')
        if "build" in data
        else []
    )
    games = data.get("games")
    if not isinstance(games, list) or not games or not all(isinstance(g, str) for g in games):
        raise fail(
            "'games' must be a non-empty list of game names, e.g. [\"oregon\"], "
            f'or ["{EVERY_GAME}"] for every game'
        )
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise fail("'env' must be a table of string values")
    # What the operating system cannot pass to a process; found only when the bot starts, it
    # looked like the arena's fault (a voided game) and stalled a tournament on re-runs.
    # Names are the portable ones (POSIX: letters, digits, _), which every shell can export.
    for key, value in env.items():
        if not _ENV_NAME.fullmatch(key) or "\0" in value:
            raise fail(
                f"'env': {key!r} is no environment variable name (letters, digits and _, not "
                "starting with a digit) with a string value"
            )
    network = data.get("network", False)
    if not isinstance(network, bool):
        raise fail("'network' must be true or false")
    return BotSpec(
        name=data["name"].strip(),
        version=data["version"].strip(),
        games=expand_games(games),
        directory=Path(bot_dir).resolve(),
        command=tuple(command),
        build=tuple(build),
        env=MappingProxyType(dict(env)),
        network=network,
    )
