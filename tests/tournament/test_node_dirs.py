"""The directories Ray actors keep in a node's shared temp directory (the shipped bots' cache, their
logs, the claims on cores) are this user's own or refused: a name in /tmp can be taken first by
anyone on the machine (``arena.tournament.node_dirs``)."""

import os
import stat
from pathlib import Path

import pytest

from arena.errors import SetupError
from arena.tournament import cpus, shipping
from arena.tournament.node_dirs import own_directory
from arena.tournament.ray_logs import NodeLogs

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory to another user")
NOBODY = 65534


def _archive(tmp_path: Path) -> bytes:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text("print('the real bot')\n")
    return shipping.pack(bot)


def test_a_new_directory_has_the_mode_asked_whatever_the_umask(tmp_path: Path):
    old = os.umask(0o077)
    try:
        made = own_directory(tmp_path / "cache", 0o755)
    finally:
        os.umask(old)
    assert stat.S_IMODE(made.stat().st_mode) == 0o755


def test_a_link_in_its_place_is_refused_and_not_followed(tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "cache").symlink_to(elsewhere)
    with pytest.raises(SetupError, match="is a link: remove it, or set TMPDIR"):
        shipping.unpack(_archive(tmp_path), tmp_path / "cache")
    assert list(elsewhere.iterdir()) == []


def test_a_directory_others_may_write_is_refused(tmp_path: Path):
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o777)
    with pytest.raises(SetupError, match=r"writable by others \(mode 777\)"):
        shipping.unpack(_archive(tmp_path), cache)
    with pytest.raises(SetupError, match="writable by others"):
        NodeLogs(1 << 20, "node", root=cache)


@as_root
def test_another_users_cache_never_hands_out_its_bot(tmp_path: Path):
    # Another user made the cache first and put a bot of their own under the archive's digest.
    archive = _archive(tmp_path)
    cache = tmp_path / "cache"
    planted = cache / shipping.digest(archive)
    planted.mkdir(parents=True)
    (planted / "bot.py").write_text("print('someone else's bot')\n")
    os.chown(cache, NOBODY, NOBODY)
    with pytest.raises(SetupError, match=f"owned by user id {NOBODY}, not this user"):
        shipping.unpack(archive, cache)
    with pytest.raises(SetupError, match="owned by user id"):
        shipping.evict(cache)
    assert (planted / "bot.py").exists()  # left alone


@as_root
def test_another_users_logs_or_claims_directory_is_not_used(tmp_path: Path, monkeypatch):
    for name in ("logs", "claims"):
        (tmp_path / name).mkdir(mode=0o700)
        os.chown(tmp_path / name, NOBODY, NOBODY)
    with pytest.raises(SetupError, match="owned by user id"):
        NodeLogs(1 << 20, "node", root=tmp_path / "logs")
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setattr(cpus, "CLAIMS_NAME", "claims")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    assert cpus.claimed_core() == (None, None)  # the actor plays, unpinned
    assert list((tmp_path / "claims").iterdir()) == []
