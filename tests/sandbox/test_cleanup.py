"""Removing what a bot left behind, whatever it is: a tree deeper than any recursion, links
(never followed), directories made read-only; also a dead arena's temp root holding one."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
from pathlib import Path

import pytest

from arena import building
from arena.manifest import load_manifest
from arena.records import Outcome
from arena.sandbox import SandboxPolicy, cgroups, tempdirs
from tests.sandbox.conftest import PATIENT, assert_other_seat_unharmed, needs_bwrap, play


def deep_tree(top: Path, depth: int) -> Path:
    """``depth`` nested directories under ``top`` (no path of that length could be opened),
    the deepest read-only with a read-only file, a link out and a link loop on the way."""
    top.mkdir()
    (top / "out").symlink_to("/")
    (top / "loop").symlink_to("loop")
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(os.open("stuck", os.O_CREAT | os.O_WRONLY, 0o400, dir_fd=fd))
    os.fchmod(fd, 0o500)
    os.close(fd)
    return top


def test_a_tree_deeper_than_any_recursion_is_removed(tmp_path):
    tree = deep_tree(tmp_path / "tree", 3000)
    tempdirs.remove_tree(tree)
    assert not tree.exists()
    assert Path("/usr/bin").is_dir()  # the link out was not followed


def test_a_dead_arenas_root_with_a_deep_tree_is_removed_by_the_next(tmp_path):
    dead = tmp_path / "arena-run-4194304-1-abc"  # no process has that pid
    deep_tree(dead, 2500)
    assert tempdirs.remove_stale_roots(tmp_path) == [dead]
    assert not dead.exists()


def test_removing_what_is_gone_or_never_was_is_quiet(tmp_path):
    tempdirs.remove_tree(tmp_path / "nothing")


@needs_bwrap
async def test_an_unsandboxed_bots_deep_tree_in_the_match_directory_is_cleaned_up(tmp_path):
    # --sandbox none: the bot writes in the match's directory; the fixture checks that no
    # match directory is left once the game is over
    # patient: making 3,000 directories took the first decision past 1 s on a loaded machine
    record, log = await play(
        tmp_path, "deep-tree", policy=SandboxPolicy(tool="none"), time_control=PATIENT
    )
    assert "deep-tree: made" in log
    # what is tested is the clean-up (the fixture); the tree may still take the bot past its
    # clock where other work shares the cores (TIMEOUT in a CI run beside two ladders)
    assert record.seats[0].outcome in (Outcome.FINISHED, Outcome.TIMEOUT), record.seats[0]
    assert_other_seat_unharmed(record)


def _mounted_at(path: Path) -> bool:
    return any(
        line.split()[1] == str(path) for line in Path("/proc/self/mounts").read_text().splitlines()
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="only root mounts a build's tmpfs")
def test_a_dead_arenas_build_tmpfs_is_unmounted_and_removed_by_the_next(tmp_path):
    """A worker killed mid-build as root left its build's tmpfs mounted (its memory held until
    the machine restarts; outside review). The build's directory is in its arena's root now,
    and the next arena unmounts what a dead one left mounted there before removing it."""
    dead = tmp_path / "arena-run-4194304-1-abc"  # no process has that pid
    build = dead / "build-x"
    build.mkdir(parents=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "t", str(build)])
    if mounted.returncode != 0:
        pytest.skip("mount is not allowed here")
    (build / "bot").mkdir()
    (build / "bot" / "out.bin").write_bytes(b"x" * 1000)
    assert _mounted_at(build)
    assert tempdirs.remove_stale_roots(tmp_path) == [dead]
    assert not _mounted_at(build) and not dead.exists()


@needs_bwrap
def test_a_build_works_in_its_arenas_root(tmp_path, monkeypatch):
    made = []
    real = tempfile.mkdtemp

    def spy(*args, **kwargs):
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(building.tempfile, "mkdtemp", spy)
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.toml").write_text(
        'name = "b"\nversion = "1"\ncommand = ["sh", "run.sh"]\nbuild = ["sh", "build.sh"]\n'
        'games = ["oregon"]\n'
    )
    (bot / "build.sh").write_text("echo built > built.txt\n")
    os.chmod(tmp_path, 0o755)  # the sandbox reads the bot as another uid (as root)
    building.build_bot(load_manifest(bot), SandboxPolicy(tool="bwrap"))
    assert (bot / "built.txt").read_text() == "built\n"
    assert [Path(path).parent for path in made] == [tempdirs.arena_root()]


def test_what_a_dead_arena_left_in_a_bots_cgroup_is_killed_and_the_cgroup_removed():
    """A bot whose arena was killed in the moment its bwrap started outlived the arena (bwrap
    takes back the parent-death signal only after dropping its privileges), in its cgroup, and
    no later arena removed it: "still has processes: not ours to kill" (outside review). A dead
    arena's cgroups hold its bots alone: the next arena kills what is left in them."""
    found = cgroups.hierarchy()
    if found is None:
        pytest.skip("no cgroups this arena may make")
    name = "arena-run-4194304-1-seat0-left"  # no process has that pid: its arena is gone
    for parent in found.parents.values():
        (parent / name).mkdir()
    orphan = subprocess.Popen(["sleep", "600"])
    try:
        for parent in found.parents.values():
            (parent / name / "cgroup.procs").write_text(str(orphan.pid))
        live = tempdirs.arena_tag() + "-seat9-alive"  # this arena's: never touched
        for parent in found.parents.values():
            (parent / live).mkdir()

        # An arena killed by an earlier test (one that crashed, say) may have left its own
        ended = cgroups._end_stale(found)
        assert name in ended and live not in ended

        assert orphan.wait(timeout=10) == -signal.SIGKILL
        assert not any((parent / name).exists() for parent in found.parents.values())
        assert all((parent / live).is_dir() for parent in found.parents.values())
    finally:
        orphan.kill()
        orphan.wait()
        for parent in found.parents.values():
            for leftover in (name, live):
                with contextlib.suppress(OSError):
                    (parent / leftover).rmdir()
