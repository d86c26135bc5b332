"""Uploads an outside tester found a 500 in, or accepted though no bot could come of them, or
read at great cost before refusing: a zip whose LZMA (or deflate, bzip2) data is corrupt, an
upload's id past what SQLite stores, an archive with no members or no bot.toml, and a zip whose
central directory lists far more entries than an upload may have. Over real HTTP (uvicorn) where
the web is the point, ``check`` itself where the cost is."""

from __future__ import annotations

import gzip
import io
import random
import struct
import tarfile
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from arena.uploads.unpack import DEFAULT_LIMITS, ArchiveError, UnpackLimits, check
from tests.hosting.test_unpack import SMALL, tar_gz, zip_file
from tests.hosting.test_upload_api import Arena, Served, bot_dir, call, upload_url
from tests.hosting.test_web_sign_in import signed_in

METHODS = [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]


def corrupt_zip(method: int) -> bytes:
    """A zip of a bot.toml and a bot.py of incompressible text, compressed with ``method``, with
    bytes in the middle of bot.py's compressed data flipped."""
    words = random.Random(7)
    text = " ".join(f"{words.getrandbits(64):x}" for _ in range(2000)).encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        archive.writestr("bot.toml", b'name = "a-bot"\n')
        archive.writestr("bot.py", text)
        info = archive.getinfo("bot.py")
    data = bytearray(buffer.getvalue())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    middle = start + info.compress_size // 2
    for index in range(middle, middle + 64):
        data[index] ^= 0xA5
    return bytes(data)


@pytest.mark.parametrize("method", METHODS, ids=["deflate", "bzip2", "lzma"])
def test_a_corrupt_zip_is_unreadable_through_the_api(arena: Arena, web: Served, method: int):
    status, answer, _ = call(upload_url(web), arena.tokens["alice"], corrupt_zip(method))
    assert status == 400 and answer["error"].startswith("not a readable zip archive: ")
    arena.nothing_written()


def test_a_corrupt_lzma_zip_is_unreadable_through_the_form(arena: Arena, web: Served):
    bob = signed_in(web, arena, "bob")
    fields = {"csrf": bob.form_csrf("/me"), "bot": "a-bot"}
    status, html, _ = bob.upload(fields, corrupt_zip(zipfile.ZIP_LZMA))
    assert status == 400 and "not a readable zip archive" in html
    arena.nothing_written()


def test_a_zip_name_flagged_utf8_that_is_not_is_unreadable(tmp_path: Path):
    path = zip_file(tmp_path, ("bot.toml", b"x"), ("caf\u00e9.py", b"x"))
    data = path.read_bytes()
    path.write_bytes(data.replace("caf\u00e9".encode(), b"caf\xff\xff"))  # flagged UTF-8
    with pytest.raises(ArchiveError, match="not a readable zip archive"):
        check(path)


@pytest.mark.parametrize("wanted", [str(2**63), str(2**64), "9" * 100])
def test_an_upload_id_past_what_sqlite_stores_is_not_found(arena: Arena, web: Served, wanted: str):
    alice = signed_in(web, arena, "alice")
    status, html, _ = alice.get(f"/me/submissions/{wanted}")
    # over 19 digits the id matches no route (``app._Id``): 404 all the same
    assert status == 404 and ("you have no upload" in html or "no page at" in html)
    if isinstance(arena.db, Path):  # SQLite's largest id: none (PostgreSQL's ids are 32-bit)
        assert alice.get(f"/me/submissions/{2**63 - 1}")[0] == 404


def zeros_tar_gz(tmp_path: Path, mebibytes: int) -> Path:
    """A gzip of ``mebibytes`` MiB of zeros: a tar with no member at all (its first block is
    the end-of-archive marker) that is a bomb if read to its end."""
    path = tmp_path / "zeros.tar.gz"
    with gzip.GzipFile(path, "wb", compresslevel=6) as out:
        block = bytes(1 << 20)
        for _ in range(mebibytes):
            out.write(block)
    return path


def test_an_archive_of_zeros_is_refused_as_empty_without_reading_it(tmp_path: Path):
    # 100 MiB of zeros in ~100 KiB: read to the end it would be a compression bomb (past 100
    # times its size); the tar stream ends at its first block, so what is said is "empty"
    archive = zeros_tar_gz(tmp_path, 100)
    with pytest.raises(ArchiveError, match="the archive is empty") as refused:
        check(archive)
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    "members, message",
    [
        ([("bot.py", b"")], "no bot.toml at the archive's top"),
        ([("a/bot.toml", b"x"), ("b/bot.py", b"")], "no bot.toml at the archive's top"),
        ([("a/b/bot.toml", b"x")], "no bot.toml at the archive's top"),
        ([tarfile.TarInfo("bot.toml")], None),  # a file of no bytes: the worker says why
        ([("bot.toml", b"x"), ("bot.py", b"")], None),
        ([("bot/bot.toml", b"x"), ("bot/bot.py", b"")], None),  # the bot's folder
    ],
)
def test_an_archive_with_no_bot_toml_is_refused(tmp_path: Path, members, message):
    for archive in (tar_gz(tmp_path, *members), zip_of(tmp_path, members)):
        if message is None:
            check(archive)
        else:
            with pytest.raises(ArchiveError, match=message):
                check(archive)


