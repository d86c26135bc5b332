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
import os
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
