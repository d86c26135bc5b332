"""Packing a bot directory as ``arena submit --to`` uploads it: a tar.gz of the files the
version hash counts (``arena.bot_tree.bot_files``: caches and ``node_modules`` left out, a link
into the arena's public code packed as what it leads to), in name order, with no times, owners
or modes beyond "executable": the same files give the same bytes, so the same archive hash."""

from __future__ import annotations

import gzip
import io
import os
import stat
import tarfile
from pathlib import Path

from arena.bot_tree import bot_files
from arena.errors import InputError
from arena.uploads.unpack import DEFAULT_LIMITS, UnpackLimits


def pack(directory: Path, limits: UnpackLimits = DEFAULT_LIMITS) -> bytes:
    """The tar.gz of bot directory ``directory``. Raises InputError for what no upload may
    hold (a FIFO, a link to a directory in it) and an archive over ``limits.archive_bytes``;
    ManifestError for a link out of the directory."""
    buffer = io.BytesIO()
    with (
        gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0) as compressed,
        tarfile.open(fileobj=compressed, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for name, path in bot_files(directory):
            status = os.stat(path)  # follows a link: what it leads to is packed
            if not stat.S_ISREG(status.st_mode):
                raise InputError(f"{directory / name}: not a regular file; an upload holds files")
            info = tarfile.TarInfo(name)
            info.size = status.st_size
            info.mode = 0o755 if status.st_mode & stat.S_IXUSR else 0o644
            with open(path, "rb") as file:
                tar.addfile(info, file)
            if buffer.tell() > limits.archive_bytes:
                break
    if buffer.tell() > limits.archive_bytes:
        raise InputError(
            f"{directory}: packs to more than the {limits.archive_bytes} bytes an upload may "
            "have (leave build outputs and data out of the bot's directory)"
        )
    return buffer.getvalue()
