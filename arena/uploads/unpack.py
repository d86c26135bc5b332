"""Unpacking an uploaded bot archive (tar.gz or zip) that nobody has checked: a stranger's.

Every member is judged before a byte of it is written, and every byte is counted as it is
written, so a bomb is refused while it streams, never after it filled the disk:

- at most ``files`` members and ``file_bytes`` per file (the size a member declares is judged
  first, the bytes that come are counted too: a header may lie); a zip's members are counted
  in its central directory before ``zipfile`` reads it (it would build every entry first);
- at most ``total_bytes`` in all, and at most ``ratio`` times the archive's own size (past a
  first ``ratio_free_bytes``, which small archives of text reach honestly): the tar stream is
  decompressed through a counter that stops there, so even tar's own headers (a pax header may
  declare gigabytes) cannot grow past it;
- names: relative, no ``..``, no backslash or control character, each at most once (a file and a
  directory of one name count as a duplicate);
- only regular files and directories. Links of every kind are refused, not only those that
  lead out: ``arena submit --to`` packs what a link leads to (as a version's hash counts it), so
  a link in an upload was put there by hand, and a link that stays inside today is the first
  half of the classic escape (a link, then a file written through it). Devices and FIFOs are
  refused, and so are set-user-ID, set-group-ID and sticky bits;
- the files are written into a fresh directory (which must not exist), created without
  following links, readable by everyone (the bot runs as another uid), executable where the
  archive says so. After any refusal the directory is removed: nothing is left half written.

``ArchiveError`` is one line that names the member and the rule.
"""

from __future__ import annotations

import gzip
import lzma
import os
import shutil
import stat
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import IO, BinaryIO, Protocol

from arena.errors import InputError
from arena.manifest import MANIFEST_NAME

_CHUNK = 1 << 16
_GZIP_MAGIC = b"\x1f\x8b"
_ZIP_MAGIC = b"PK\x03\x04"
_SPECIAL_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX
_TAR_SLACK = 1 << 20
# A zip's end records (APPNOTE 4.3.14-16), read as zipfile reads them: the end of the central
# directory (22 bytes, then a comment of at most 64 KiB), the ZIP64 locator before it and the
# ZIP64 end record before that; and the fixed part of a central directory's entry.
_END = struct.Struct("<4s4H2LH")
_END_SIGNATURE = b"PK\x05\x06"
_LOCATOR = struct.Struct("<4sLQL")
_LOCATOR_SIGNATURE = b"PK\x06\x07"
_END64 = struct.Struct("<4sQ2H2L4Q")
_END64_SIGNATURE = b"PK\x06\x06"
_ENTRY = struct.Struct("<4s24x3H12x")  # signature, then the lengths of name, extra, comment
_ENTRY_SIGNATURE = b"PK\x01\x02"
_MAX_COMMENT = (1 << 16) - 1


_NAME_BYTES = 255  # a file name's limit on Linux file systems (NAME_MAX)
_PATH_BYTES = 1024  # well within PATH_MAX (4096) under the worker's own directories


class ArchiveError(InputError):
    """An archive that is refused: malformed, too large, or with a member no bot may have."""


@dataclass(frozen=True)
class UnpackLimits:
    archive_bytes: int = 32 << 20  # the upload itself
    total_bytes: int = 256 << 20  # all files unpacked
    files: int = 10_000  # members (files and directories)
    file_bytes: int = 64 << 20  # one file
    ratio: int = 100  # unpacked bytes per archive byte, past ratio_free_bytes
    ratio_free_bytes: int = 4 << 20


DEFAULT_LIMITS = UnpackLimits()


@dataclass(frozen=True)
class Unpacked:
    files: int
    bytes: int


@dataclass(frozen=True)
class _Member:
    name: str
    kind: str  # "file", "dir", or what is refused: "link", "device", "fifo", "other"
    mode: int  # permission bits as the archive gives them
    size: int  # as declared
    open: Callable[[], IO[bytes]]


def archive_kind(head: bytes) -> str | None:
    """ "tar.gz" or "zip" from an archive's first bytes, None for anything else."""
    if head.startswith(_GZIP_MAGIC):
        return "tar.gz"
    if head.startswith(_ZIP_MAGIC):
        return "zip"
    return None


NOT_AN_ARCHIVE = "the upload is neither a tar.gz nor a zip archive"


