"""Bot directories shipped to other machines (``arena tournament --ray``): packed here, unpacked
there into a cache keyed by their content.

A node of a Ray cluster has the arena installed but not the entrants' directories, so the arena
packs each local bot's directory into a zip archive, which Ray's object store carries to every
node that plays; there it is unpacked once per content (``<temp>/arena-ray-bots/<sha256>``, shared
by every game and tournament on that node) and the bot's spec points there. A remote bot
(``NAME@HOST:PORT``) has no directory and needs nothing.

Links are followed as the sandbox follows them (docs/sandbox.md): inside the bot's directory, and
into the arena's sample bots and SDKs (a Node bot's ``node_modules/arena-bot-sdk``); any other
link is left out, so shipping never copies the arena user's own files to another machine.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import stat
import tempfile
import zipfile
from dataclasses import replace
from pathlib import Path

from arena.errors import SetupError
from arena.manifest import BotSpec

# The public code a bot's directory may link to, as the sandbox has it.
from arena.sandbox.bwrap import _LINKABLE as LINKABLE_ROOTS

CACHE_NAME = "arena-ray-bots"
_SKIPPED = {"__pycache__", ".git"}
_FIXED_TIME = (2000, 1, 1, 0, 0, 0)  # the same files pack to the same bytes (and digest)


def _files(directory: Path) -> list[tuple[str, Path]]:
    """(name in the archive, file on disk) for every file to ship, in a stable order."""
    found: list[tuple[str, Path]] = []
    seen: set[Path] = set()

    def may_follow(link: Path) -> bool:
        target = link.resolve()
        return target.is_relative_to(directory) or any(
            target.is_relative_to(root) for root in LINKABLE_ROOTS
        )

    def walk(folder: Path, prefix: str) -> None:
        real = folder.resolve()
        if real in seen:  # a link loop, or the same tree linked twice
            return
        seen.add(real)
        for entry in sorted(folder.iterdir()):
            if entry.name in _SKIPPED or (entry.is_symlink() and not may_follow(entry)):
                continue
            name = f"{prefix}{entry.name}"
            if entry.is_dir():
                walk(entry, f"{name}/")
            elif entry.is_file():
                found.append((name, entry))

    walk(directory, "")
    return found


def pack(directory: Path) -> bytes:
    """The bot directory as a zip archive (links resolved, file modes kept)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in _files(directory.resolve()):
            info = zipfile.ZipInfo(name, _FIXED_TIME)
            info.external_attr = (stat.S_IMODE(path.stat().st_mode) | stat.S_IFREG) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def digest(archive: bytes) -> str:
    return hashlib.sha256(archive).hexdigest()


def cache_root() -> Path:
    return Path(tempfile.gettempdir()) / CACHE_NAME


def unpack(archive: bytes, root: Path | None = None) -> Path:
    """The directory holding ``archive``'s files on this machine: unpacked on first use, then
    reused (by every process on the machine: it appears whole or not at all)."""
    root = root or cache_root()
    target = root / digest(archive)
    if target.is_dir():
        return target
    root.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o755)  # a sandboxed bot runs as another user id
    staging = Path(tempfile.mkdtemp(prefix=".unpacking-", dir=root))
    try:
        with zipfile.ZipFile(io.BytesIO(archive)) as files:
            for info in files.infolist():
                path = files.extract(info, staging)
                os.chmod(path, (info.external_attr >> 16) & 0o777 or 0o644)
        for folder, _, _ in os.walk(staging):
            os.chmod(folder, 0o755)
        try:
            staging.rename(target)
        except OSError:
            if not target.is_dir():  # not another process winning the race: a real fault
                raise
    except (OSError, zipfile.BadZipFile) as exc:
        raise SetupError(f"cannot unpack a shipped bot into {root}: {exc}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def at(spec: BotSpec, directory: Path) -> BotSpec:
    """``spec`` with its files at ``directory`` (where they were unpacked)."""
    return replace(spec, directory=directory)
