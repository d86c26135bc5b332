"""What ``arena submit --to`` packs (``arena.uploads.pack``): the bot's files less what its
``.arenaignore`` (else its ``.gitignore``) ignores, such as build outputs the hosted arena
makes again; ``bot.toml`` always; and an upload too large says what is largest and what to do."""

from __future__ import annotations

import os
import random
import re
import tarfile
import tracemalloc
from io import BytesIO
from pathlib import Path

import pytest

from arena.errors import InputError
from arena.new_bot import new_bot
from arena.uploads.pack import pack_directory
from arena.uploads.unpack import UnpackLimits

MIB = 1 << 20


def names_in(archive: bytes) -> list[str]:
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        return tar.getnames()


def a_bot(directory: Path, **files: str | bytes) -> Path:
    directory.mkdir()
    (directory / "bot.toml").write_text(
        'name = "b"\nversion = "1"\ncommand = ["./bot"]\nbuild = ["sh", "build.sh"]\n'
        'games = ["oregon"]\n'
    )
    for name, content in files.items():
        path = directory / name.replace("__", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content)
        else:
            path.write_bytes(content)
    return directory


def test_a_built_go_starter_is_packed_without_its_build_outputs(tmp_path: Path):
    directory = tmp_path / "go-bot"
    new_bot("go-bot", "go", directory, fixtures=False)
    source = sorted(path.relative_to(directory).as_posix() for path in directory.rglob("*"))
    (directory / "bot").write_bytes(b"\x7fELF" + bytes(1000))  # what build.sh makes
    (directory / "gen" / "src").mkdir(parents=True)
    (directory / "gen" / "src" / "bot.pb.go").write_text("package v1\n")

    packed = pack_directory(directory)

    assert packed.ignore_file == ".gitignore"  # the starter's own
    assert packed.left_out == ("bot", "gen/src/bot.pb.go")
    files = [name for name in source if (directory / name).is_file()]
    assert names_in(packed.archive) == files and packed.files == len(files)


def test_arenaignore_decides_over_gitignore_and_bot_toml_is_always_packed(tmp_path: Path):
    directory = a_bot(
        tmp_path / "b",
        **{
            ".gitignore": "weights.bin\n",
            ".arenaignore": "# build outputs\n/bot\n*.o\n!keep.o\nbot.toml\n",
            "bot": b"binary",
            "a.o": b"o",
            "keep.o": b"o",
            "sub__bot": b"not the top one",
            "weights.bin": b"needed at run time",
            "build.sh": "true\n",
        },
    )
    packed = pack_directory(directory)
    assert packed.ignore_file == ".arenaignore"
    assert packed.left_out == ("a.o", "bot")
    assert names_in(packed.archive) == [
        ".arenaignore",
        ".gitignore",
        "bot.toml",
        "build.sh",
        "keep.o",
        "sub/bot",
        "weights.bin",
    ]


def test_without_an_ignore_file_everything_is_packed(tmp_path: Path):
    directory = a_bot(tmp_path / "b", bot=b"binary", **{"build.sh": "true\n"})
    packed = pack_directory(directory)
    assert (packed.ignore_file, packed.left_out) == (None, ())
    assert names_in(packed.archive) == ["bot", "bot.toml", "build.sh"]


def test_too_large_says_what_is_largest_and_where_to_leave_it_out(tmp_path: Path):
    noise = random.Random(1).randbytes(2 * MIB)  # gzip cannot shrink it
    directory = a_bot(
        tmp_path / "b",
        **{"target__release__bot": noise + b"1", "target__debug__bot": noise + b"2"},
        **{"build.sh": "true\n"},
    )
    with pytest.raises(InputError) as caught:
        pack_directory(directory, UnpackLimits(archive_bytes=MIB))
    said = str(caught.value)
    assert "more than the 1 MiB an upload may have (largest: target/ 4 MiB" in said
    # the small ones in their own unit, not "0 MiB" (outside review)
    assert re.search(r"target/ 4 MiB, [\w.]+ \d+ bytes, [\w.]+ \d+ bytes\)", said), said
    assert f"list build outputs and data in {directory / '.arenaignore'}" in said
    assert "\n" not in said

    (directory / ".arenaignore").write_text("target/\n")
    assert names_in(pack_directory(directory, UnpackLimits(archive_bytes=MIB)).archive) == [
        ".arenaignore",
        "bot.toml",
        "build.sh",
    ]


def test_a_file_past_the_limit_is_refused_before_it_is_all_in_memory(tmp_path: Path):
    """The whole archive was compressed in memory before its size was checked: a 300 MB file
    took 424 MB to be refused at 32 MiB (outside review)."""
    directory = a_bot(tmp_path / "b")
    with (directory / "data.bin").open("wb") as data:
        for _ in range(64):  # 64 MiB that gzip cannot shrink
            data.write(os.urandom(MIB))
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match="packs to more than the 1 MiB"):
            pack_directory(directory, UnpackLimits(archive_bytes=MIB))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MIB  # stopped as it passed the limit, not at 64 MiB and more


def test_an_ignore_file_it_cannot_parse_is_one_line(tmp_path: Path):
    directory = a_bot(tmp_path / "b", **{".arenaignore": "gen/\n!\n"})
    with pytest.raises(InputError, match=r"\.arenaignore: Invalid git pattern: '!'$"):
        pack_directory(directory)
