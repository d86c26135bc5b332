"""Unpacking a stranger's archive: every hostile archive is built here and refused with one line,
leaving no directory behind; a bomb is refused while it streams."""

from __future__ import annotations

import gzip
import io
import stat
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.uploads.pack import pack
from arena.uploads.unpack import DEFAULT_LIMITS, ArchiveError, UnpackLimits, check, unpack
from tests.support.bots import SAMPLE_BOTS

Member = tuple[str, bytes | None, Callable[[tarfile.TarInfo], None]]


def tar_gz(tmp_path: Path, *members: tarfile.TarInfo | tuple[str, bytes]) -> Path:
    """A tar.gz of ``members``: (name, content) for a plain file, or a TarInfo as given."""
    buffer = io.BytesIO()
    with gzip.GzipFile(fileobj=buffer, mode="wb") as compressed:
        with tarfile.open(fileobj=compressed, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for member in members:
                if isinstance(member, tarfile.TarInfo):
                    tar.addfile(member)
                else:
                    info = tarfile.TarInfo(member[0])
                    info.size = len(member[1])
                    tar.addfile(info, io.BytesIO(member[1]))
    path = tmp_path / "upload.tar.gz"
    path.write_bytes(buffer.getvalue())
    return path


def tar_info(name: str, kind: bytes = tarfile.REGTYPE, **fields) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    for key, value in fields.items():
        setattr(info, key, value)
    return info


def zip_file(tmp_path: Path, *members: tuple[str, bytes] | zipfile.ZipInfo) -> Path:
    path = tmp_path / "upload.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member in members:
            if isinstance(member, zipfile.ZipInfo):
                archive.writestr(member, b"target")
            else:
                archive.writestr(*member)
    return path


def zip_info(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def refused(archive: Path, tmp_path: Path, match: str, limits: UnpackLimits = DEFAULT_LIMITS):
    with pytest.raises(ArchiveError, match=match):
        check(archive, limits)  # what the web runs, writing nothing
    target = tmp_path / "bot"
    with pytest.raises(ArchiveError, match=match) as caught:
        unpack(archive, target, limits)
    assert "\n" not in str(caught.value)
    assert not target.exists()  # nothing half written


def test_a_packed_sample_bot_unpacks_to_its_files(tmp_path: Path):
    source = SAMPLE_BOTS / "random-python"
    archive = tmp_path / "bot.tar.gz"
    archive.write_bytes(pack(source))
    assert check(archive) == unpack(archive, tmp_path / "bot")
    unpacked = check(archive)
    names = sorted(p.name for p in source.iterdir())
    assert sorted(p.name for p in (tmp_path / "bot").iterdir()) == names
    assert unpacked.files == len(names)
    for name in names:
        assert (tmp_path / "bot" / name).read_bytes() == (source / name).read_bytes()
        assert stat.S_IMODE((tmp_path / "bot" / name).stat().st_mode) == 0o644
    assert pack(source) == archive.read_bytes()  # the same files, the same bytes


def test_tar_directories_modes_and_the_root_entry(tmp_path: Path):
    archive = tar_gz(
        tmp_path,
        tar_info(".", tarfile.DIRTYPE, mode=0o755),
        ("src/deep/main.py", b"print(1)"),
        tar_info("src", tarfile.DIRTYPE, mode=0o700),  # after its file: already implied
        tar_info("run.sh", size=0, mode=0o700),
    )
    unpack(archive, tmp_path / "bot")
    assert (tmp_path / "bot/src/deep/main.py").read_bytes() == b"print(1)"
    assert stat.S_IMODE((tmp_path / "bot/run.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((tmp_path / "bot/src").stat().st_mode) == 0o755


def test_zip_with_nested_names(tmp_path: Path):
    archive = zip_file(tmp_path, ("bot.toml", b"x"), ("lib/a.py", b"a"), ("lib/", b""))
    assert unpack(archive, tmp_path / "bot").files == 3
    assert (tmp_path / "bot/lib/a.py").read_bytes() == b"a"


@pytest.mark.parametrize(
    "member, match",
    [
        (("/etc/cron.d/x", b"x"), "an absolute path"),
        (("../outside", b"x"), r"a path with '\.\.'"),
        (("a/../../outside", b"x"), r"a path with '\.\.'"),
        (("a\\..\\b", b"x"), "backslash"),
        (("new\nline", b"x"), "control character"),
        (tar_info("link", tarfile.SYMTYPE, linkname="/etc/passwd"), "a link"),
        (tar_info("inside", tarfile.SYMTYPE, linkname="bot.toml"), "a link"),
        (tar_info("hard", tarfile.LNKTYPE, linkname="bot.toml"), "a link"),
        (tar_info("tty", tarfile.CHRTYPE, devmajor=4, devminor=1), "a device"),
        (tar_info("disk", tarfile.BLKTYPE, devmajor=8, devminor=0), "a device"),
        (tar_info("pipe", tarfile.FIFOTYPE), "a fifo"),
        (tar_info("suid", mode=0o4755), "set-user-ID"),
        (tar_info("sgid", tarfile.DIRTYPE, mode=0o2755), "set-user-ID"),
        (tar_info("odd", b"Z"), "a other"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_a_hostile_tar_member_is_refused(tmp_path: Path, member, match: str):
    refused(tar_gz(tmp_path, ("bot.toml", b"x"), member), tmp_path, match)


@pytest.mark.parametrize(
    "members, match",
    [
        ([("a", b"1"), ("a", b"2")], "twice"),
        ([("a", b"1"), tar_info("a", tarfile.DIRTYPE)], "twice"),
        ([("a", b"1"), ("./a", b"2")], "twice"),
        ([("a", b"1"), ("a/b", b"2")], "a is a file"),
        ([tar_info("a", tarfile.DIRTYPE), tar_info("a", tarfile.DIRTYPE)], "twice"),
    ],
)
def test_duplicate_names_are_refused(tmp_path: Path, members, match: str):
    refused(tar_gz(tmp_path, *members), tmp_path, match)


@pytest.mark.parametrize(
    "member, match",
    [
        (("/abs", b"x"), "an absolute path"),
        (("../up", b"x"), r"'\.\.'"),
        (zip_info("link", stat.S_IFLNK | 0o777), "a link"),
        (zip_info("pipe", stat.S_IFIFO | 0o644), "a fifo"),
        (zip_info("suid", stat.S_IFREG | 0o4755), "set-user-ID"),
    ],
    ids=["absolute", "dotdot", "link", "fifo", "setuid"],
)
def test_a_hostile_zip_member_is_refused(tmp_path: Path, member, match: str):
    refused(zip_file(tmp_path, ("bot.toml", b"x"), member), tmp_path, match)


@pytest.mark.parametrize(
    "name, match",
    [
        ("x" * 256, "a name longer than 255 bytes"),  # the worker failed on it: errno 36
        ("é" * 128, "a name longer than 255 bytes"),  # 256 bytes in UTF-8
        ("/".join(["d" * 200] * 6), "a path longer than 1024 bytes"),
        ("\u202egnp.exe", "a control character"),  # shown as "exe.png"
        ("zero\u200bwidth", "a control character"),
    ],
    ids=["long-name", "long-utf8", "long-path", "rtl-override", "zero-width"],
)
def test_a_name_the_checks_pass_is_one_the_worker_can_write(tmp_path: Path, name, match):
    """The web's check accepted names that unpacking then failed on (outside review)."""
    refused(tar_gz(tmp_path, ("bot.toml", b"x"), (name, b"x")), tmp_path, match)
    refused(zip_file(tmp_path, ("bot.toml", b"x"), (name, b"x")), tmp_path, match)


def test_a_zip_with_a_name_twice_is_refused(tmp_path: Path):
    path = tmp_path / "upload.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a", b"1")
        with pytest.warns(UserWarning, match="Duplicate name"):
            archive.writestr("a", b"2")
    refused(path, tmp_path, "twice")


def test_an_encrypted_zip_member_is_refused(tmp_path: Path):
    data = bytearray(zip_file(tmp_path, ("secret", b"x")).read_bytes())
    central = data.index(b"PK\x01\x02")  # the central directory's entry: its flags at +8
    data[central + 8] |= 0x1
    (tmp_path / "upload.zip").write_bytes(data)
    refused(tmp_path / "upload.zip", tmp_path, "encrypted")


SMALL = UnpackLimits(
    archive_bytes=1 << 20,
    total_bytes=8 << 20,
    files=20,
    file_bytes=2 << 20,
    ratio=10,
    ratio_free_bytes=256 << 10,
)


def test_a_gzip_bomb_is_refused_once_it_outgrows_the_archive(tmp_path: Path):
    # 6 files of 1 MiB zeros: each within the file limit, all within the total, but the
    # archive is a few KiB: at most 10 times it (past the free 256 KiB) may come out
    archive = tar_gz(tmp_path, *[(f"zeros{i}", bytes(1 << 20)) for i in range(6)])
    assert archive.stat().st_size < 64 << 10
    refused(archive, tmp_path, "compression bomb", SMALL)
    refused(
        zip_file(tmp_path, *[(f"z{i}", bytes(1 << 20)) for i in range(6)]),
        tmp_path,
        "compression bomb",
        SMALL,
    )


def test_a_bomb_in_tar_headers_is_stopped_while_streaming(tmp_path: Path):
    """A pax header that declares 64 MiB: tarfile would read it whole into memory; the
    decompressed stream stops at the budget first."""
    body = b"%d comment=" % (64 << 20) + bytes((64 << 20) - 30)
    header = tar_info("././@PaxHeader", tarfile.XHDTYPE, size=len(body)).tobuf(tarfile.USTAR_FORMAT)
    path = tmp_path / "upload.tar.gz"
    path.write_bytes(gzip.compress(header + body, compresslevel=1))
    refused(path, tmp_path, "compression bomb", SMALL)


def test_a_file_over_its_limit_is_refused_by_its_header(tmp_path: Path):
    big = tar_info("big", size=1 << 40)  # declares a TiB; nothing after it
    path = tmp_path / "upload.tar.gz"
    path.write_bytes(gzip.compress(big.tobuf(tarfile.PAX_FORMAT)))
    refused(path, tmp_path, "more than the 2097152 a file may have", SMALL)
    refused(zip_file(tmp_path, ("big", bytes(3 << 20))), tmp_path, "a file may have", SMALL)


def test_too_many_files_or_bytes(tmp_path: Path):
    refused(tar_gz(tmp_path, *[(f"f{i}", b"") for i in range(21)]), tmp_path, "more than 20", SMALL)
    noise = [
        (f"r{i}", bytes(range(256)) * 8192) for i in range(5)
    ]  # 2 MiB each, incompressible-ish
    limits = UnpackLimits(total_bytes=8 << 20, ratio=10_000)
    refused(tar_gz(tmp_path, *noise), tmp_path, "bytes an upload may", limits)


def test_the_archive_itself_too_large_wrong_or_broken(tmp_path: Path):
    archive = tar_gz(tmp_path, ("a", b"x" * 100))
    refused(archive, tmp_path, "more than the 10", UnpackLimits(archive_bytes=10))
    text = tmp_path / "notes.txt"
    text.write_text("just text")
    refused(text, tmp_path, "neither a tar.gz nor a zip")
    truncated = tmp_path / "cut.tar.gz"
    truncated.write_bytes(archive.read_bytes()[:40])
    refused(truncated, tmp_path, "not a readable tar.gz")
    broken_zip = tmp_path / "cut.zip"
    broken_zip.write_bytes(zip_file(tmp_path, ("a", b"x" * 100)).read_bytes()[:60])
    refused(broken_zip, tmp_path, "not a readable zip")


def test_the_destination_must_be_new(tmp_path: Path):
    (tmp_path / "bot").mkdir()
    with pytest.raises(FileExistsError):
        unpack(tar_gz(tmp_path, ("a", b"x")), tmp_path / "bot")
