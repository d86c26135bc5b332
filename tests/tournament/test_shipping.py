"""Bot directories packed for other machines and unpacked there (``arena tournament --ray``)."""

import fcntl
import hashlib
import os
import stat
import time
from pathlib import Path

import pytest

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


def _entry(cache: Path, name: str, size: int, unused_days: float, now: float) -> Path:
    """A cache entry of ``size`` bytes last used ``unused_days`` before ``now``."""
    entry = cache / hashlib.sha256(name.encode()).hexdigest()
    entry.mkdir(parents=True)
    (entry / "bot.py").write_bytes(b"x" * size)
    os.utime(entry, (now - unused_days * 86400,) * 2)
    return entry


def test_eviction_removes_what_is_unused_too_long_then_the_least_recent_beyond_the_budget(
    tmp_path: Path,
):
    now = time.time()
    cache = tmp_path / "cache"
    old = _entry(cache, "old", 10, unused_days=8, now=now)
    recent = _entry(cache, "recent", 600, unused_days=0.5, now=now)
    older = _entry(cache, "older", 600, unused_days=2, now=now)
    fresh = _entry(cache, "fresh", 100, unused_days=0, now=now)
    (cache / ".unpacking-dead").mkdir()  # an unpacking whose process died, a day ago
    os.utime(cache / ".unpacking-dead", (now - 86400,) * 2)
    (cache / ".unpacking-live").mkdir()  # one under way
    removed = shipping.evict(cache, max_unused_days=7, budget_bytes=1000, now=now)
    assert sorted(removed) == sorted([old.name, older.name])  # 100 + 600 fit, 600 more do not
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        [recent.name, fresh.name, ".unpacking-live", ".evicting"]
    )


def test_eviction_spares_an_entry_a_live_actor_holds_and_using_one_marks_it_used(tmp_path: Path):
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text("pass\n")
    archive = shipping.pack(bot)
    cache = tmp_path / "cache"
    entry, held = shipping.hold(archive, cache)
    later = time.time() + 30 * 86400
    assert shipping.evict(cache, budget_bytes=0, now=later) == []  # held: neither age nor size
    assert entry.is_dir()
    shipping.release(held)
    os.utime(entry, (0, 0))
    assert shipping.unpack(archive, cache) == entry
    assert entry.stat().st_mtime > time.time() - 60  # reused: touched
    assert shipping.evict(cache, budget_bytes=0, now=later) == [entry.name]
    assert not entry.exists()
    again, held = shipping.hold(archive, cache)  # evicted: unpacked afresh when needed
    assert again == entry and (entry / "bot.py").read_text() == "pass\n"
    shipping.release(held)


def test_an_entry_evicted_as_an_actor_takes_it_is_unpacked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The race ``hold`` guards against: an eviction between the actor's opening the entry and
    its lock. The actor finds the name no longer its entry once locked, and unpacks anew."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text("pass\n")
    archive = shipping.pack(bot)
    cache = tmp_path / "cache"
    shipping.unpack(archive, cache)
    real_flock = fcntl.flock
    evictions = []

    def evicted_first(fd: int, operation: int) -> None:
        if operation == fcntl.LOCK_SH and not evictions:
            monkeypatch.setattr(fcntl, "flock", real_flock)
            evictions.append(shipping.evict(cache, budget_bytes=0))
        real_flock(fd, operation)

    monkeypatch.setattr(fcntl, "flock", evicted_first)
    entry, held = shipping.hold(archive, cache)
    assert evictions == [[entry.name]]  # it was evicted under the actor's open entry
    assert (entry / "bot.py").read_text() == "pass\n"  # and is whole again
    assert shipping.evict(cache, budget_bytes=0) == []  # now held
    shipping.release(held)


def test_only_one_process_evicts_at_a_time(tmp_path: Path):
    cache = tmp_path / "cache"
    entry = _entry(cache, "old", 10, unused_days=30, now=time.time())
    lock = os.open(cache / ".evicting", os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another actor is evicting
        assert shipping.evict(cache) == [] and entry.is_dir()
    finally:
        os.close(lock)
    assert shipping.evict(cache) == [entry.name]
