"""Bot directories packed for other machines and unpacked there (``arena tournament --ray``)."""

import os
import stat
from pathlib import Path

from arena.tournament import shipping
from tests.tournament.helpers import SAMPLE_BOTS


def _tree(root: Path) -> dict[str, tuple[bytes, bool]]:
    """Each file under ``root``: its content and whether it is executable."""
    return {
        str(path.relative_to(root)): (path.read_bytes(), os.access(path, os.X_OK))
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def test_a_bot_directory_unpacks_as_it_was_with_its_modes(tmp_path: Path):
    bot = tmp_path / "bot"
    (bot / "lib").mkdir(parents=True)
    (bot / "bot.toml").write_text('name = "b"\n')
    (bot / "lib" / "run.sh").write_text("#!/bin/sh\n")
    (bot / "lib" / "run.sh").chmod(0o755)
    (bot / "__pycache__").mkdir()
    (bot / "__pycache__" / "x.pyc").write_bytes(b"\0")
    unpacked = shipping.unpack(shipping.pack(bot), tmp_path / "cache")
    assert _tree(unpacked) == {
        "bot.toml": (b'name = "b"\n', False),
        "lib/run.sh": (b"#!/bin/sh\n", True),
    }
    assert stat.S_IMODE(unpacked.stat().st_mode) == 0o755  # a sandboxed bot's user reads it


def test_the_same_content_is_the_same_archive_and_is_unpacked_once(tmp_path: Path):
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text("pass\n")
    first = shipping.pack(bot)
    os.utime(bot / "bot.py", (0, 0))  # another checkout of the same files
    assert shipping.pack(bot) == first
    cache = tmp_path / "cache"
    where = shipping.unpack(first, cache)
    (where / "marker").write_text("")  # a second unpack reuses the directory
    assert shipping.unpack(first, cache) == where and (where / "marker").exists()
    assert where.name == shipping.digest(first)


def test_links_are_followed_inside_the_bot_and_into_the_sdk_only(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the operator's own file")
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "real.py").write_text("pass\n")
    (bot / "alias.py").symlink_to("real.py")
    (bot / "leak.txt").symlink_to(secret)
    (bot / "sdk").symlink_to(SAMPLE_BOTS.parent / "sdk" / "python" / "src" / "arena_sdk")
    files = _tree(shipping.unpack(shipping.pack(bot), tmp_path / "cache"))
    assert files["alias.py"] == files["real.py"]
    assert "leak.txt" not in files
    assert "sdk/__init__.py" in files