def unpack(archive: Path, destination: Path, limits: UnpackLimits = DEFAULT_LIMITS) -> Unpacked:
    """Unpack ``archive`` into the new directory ``destination`` under ``limits``; raises
    ArchiveError (and leaves no ``destination``) for anything refused."""
    destination.mkdir(mode=0o755)  # FileExistsError: the caller's mistake, not the archive's
    try:
        writer = _take_apart(archive, limits, destination)
    except BaseException:
        shutil.rmtree(destination, ignore_errors=True)  # only what this call wrote
        raise
    return Unpacked(writer.files, writer.written)


def check(archive: Path, limits: UnpackLimits = DEFAULT_LIMITS) -> Unpacked:
    """What ``unpack`` would do, writing nothing: every member judged and every byte counted
    (the web refuses a hostile upload at once with it; the worker unpacks for real); and an
    archive the worker would find no bot in (no bot.toml at its top, nor in its one directory,
    as ``arena.submissions.worker`` looks) is refused too. Raises ArchiveError."""
    writer = _take_apart(archive, limits, None)
    if not writer.kinds:
        raise ArchiveError(f"the archive is empty: a bot needs its {MANIFEST_NAME} at its top")
    if not _has_manifest(writer.kinds):
        raise ArchiveError(f"no {MANIFEST_NAME} at the archive's top (nor in its one directory)")
    return Unpacked(writer.files, writer.written)


def _has_manifest(kinds: dict[PurePosixPath, str]) -> bool:
    """Whether bot.toml is a file at the top, or in the one thing at the top, a directory."""
    manifest = PurePosixPath(MANIFEST_NAME)
    if kinds.get(manifest) == "file":
        return True
    top = [path for path in kinds if len(path.parts) == 1]
    return len(top) == 1 and kinds[top[0]] != "file" and kinds.get(top[0] / manifest) == "file"


def _take_apart(archive: Path, limits: UnpackLimits, root: Path | None) -> _Writer:
    size = archive.stat().st_size
    if size > limits.archive_bytes:
        raise ArchiveError(f"the archive has {size} bytes, more than the {limits.archive_bytes}")
    with open(archive, "rb") as file:
        kind = archive_kind(file.read(4))
    if kind is None:
        raise ArchiveError(NOT_AN_ARCHIVE)
    budget = min(limits.total_bytes, max(limits.ratio * size, limits.ratio_free_bytes))
    writer = _Writer(root, limits, budget)
    members = _tar_members if kind == "tar.gz" else _zip_members
    with members(archive, budget, limits) as found:
        for member in found:
            writer.add(member)
    return writer


