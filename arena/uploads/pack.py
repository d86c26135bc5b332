"""Packing a bot directory as ``arena submit --to`` uploads it: a tar.gz of the files the
version hash counts (``arena.bot_tree.bot_files``: caches and ``node_modules`` left out, a link
into the arena's public code packed as what it leads to), less what the directory's ignore file
leaves out, in name order, with no times, owners or modes beyond "executable": the same files
give the same bytes, so the same archive hash.

The ignore file is ``.arenaignore`` if the bot has one, else its ``.gitignore`` (as gcloud's
``.gcloudignore`` falls back on it): gitignore syntax (the pathspec library), for build
outputs, which the hosted arena rebuilds anyway (a Go starter's binary is 13 MiB; a Rust
``target/`` can outgrow the upload limit). ``bot.toml`` is always packed."""

from __future__ import annotations

import gzip
import io
import os
import stat
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pathspec

from arena.bot_tree import bot_files
from arena.errors import InputError
from arena.manifest import MANIFEST_NAME
from arena.uploads.unpack import DEFAULT_LIMITS, UnpackLimits
from arena.wording import size

IGNORE_FILES = (".arenaignore", ".gitignore")  # the first that exists decides


@dataclass(frozen=True)
class Packed:
    archive: bytes
    files: int  # packed
    ignore_file: str | None  # the ignore file read, if any
    left_out: tuple[str, ...]  # the names it left out


def pack(directory: Path, limits: UnpackLimits = DEFAULT_LIMITS) -> bytes:
    """The tar.gz of bot directory ``directory`` (``pack_directory``)."""
    return pack_directory(directory, limits).archive


class _Full(Exception):
    """The archive passed the upload limit while it was being written."""


class _Bounded(io.BytesIO):
    """An archive's bytes, refused as soon as they pass ``limit``: a 300 MB file took 424 MB
    of memory to be refused at 32 MiB (outside review)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def write(self, data: Any) -> int:
        if self.tell() + len(data) > self.limit:
            raise _Full
        return super().write(data)


def pack_directory(directory: Path, limits: UnpackLimits = DEFAULT_LIMITS) -> Packed:
    """The tar.gz of bot directory ``directory``, and what its ignore file left out. Raises
    InputError for what no upload may hold (a FIFO, a link to a directory in it), an archive
    over ``limits.archive_bytes`` and an ignore file it cannot read; ManifestError for a link
    out of the directory."""
    files = bot_files(directory)  # first: it refuses a link out of the directory
    ignore_file, ignored = _ignore_spec(directory)
    kept: list[tuple[str, Path]] = []
    left_out: list[str] = []
    for name, path in files:
        if ignored is not None and name != MANIFEST_NAME and ignored.match_file(name):
            left_out.append(name)
        else:
            kept.append((name, path))
    buffer = _Bounded(limits.archive_bytes)
    try:
        with (
            gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as compressed,
            tarfile.open(fileobj=compressed, mode="w", format=tarfile.PAX_FORMAT) as tar,
        ):
            for name, path in kept:
                status = os.stat(path)  # follows a link: what it leads to is packed
                if not stat.S_ISREG(status.st_mode):
                    raise InputError(
                        f"{directory / name}: not a regular file; an upload holds files"
                    )
                info = tarfile.TarInfo(name)
                info.size = status.st_size
                info.mode = 0o755 if status.st_mode & stat.S_IXUSR else 0o644
                with open(path, "rb") as file:
                    tar.addfile(info, file)
    except _Full:
        raise InputError(
            f"{directory}: packs to more than the {size(limits.archive_bytes)} an upload "
            f"may have (largest: {_largest(kept)}); list build outputs and data in "
            f"{directory / IGNORE_FILES[0]} (gitignore syntax) to leave them out"
        ) from None
    return Packed(buffer.getvalue(), len(kept), ignore_file, tuple(left_out))


def _ignore_spec(directory: Path) -> tuple[str | None, pathspec.GitIgnoreSpec | None]:
    for name in IGNORE_FILES:
        path = directory / name
        if path.is_file():
            try:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
                return name, pathspec.GitIgnoreSpec.from_lines(lines)
            except (OSError, ValueError) as exc:  # unreadable, or a pattern it cannot parse
                raise InputError(f"{path}: {exc}") from None
    return None, None


def top_level(name: str) -> str:
    """The first part of a packed file's name: ``target/`` for ``target/release/bot``."""
    return name.split("/", 1)[0] + ("/" if "/" in name else "")


def _largest(files: list[tuple[str, Path]], count: int = 3) -> str:
    """The ``count`` top-level entries of ``files`` that hold the most bytes, for the error."""
    sizes: dict[str, int] = {}
    for name, path in files:
        top = top_level(name)
        sizes[top] = sizes.get(top, 0) + os.stat(path).st_size
    ranked = sorted(sizes.items(), key=lambda item: -item[1])[:count]
    return ", ".join(f"{top} {size(held)}" for top, held in ranked)
