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

The cache is cleaned when an actor starts (``evict``): an entry unused for ``MAX_UNUSED_DAYS``
goes, then the least recently used beyond ``SIZE_BUDGET_BYTES``, but never one that a live actor
holds. An actor holds each entry it runs bots from (``hold``: a shared ``flock`` on the entry's
directory, which the kernel releases when the actor's process ends, however it ends); eviction
removes only an entry whose exclusive lock it gets at once, and renames it away before deleting
it, so an actor never finds a half-deleted entry (it re-checks the name after its lock). "Used"
is the entry's mtime, touched at each use. Several actors and tournaments may start on one node
at once: one evicts at a time (a lock file), the others skip it.
"""

from __future__ import annotations

import fcntl
import hashlib
import io
import os
import re
import shutil
import stat
import tempfile
import time
import uuid
import zipfile
from dataclasses import replace
from pathlib import Path

# The public code a bot's directory may link to, as the sandbox has it.
from arena.bot_tree import LINKABLE as LINKABLE_ROOTS
from arena.errors import SetupError
from arena.manifest import BotSpec
from arena.tournament.node_dirs import own_directory

CACHE_NAME = "arena-ray-bots"
MAX_UNUSED_DAYS = 7.0
SIZE_BUDGET_BYTES = 1 << 30  # the temporary directory is often in memory (tmpfs)
_STAGING = ".unpacking-"
_EVICTED = ".evicted-"
_EVICTION_LOCK = ".evicting"
_ENTRY = re.compile(r"[0-9a-f]{64}")  # a digest: anything else in the root is not an entry
_STALE_STAGING_SECONDS = 3600.0  # an unpacking lasts seconds: older, its process died
_HOLD_ATTEMPTS = 3
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
    root = own_directory(root or cache_root(), 0o755)  # a sandboxed bot runs as another user id
    target = root / digest(archive)
    if target.is_dir():
        _touch(target)
        return target
    staging = Path(tempfile.mkdtemp(prefix=_STAGING, dir=root))
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


def _touch(entry: Path) -> None:
    """Mark the entry used now (its mtime: the eviction's clock)."""
    try:
        os.utime(entry)
    except OSError:
        pass  # evicted meanwhile (``hold`` unpacks it again), or another user's entry


def hold(archive: bytes, root: Path | None = None) -> tuple[Path, int]:
    """``unpack`` the archive and hold its entry against eviction until the returned file
    descriptor is closed (``release``), or the process ends."""
    for _ in range(_HOLD_ATTEMPTS):
        target = unpack(archive, root)
        try:
            held = os.open(target, os.O_RDONLY | os.O_DIRECTORY)
        except FileNotFoundError:
            continue  # evicted between the two: unpack again
        fcntl.flock(held, fcntl.LOCK_SH)  # waits while an eviction holds it, a moment
        if _names(target, held):
            return target, held
        os.close(held)  # that eviction took it: unpack again
    raise SetupError(f"cannot keep a shipped bot in {target.parent}: evicted as it was unpacked")


def release(held: int) -> None:
    os.close(held)


def _names(path: Path, fd: int) -> bool:
    """Whether ``path`` is still the directory open as ``fd`` (not renamed away)."""
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except OSError:
        return False


def _size(entry: Path) -> int:
    total = 0
    for folder, _, files in os.walk(entry):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def _remove_unless_held(entry: Path, root: Path) -> bool:
    """Remove the entry if no actor holds it (its exclusive lock is free); False if one does.
    Renamed away first, under the lock: a name in the cache is always a whole entry."""
    try:
        fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # held by a live actor
        if not _names(entry, fd):
            return False
        gone = root / f"{_EVICTED}{entry.name}-{uuid.uuid4().hex}"
        try:
            entry.rename(gone)
        except OSError:
            return False
    finally:
        os.close(fd)
    shutil.rmtree(gone, ignore_errors=True)
    return True


def evict(
    root: Path | None = None,
    *,
    max_unused_days: float = MAX_UNUSED_DAYS,
    budget_bytes: int = SIZE_BUDGET_BYTES,
    now: float | None = None,
) -> list[str]:
    """Clean the cache: remove each entry unused for more than ``max_unused_days``, then the
    least recently used ones while the entries add up to more than ``budget_bytes``, skipping
    those a live actor holds (they count against the budget: it may be exceeded while they are
    in use). Also leftovers of unpackings and evictions that died. Returns the digests removed;
    nothing if another process is evicting now."""
    root = root or cache_root()
    now = time.time() if now is None else now
    if not root.is_dir():
        return []  # no cache here yet
    own_directory(root, 0o755)  # never another user's entries (SetupError)
    try:
        lock = os.open(root / _EVICTION_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return []  # no cache here yet
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return []  # another actor is cleaning it
        return _evict(root, now - max_unused_days * 86400, budget_bytes, now)
    finally:
        os.close(lock)


def _evict(root: Path, unused_since: float, budget_bytes: int, now: float) -> list[str]:
    entries: list[tuple[float, Path]] = []
    for path in root.iterdir():
        try:
            mtime = path.lstat().st_mtime
        except OSError:
            continue
        stale_staging = path.name.startswith(_STAGING) and mtime < now - _STALE_STAGING_SECONDS
        if path.name.startswith(_EVICTED) or stale_staging:
            shutil.rmtree(path, ignore_errors=True)
        elif _ENTRY.fullmatch(path.name) and path.is_dir():
            entries.append((mtime, path))
    removed = []
    kept_bytes = 0
    for mtime, entry in sorted(entries, reverse=True):  # the most recently used first
        size = _size(entry)
        too_old = mtime < unused_since
        if (too_old or kept_bytes + size > budget_bytes) and _remove_unless_held(entry, root):
            removed.append(entry.name)
        else:
            kept_bytes += size
    return removed


def at(spec: BotSpec, directory: Path) -> BotSpec:
    """``spec`` with its files at ``directory`` (where they were unpacked). The driver checked
    the code it packed (``content_hash``); the copy is the archive's, whatever else it holds."""
    return replace(spec, directory=directory, content_hash=None)