class _Writer:
    """Writes the members under ``root``; with no root only judges and counts them."""

    def __init__(self, root: Path | None, limits: UnpackLimits, budget: int) -> None:
        self.root = root
        self.limits = limits
        self.budget = budget
        self.files = 0
        self.written = 0
        # what each name became: "file", "dir", or "implied" (a directory a longer name needs)
        self.kinds: dict[PurePosixPath, str] = {}

    def add(self, member: _Member) -> None:
        path = self._checked(member)
        if path is None:
            return  # the archive's root itself ("./")
        for parent in reversed(path.parents[:-1]):
            made = self.kinds.setdefault(parent, "implied")
            if made == "file":
                raise ArchiveError(f"{member.name}: {parent} is a file in the archive too")
            if made == "implied" and self.root is not None:
                self.root.joinpath(*parent.parts).mkdir(mode=0o755, exist_ok=True)
        before = self.kinds.get(path)
        if before is not None and not (before == "implied" and member.kind == "dir"):
            raise ArchiveError(f"{member.name}: in the archive twice")
        self.kinds[path] = member.kind
        if member.kind == "file":
            self._write(member, path)
        elif self.root is not None:
            self.root.joinpath(*path.parts).mkdir(mode=0o755, exist_ok=before == "implied")

    def _checked(self, member: _Member) -> PurePosixPath | None:
        """The member's path once every rule holds for it; None for the archive's root."""
        name = member.name
        self.files += 1
        if self.files > self.limits.files:
            raise ArchiveError(f"more than {self.limits.files} files and directories")
        if not name or "\\" in name or not name.isprintable():
            # control and format characters (U+202E would show "gnp.exe" as "exe.png")
            raise ArchiveError(f"{name!r}: a name with a backslash or a control character")
        path = PurePosixPath(name)
        if any(len(part.encode()) > _NAME_BYTES for part in path.parts):
            raise ArchiveError(f"{name[:80]}...: a name longer than {_NAME_BYTES} bytes")
        if len(name.encode()) > _PATH_BYTES:
            raise ArchiveError(f"{name[:80]}...: a path longer than {_PATH_BYTES} bytes")
        if path.is_absolute():
            raise ArchiveError(f"{name}: an absolute path")
        if ".." in path.parts:
            raise ArchiveError(f"{name}: a path with '..'")
        if member.kind == "link":
            raise ArchiveError(f"{name}: a link (links are refused: pack what they lead to)")
        if member.kind != "file" and member.kind != "dir":
            raise ArchiveError(f"{name}: a {member.kind}, not a file or directory")
        if member.mode & _SPECIAL_BITS:
            raise ArchiveError(f"{name}: a set-user-ID, set-group-ID or sticky bit")
        if member.kind == "file" and member.size > self.limits.file_bytes:
            raise ArchiveError(
                f"{name}: {member.size} bytes, more than the {self.limits.file_bytes} a file "
                "may have"
            )
        return None if path == PurePosixPath(".") else path

    def _write(self, member: _Member, path: PurePosixPath) -> None:
        mode = 0o755 if member.mode & 0o111 else 0o644
        target = self.root.joinpath(*path.parts) if self.root is not None else None
        with (
            _created(target, mode) if target is not None else nullcontext(None) as out,
            member.open() as data,
        ):
            size = 0
            while chunk := data.read(_CHUNK):
                size += len(chunk)
                self.written += len(chunk)
                if size > self.limits.file_bytes:
                    raise ArchiveError(
                        f"{path}: more than the {self.limits.file_bytes} bytes a file may have"
                    )
                if self.written > self.budget:
                    raise _over_budget(self.budget, self.limits)
                if out is not None:
                    out.write(chunk)
        if target is not None:
            os.chmod(target, mode)  # whatever the umask took away: the bot runs as another uid