def zip_of(tmp_path: Path, members: list) -> Path:
    named = [(m.name, b"") if isinstance(m, tarfile.TarInfo) else m for m in members]
    return zip_file(tmp_path, *named)


def test_an_empty_or_botless_archive_is_refused_at_upload(
    arena: Arena, web: Served, tmp_path: Path
):
    token = arena.tokens["alice"]
    status, answer, _ = call(upload_url(web), token, zeros_tar_gz(tmp_path, 20).read_bytes())
    assert status == 400 and answer["error"].startswith("the archive is empty")
    status, answer, _ = call(upload_url(web), token, tar_gz(tmp_path, ("bot.py", b"")).read_bytes())
    assert status == 400 and "no bot.toml at the archive's top" in answer["error"]
    arena.nothing_written()
    bot = bot_dir(tmp_path, "a-bot")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        tar.add(bot, arcname="a-bot")  # its folder: the worker finds bot.toml in it
    assert call(upload_url(web), token, buffer.getvalue())[0] == 202


def listing_zip(entries: int, declared: int | None = None, zip64: bool = False) -> bytes:
    """A zip whose central directory lists ``entries`` empty files (with one local header: a
    reader that lists them reads the directory alone), its end record declaring ``declared``
    of them (``entries`` unless told), or with ``zip64`` a ZIP64 end record that does (the
    classic one saying 0xFFFF, as for more than it can hold)."""
    declared = entries if declared is None else declared
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0, 0, 0, 0, 10, 0) + bytes(10)
    entry = struct.Struct("<4s6H3L5H2L")
    central = b"".join(
        entry.pack(b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0)
        + b"%010d" % number
        for number in range(entries)
    )
    end = b""
    if zip64:
        record = struct.pack(
            "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, declared, declared,
            len(central), len(local),
        )  # fmt: skip
        locator = struct.pack("<4sLQL", b"PK\x06\x07", 0, len(local) + len(central), 1)
        end, declared = record + locator, 0xFFFF
    last = struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, min(declared, 0xFFFF), min(declared, 0xFFFF),
        len(central), len(local), 0,
    )  # fmt: skip
    return local + central + end + last


def peak_bytes_of_check(archive: Path, message: str) -> int:
    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match=message):
            check(archive)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "declared, zip64",
    [(None, False), (1, False), (None, True), (1, True)],
    ids=["declared", "lying", "zip64", "zip64-lying"],
)
def test_a_zip_listing_too_many_entries_is_refused_before_they_are_read(
    tmp_path: Path, declared: int | None, zip64: bool
):
    """362,000 entries in 18 MB (zipfile builds them all before the first member: ~170 MB);
    counted from the end records and the directory's headers, at most 10,001 of them."""
    archive = tmp_path / "many.zip"
    archive.write_bytes(listing_zip(362_000, declared, zip64))
    limit = f"more than {DEFAULT_LIMITS.files} files and directories"
    assert peak_bytes_of_check(archive, limit) < 8 << 20


def test_a_zip_within_the_count_is_read(tmp_path: Path):
    files = [(f"f{number}", b"x") for number in range(19)]
    assert check(zip_file(tmp_path, ("bot.toml", b"x"), *files), SMALL).files == 20
    with pytest.raises(ArchiveError, match="more than 20 files and directories"):
        check(zip_file(tmp_path, ("bot.toml", b"x"), ("f19", b"x"), *files), SMALL)


def test_a_zip_with_a_comment_or_in_zip64_is_still_read(tmp_path: Path, monkeypatch):
    path = tmp_path / "commented.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("bot.toml", b"x")
        archive.comment = b"a comment after the end record" + bytes(1000)
    assert check(path).files == 1
    monkeypatch.setattr(zipfile, "ZIP_FILECOUNT_LIMIT", 0)  # as past 65,535 entries: ZIP64
    with zipfile.ZipFile(path, "w") as archive:
        for number in range(3):
            archive.writestr(f"f{number}", b"x")
        archive.writestr("bot.toml", b"x")
    data = bytearray(path.read_bytes())
    assert b"PK\x06\x06" in data
    data[-14:-10] = b"\xff\xff\xff\xff"  # the classic record's counts: "see the ZIP64 one"
    path.write_bytes(data)
    assert check(path).files == 4
    with pytest.raises(ArchiveError, match="more than 3 files"):
        check(path, UnpackLimits(files=3))
