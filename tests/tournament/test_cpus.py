"""Worker processes (``--workers``) each keep, with the bots they start, to a share of the
machine's cores (``arena.tournament.cpus``), unless ``--no-pin-cpus``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.tournament import cpus
from tests.support.bots import SAMPLE_BOTS, TEST_BOTS

runner = CliRunner()


def test_shares_are_contiguous_blocks_as_even_as_can_be():
    assert cpus.shares(2, [0, 1]) == [{0}, {1}]
    assert cpus.shares(2, [0, 1, 2, 3]) == [{0, 1}, {2, 3}]
    assert cpus.shares(2, [0, 1, 2]) == [{0}, {1, 2}]
    assert cpus.shares(1, [0, 1, 2]) == [{0, 1, 2}]
    assert cpus.shares(3, [4, 6, 8, 10, 12, 14]) == [{4, 6}, {8, 10}, {12, 14}]


def test_more_workers_than_cores_take_one_core_each_in_turn():
    assert cpus.shares(5, [0, 1]) == [{0}, {1}, {0}, {1}, {0}]


def test_nothing_to_share_is_an_error():
    with pytest.raises(ValueError):
        cpus.shares(2, [])
    with pytest.raises(ValueError):
        cpus.shares(0, [0, 1])


def _topology(sysfs: Path, cpu: int, package: int, core: int) -> None:
    directory = sysfs / f"cpu{cpu}" / "topology"
    directory.mkdir(parents=True)
    (directory / "physical_package_id").write_text(f"{package}\n")
    (directory / "core_id").write_text(f"{core}\n")


def test_the_hyperthreads_of_one_core_stay_in_one_share(tmp_path: Path):
    # Linux numbers the second hyperthread of each core after all the first ones: 0-3, then 4-7.
    for cpu in range(8):
        _topology(tmp_path, cpu, package=0, core=cpu % 4)
    ordered = cpus.by_core(set(range(8)), tmp_path)
    assert ordered == [0, 4, 1, 5, 2, 6, 3, 7]
    assert cpus.shares(2, ordered) == [{0, 4, 1, 5}, {2, 6, 3, 7}]


def test_cores_are_taken_in_number_order_where_the_topology_cannot_be_read(tmp_path: Path):
    _topology(tmp_path, 0, package=0, core=1)  # cpu1's files are missing
    assert cpus.by_core({1, 0}, tmp_path) == [0, 1]


def test_unpinned_workers_go_where_the_scheduler_puts_them():
    assert cpus.worker_shares(3, pin=False) == [None, None, None]


def test_one_core_is_not_shared(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {5})
    assert cpus.worker_shares(2) == [None, None]


def _cores_of_chatty_processes(logs: Path) -> list[set[int]]:
    found = []
    for path in sorted(logs.glob("*chatty*.log")):
        match = re.search(r"^chatty up on cores ([\d,]+)$", path.read_text(), re.M)
        assert match, path.read_text()
        found.append({int(core) for core in match.group(1).split(",")})
    return found


def _tournament(tmp_path: Path, *extra: str) -> list[set[int]]:
    logs = tmp_path / "logs"
    arguments = ["tournament", "--game", "oregon", "--name", "t"]
    arguments += ["--db", str(tmp_path / "arena.db"), "--bot-logs", str(logs)]
    arguments += ["--bots", f"{TEST_BOTS / 'chatty'},{SAMPLE_BOTS / 'random-python'}"]
    arguments += ["--deals", "2", "--concurrency", "2", "--workers", "2", *extra]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    return _cores_of_chatty_processes(logs)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to share")
def test_each_workers_bots_run_on_its_own_share_of_the_cores(tmp_path: Path):
    allowed = os.sched_getaffinity(0)
    found = _tournament(tmp_path)
    # a kept-up chatty process per game slot (a slot per worker), and one more where a slot took
    # both rotations of a deal (arena.referee.pool): each on its worker's share, both shares used
    shares = cpus.shares(2, allowed)
    assert all(cores in shares for cores in found), found
    assert {frozenset(cores) for cores in found} == set(shares)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to share")
def test_no_pin_cpus_leaves_the_bots_on_every_core(tmp_path: Path):
    allowed = os.sched_getaffinity(0)
    assert set(map(frozenset, _tournament(tmp_path, "--no-pin-cpus"))) == {frozenset(allowed)}


def test_claims_spread_over_the_cores_one_each_in_turn(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3, 5})
    claims = [cpus.claimed_core(tmp_path) for _ in range(3)]
    assert [share for share, _ in claims] == [{3}, {5}, {3}]
    os.close(claims[1][1])  # that process ended: its core is the next one claimed
    share, held = cpus.claimed_core(tmp_path)
    assert share == {5}
    for descriptor in (held, claims[0][1], claims[2][1]):
        os.close(descriptor)


def test_a_killed_claimants_core_is_claimed_again(tmp_path: Path):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs two cores to claim")
    code = (
        "import sys, time; from pathlib import Path; from arena.tournament import cpus; "
        "cpus.claimed_core(Path(sys.argv[1])); print('held', flush=True); time.sleep(60)"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        first = cpus.by_core(os.sched_getaffinity(0))[0]
        share, held = cpus.claimed_core(tmp_path)
        assert share != {first} and held is not None  # claim 0 is the holder's
        os.close(held)
        holder.kill()  # kill -9: the kernel drops its lock
        holder.wait()
        share, held = cpus.claimed_core(tmp_path)
        assert share == {first}
        assert held is not None
        os.close(held)
    finally:
        holder.kill()


def test_no_claim_on_one_core(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {2})
    assert cpus.claimed_core(tmp_path) == (None, None)


def test_a_link_planted_as_a_claim_is_not_followed(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    target = tmp_path / "target"
    target.write_text("kept")
    claims = tmp_path / "claims"
    claims.mkdir()
    (claims / "claim-0").symlink_to(target)
    assert cpus.claimed_core(claims) == (None, None)  # no pinning, and nothing written through
    assert target.read_text() == "kept"
