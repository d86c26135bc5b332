"""The disk watch's measure and trigger (arena.sandbox.disk), without a sandbox."""

from __future__ import annotations

import threading

from arena.sandbox import disk


def test_disk_use_counts_allocated_bytes_and_entries_without_following_links(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "data").write_bytes(b"x" * (1 << 20))
    with open(tmp_path / "sparse", "wb") as sparse:  # 1 GiB long, nothing allocated
        sparse.truncate(1 << 30)
    (tmp_path / "loop").symlink_to(tmp_path)

    used, entries = disk.disk_use(tmp_path)

    assert 1 << 20 <= used < 2 << 20  # the real megabyte, not the sparse gigabyte
    assert entries == 4  # sub, sub/data, sparse, loop (not walked)


def test_the_count_stops_past_its_cap(tmp_path):
    for number in range(30):
        (tmp_path / str(number)).touch()
    assert disk.disk_use(tmp_path, max_entries=10)[1] == 11


def test_the_watch_kills_once_over_budget_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setattr(disk, "POLL_SECONDS", 0.01)
    killed = threading.Event()
    watch = disk.DiskWatch(tmp_path, killed.set, budget_mib=1)
    try:
        assert not killed.wait(0.1) and watch.limit_hit() == ""
        (tmp_path / "fill").write_bytes(b"x" * (2 << 20))
        assert killed.wait(5)
        assert "kept 2 MiB in its writable directory, over the 1 MiB" in watch.limit_hit()
    finally:
        watch.stop()


def test_too_many_files_count_as_over_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(disk, "POLL_SECONDS", 0.01)
    monkeypatch.setattr(disk, "MAX_ENTRIES", 20)
    for number in range(25):
        (tmp_path / str(number)).touch()
    killed = threading.Event()
    watch = disk.DiskWatch(tmp_path, killed.set, budget_mib=1)
    try:
        assert killed.wait(5)
        assert "over 20 files" in watch.limit_hit()
    finally:
        watch.stop()
