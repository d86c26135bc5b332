"""What a bot's directory holds: its files, and the links it may have.

A bot's directory may link into the arena's own public code, the sample bots and the SDKs
(``search-python/heuristics`` links to the heuristic bot's strategies; a Node bot's
``node_modules/arena-bot-sdk`` to ``sdk/node``): the sandbox shows the bot those, and the
version hash covers their content. A link to anywhere else outside the directory is refused
(the sandbox would not show its target, and hashing it would read whatever it points to: one
``usr -> /usr`` made storing a game take a minute), and so is a link loop. Every walk here is
iterative and follows no link it has not checked, so it ends on any tree.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from arena.errors import ManifestError

REPO = Path(__file__).resolve().parents[1]
# Public code a bot's directory may link to.
LINKABLE = (REPO / "sample_bots", REPO / "sdk")
# Not part of a bot's code: caches and installed dependencies (their lock files are hashed).
IGNORED_PARTS = frozenset({"__pycache__", "node_modules", ".git", ".mypy_cache", ".pytest_cache"})
MAX_ENTRIES = 200_000  # files, directories and links in one bot's directory


def walk(directory: Path, *, skip: frozenset[str] = frozenset()) -> Iterator[os.DirEntry]:
    """Every entry under ``directory``, without following links (any depth), leaving out
    directories named in ``skip``. Raises ManifestError past ``MAX_ENTRIES``."""
    pending = [directory]
    seen = 0
    while pending:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if seen > MAX_ENTRIES:
                        raise ManifestError(
                            f"{directory}: more than {MAX_ENTRIES} files and directories"
                        )
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name not in skip:
                            pending.append(Path(entry.path))
                    yield entry
        except OSError:
            continue  # unreadable or gone


def linkable(target: Path) -> bool:
    return any(target.is_relative_to(root) for root in LINKABLE)


def link_target(link: Path, directory: Path) -> Path | None:
    """Where ``link`` (in bot directory ``directory``) leads when it leads into the arena's
    public code (outside ``directory``), else None (it stays inside). Raises ManifestError for
    a loop or a link outside both."""
    try:
        target = Path(os.path.realpath(link, strict=True))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ManifestError(f"{link}: a link loop") from None
        target = Path(os.path.realpath(link))  # dangling: judged by where it would lead
    if target.is_relative_to(directory.resolve()):
        return None
    if linkable(target):
        return target
    raise ManifestError(
        f"{link}: links outside the bot's directory (to {target}); copy what the bot needs "
        f"into its directory"
    )


def bot_files(directory: Path) -> list[tuple[str, Path]]:
    """(relative name, path) of every regular file and other non-directory of the bot, sorted;
    links into the arena's public code count as the files they lead to. Raises ManifestError
    for a link loop or a link out of the directory (outside the public code)."""
    directory = directory.resolve()
    found: list[tuple[str, Path]] = []
    for entry in walk(directory, skip=IGNORED_PARTS):
        path = Path(entry.path)
        name = path.relative_to(directory).as_posix()
        if entry.is_dir(follow_symlinks=False) or name.endswith(".pyc"):
            continue
        target = link_target(path, directory) if entry.is_symlink() else None
        if target is not None and target.is_dir():
            for inner in walk(target, skip=IGNORED_PARTS):
                if not inner.is_dir(follow_symlinks=False) and not inner.name.endswith(".pyc"):
                    inner_path = Path(inner.path)
                    found.append(
                        (f"{name}/{inner_path.relative_to(target).as_posix()}", inner_path)
                    )
        else:
            found.append((name, target or path))
    return sorted(found)


def linked_public_code(directory: Path) -> list[Path]:
    """Targets of the links in ``directory`` that lead into the arena's public code, for the
    sandbox to show; a link that leads anywhere else stays dangling there."""
    targets = []
    for entry in walk(directory):
        if entry.is_symlink():
            target = Path(os.path.realpath(entry.path))
            if linkable(target) and not target.is_relative_to(directory):
                targets.append(target)
    return targets


def directory_hash(directory: Path) -> str:
    """sha256 over the relative path and content of every file of a bot directory
    (``arena.bot_tree.bot_files``: links into the arena's public code count as what they lead
    to, so a bot that links shared code gets a new version when that code changes). What is no
    regular file (a FIFO, a link to a device, a link inside the directory) counts by its name
    only. Raises ManifestError for a link loop or a link out of the directory."""
    digest = hashlib.sha256()
    for name, path in bot_files(directory):
        digest.update(name.encode() + b"\0")
        digest.update(_content_digest(path))
    return digest.hexdigest()


def _content_digest(path: Path) -> bytes:
    if not path.is_file():  # follows links: a FIFO, a device, a dangling link
        return hashlib.sha256(b"not a regular file").digest()
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").digest()


# The code each directory held when last hashed, by the files' sizes and times (``holds_code``).
_hashed: dict[Path, tuple[tuple[tuple[str, int, int, int], ...], str]] = {}


def holds_code(directory: Path, content_hash: str) -> bool:
    """Whether ``directory`` still holds the code hashed as ``content_hash``. Hashed again only
    when a file's size, time or inode differs from the last hashing here (a referee checks before
    every game; a bot may be large)."""
    try:
        signature = tuple(
            (name, info.st_size, info.st_mtime_ns, info.st_ino)
            for name, info in ((name, _stat(path)) for name, path in bot_files(directory))
        )
    except (ManifestError, OSError):
        return False
    known = _hashed.get(directory)
    if known is None or known[0] != signature:
        try:
            known = _hashed[directory] = (signature, directory_hash(directory))
        except (ManifestError, OSError):
            return False
    return known[1] == content_hash


def _stat(path: Path) -> os.stat_result:
    try:
        return os.stat(path)
    except OSError:  # a dangling link: hashed by its name
        return os.lstat(path)


NODE_SDK = REPO / "sdk" / "node"
NODE_SDK_PACKAGE = "arena-bot-sdk"  # the name a Node bot's package.json depends on


def depends_on_node_sdk(directory: Path) -> bool:
    """Whether ``directory``'s ``package.json`` depends on the arena's Node SDK (False for no
    package.json, or one npm would not read)."""
    try:
        dependencies = json.loads((directory / "package.json").read_text()).get("dependencies")
    except (OSError, ValueError, AttributeError, TypeError, RecursionError):
        return False
    return isinstance(dependencies, dict) and NODE_SDK_PACKAGE in dependencies


def node_sdk_problem(directory: Path) -> str:
    """Why a Node bot's SDK will not load, or "": its package.json depends on the SDK and
    ``node_modules`` has none, typically a bot moved after `npm install` (npm links a ``file:``
    dependency by a relative path, which then leads nowhere)."""
    if not depends_on_node_sdk(directory):
        return ""
    if (directory / "node_modules" / NODE_SDK_PACKAGE / "package.json").is_file():
        return ""
    sdk = os.path.relpath(NODE_SDK, directory.resolve())
    return (
        f"{directory}: node_modules/{NODE_SDK_PACKAGE} is missing or leads nowhere (was the bot "
        f'moved after `npm install`?): set package.json\'s "{NODE_SDK_PACKAGE}" to '
        f'"file:{sdk}" and run `npm install` in that directory'
    )


def link_node_sdk(directory: Path) -> bool:
    """Give an uploaded Node bot the arena's Node SDK as a local checkout has it:
    ``node_modules/arena-bot-sdk``, a link to ``sdk/node`` (which the sandbox then shows). An
    upload carries no ``node_modules`` (packing leaves it out, and unpacking refuses links) and a
    build has no network for npm, so without it no Node bot could be hosted. Only for a
    ``package.json`` that depends on the SDK, where the upload did not bring one of its own;
    whether a link was made."""
    if not depends_on_node_sdk(directory) or not (NODE_SDK / "package.json").is_file():
        return False
    link = directory / "node_modules" / NODE_SDK_PACKAGE
    try:
        link.parent.mkdir(exist_ok=True)
        link.symlink_to(NODE_SDK, target_is_directory=True)
    except OSError:  # the upload's own (a file named node_modules, its own SDK copy)
        return False
    return True


def entry_bytes(info: os.stat_result) -> int:
    """What an entry of a bot's directory costs the host's disk once copied: its blocks, or a
    file's apparent size where that is larger (a copy writes a sparse file dense)."""
    return max(info.st_blocks * 512, info.st_size if stat.S_ISREG(info.st_mode) else 0)


def tree_bytes(root: Path) -> int:
    """``entry_bytes`` of everything under ``root``, links not followed, walked without
    recursion (a tree may be deeper than any recursion); 0 where ``root`` is gone."""
    total, stack = 0, [root]
    while stack:
        try:
            with os.scandir(stack.pop()) as found:
                for entry in found:
                    total += entry_bytes(entry.stat(follow_symlinks=False))
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(Path(entry.path))
        except FileNotFoundError:
            continue
    return total