def _created(target: Path, mode: int) -> IO[bytes]:
    """A new file, never one that is there already nor through a link."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    return os.fdopen(fd, "wb")


def _over_budget(budget: int, limits: UnpackLimits) -> ArchiveError:
    if budget < limits.total_bytes:
        return ArchiveError(
            f"unpacks to more than {budget} bytes, over {limits.ratio} times the archive's "
            "size (a compression bomb?)"
        )
    return ArchiveError(f"unpacks to more than the {limits.total_bytes} bytes an upload may")


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class _Bounded:
    """A readable stream that refuses to give more than ``budget`` bytes in all."""

    def __init__(self, stream: _Readable, budget: int, limits: UnpackLimits) -> None:
        self.stream = stream
        self.left = budget
        self.error = _over_budget(budget, limits)

    def read(self, size: int = -1) -> bytes:
        want = self.left + 1 if size < 0 else min(size, self.left + 1)
        data = self.stream.read(want)
        self.left -= len(data)
        if self.left < 0:
            raise self.error
        return data


_TAR_KINDS = [
    (tarfile.TarInfo.isreg, "file"),
    (tarfile.TarInfo.isdir, "dir"),
    (tarfile.TarInfo.issym, "link"),
    (tarfile.TarInfo.islnk, "link"),
    (tarfile.TarInfo.ischr, "device"),
    (tarfile.TarInfo.isblk, "device"),
    (tarfile.TarInfo.isfifo, "fifo"),
]


@contextmanager
def _tar_members(archive: Path, budget: int, limits: UnpackLimits) -> Iterator[Iterator[_Member]]:
    with open(archive, "rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
        # tar's own headers and padding count too, with some room for them
        bounded = _Bounded(unzipped, budget + _TAR_SLACK, limits)
        try:
            with tarfile.open(fileobj=bounded, mode="r|") as tar:  # type: ignore[call-overload]
                yield _tar_entries(tar)
        except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
            raise ArchiveError(f"not a readable tar.gz archive: {exc}") from None


def _tar_entries(tar: tarfile.TarFile) -> Iterator[_Member]:
    for info in tar:
        kind = next((kind for test, kind in _TAR_KINDS if test(info)), "other")

        def opened(info: tarfile.TarInfo = info) -> IO[bytes]:
            data = tar.extractfile(info)
            assert data is not None, "a regular member"
            return data

        yield _Member(info.name, kind, info.mode, info.size, opened)


@contextmanager
def _zip_members(archive: Path, budget: int, limits: UnpackLimits) -> Iterator[Iterator[_Member]]:
    try:
        with open(archive, "rb") as file:
            _count_zip_entries(file, limits.files)
            with zipfile.ZipFile(file) as opened:
                yield _zip_entries(opened)
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        NotImplementedError,
        OSError,  # bz2's errors among them
        EOFError,
        zlib.error,
        lzma.LZMAError,
        UnicodeDecodeError,  # a name flagged UTF-8 that is not
    ) as exc:
        raise ArchiveError(f"not a readable zip archive: {exc}") from None


def _count_zip_entries(file: BinaryIO, limit: int) -> None:
    """Refuse a zip of more than ``limit`` entries before ``zipfile`` reads its central directory,
    which builds every entry at once (a 31 MB archive can list 360,000 of them: 200 MB and
    seconds, all before the first would be refused). The count the end record declares is
    judged first, then the entries as ``zipfile`` will find them, counted up to the limit (the
    declared count may lie). Whatever is malformed is left for ``zipfile`` to say."""
    where = _central_directory(file)
    if where is None:
        return
    declared, start, size = where
    if declared > limit:
        raise ArchiveError(f"more than {limit} files and directories")
    position, entries = start, 0
    while position < start + size:
        file.seek(position)
        entry = file.read(_ENTRY.size)
        if len(entry) != _ENTRY.size or entry[:4] != _ENTRY_SIGNATURE:
            return
        entries += 1
        if entries > limit:
            raise ArchiveError(f"more than {limit} files and directories")
        _, name, extra, comment = _ENTRY.unpack(entry)
        position += _ENTRY.size + name + extra + comment


def _central_directory(file: BinaryIO) -> tuple[int, int, int] | None:
    """The entries a zip's end record declares, and where its central directory starts and how
    many bytes it has, found as ``zipfile`` finds them (``_EndRecData``, ``_RealGetContents``);
    None if there is no end record (``zipfile`` refuses the archive)."""
    size = file.seek(0, os.SEEK_END)
    if size < _END.size:
        return None
    file.seek(size - _END.size)
    record = file.read(_END.size)
    location = size - _END.size
    if not (record[:4] == _END_SIGNATURE and record[-2:] == b"\0\0"):  # else: a comment
        tail_start = max(size - _MAX_COMMENT - 1 - _END.size, 0)
        file.seek(tail_start)
        tail = file.read()
        found = tail.rfind(_END_SIGNATURE)
        record = tail[found : found + _END.size]
        if found < 0 or len(record) != _END.size:
            return None
        location = tail_start + found
    _, _, _, _, entries, directory_size, _, _ = _END.unpack(record)
    start = location - directory_size  # right before the end records, whatever the offset says
    if location >= _LOCATOR.size:
        file.seek(location - _LOCATOR.size)
        locator = _LOCATOR.unpack(file.read(_LOCATOR.size))
        if locator[0] == _LOCATOR_SIGNATURE:
            if location < _LOCATOR.size + _END64.size:
                return None
            file.seek(location - _LOCATOR.size - _END64.size)
            end64 = _END64.unpack(file.read(_END64.size))
            if end64[0] == _END64_SIGNATURE:
                entries, directory_size = end64[7], end64[8]
                start = location - _LOCATOR.size - _END64.size - directory_size
    return None if start < 0 else (entries, start, directory_size)


def _zip_entries(archive: zipfile.ZipFile) -> Iterator[_Member]:
    for info in archive.infolist():
        if info.flag_bits & 0x1:
            raise ArchiveError(f"{info.filename}: encrypted")
        # Unix permissions and file type, where the archive was made on Unix (3)
        mode = info.external_attr >> 16 if info.create_system == 3 else 0
        kind = _ZIP_KINDS.get(stat.S_IFMT(mode), "other")
        if info.is_dir() and kind == "file":
            kind = "dir"
        name = info.filename.removesuffix("/") if info.is_dir() else info.filename
        yield _Member(
            name or ".",
            kind,
            stat.S_IMODE(mode),
            info.file_size,
            partial(archive.open, info),
        )


_ZIP_KINDS = {
    0: "file",  # no type recorded
    stat.S_IFREG: "file",
    stat.S_IFDIR: "dir",
    stat.S_IFLNK: "link",
    stat.S_IFCHR: "device",
    stat.S_IFBLK: "device",
    stat.S_IFIFO: "fifo",
}
