"""``arena tournament --ray`` (and ``arena sprt --ray``): a tournament's games on a Ray cluster
that the test starts itself (a head and a second node on this machine, ``arena.bench.local_ray``).
The same games and results as without Ray; a node killed mid-tournament loses and duplicates no
game; a cluster that cannot be used is one line and exit code 2, before anything is stored.

Skipped only where ray is not installed (scripts/setup --for-tests, which CI runs, installs it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from arena.bench.local_ray import HEAD_IP, SECOND_IP, LocalCluster, free_port
from arena.sandbox import bwrap_problem
from arena.tournament import shipping
from tests.support.log_names import unstamped
from tests.tournament.helpers import ROOT, query, run_cli, start_cli

needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="ray is not installed (scripts/setup --with-ray or --for-tests installs it)",
)
# The nodes confine the bots as a local referee would, where this machine can.
SANDBOX = "none" if bwrap_problem() else "bwrap"
MISBEHAVE = ROOT / "tests" / "bots" / "misbehave.py"


def _bot(directory: Path, name: str, body: str) -> Path:
    directory.mkdir(parents=True)
    (directory / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
    )
    (directory / "bot.py").write_text(body)
    return directory


def _first_and_last(tmp: Path) -> str:
    """Two bots whose every choice follows from the decision alone: the same games whichever
    process, slot or node plays them. Each says "up" in its log."""
    run = "import arena_sdk as sdk\n\nprint('up', flush=True)\nsdk.run(lambda request: {})\n"
    first = _bot(tmp / "first", "first", run.format("0"))
    last = _bot(tmp / "last", "last", run.format("len(request.legal_actions) - 1"))
    return f"{first},{last}"


def _slow(tmp: Path) -> Path:
    """The slow test bot (0.15 s a decision: a game lasts seconds) as a self-contained directory:
    a shipped bot is its directory alone."""
    bot = tmp / "slow"
    bot.mkdir()
    shutil.copy(MISBEHAVE, bot / "misbehave.py")
    (bot / "bot.toml").write_text(
        'name = "slow"\nversion = "1"\ncommand = ["python", "misbehave.py", "slow"]\n'
        'games = ["oregon"]\n'
    )
    return bot


def _games(db: Path) -> list[tuple]:
    """Every finished game: its schedule key, moves and each seat's bot, score, rank, outcome."""
    return query(
        db,
        "SELECT g.schedule_key, g.actions, s.seat, b.name, s.score, s.rank, s.outcome "
        "FROM game g JOIN seat s ON s.game_id = g.id "
        "JOIN bot_version v ON v.id = s.bot_version_id JOIN bot b ON b.id = v.bot_id "
        "WHERE g.status = 'finished' ORDER BY g.schedule_key, s.seat",
    )


def _bot_logs(directory: Path) -> dict[str, bytes]:
    """The logs written into --bot-logs DIR, by bot and slot (``first-slot0``): the content of
    each such process's log."""
    logs: dict[str, bytes] = {}
    for log in directory.glob("*.log"):
        kept = re.fullmatch(r"(\w+-slot\d+)-process\d+\.log", unstamped(log.name))
        assert kept, f"not a kept-up bot's log name: {log.name}"
        logs[kept[1]] = logs.get(kept[1], b"") + log.read_bytes()
    return logs


def _finished_keys(db: Path) -> list[str]:
    return [key for (key,) in query(db, "SELECT schedule_key FROM game WHERE status = 'finished'")]


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    if importlib.util.find_spec("ray") is None:
        pytest.skip("ray is not installed (scripts/setup --with-ray or --for-tests installs it)")
    started = LocalCluster()
    try:
        started.start()
        started.start_second_node()
        yield started
    finally:
        started.stop()
        for pid in _shipped_bots_running():  # left by a failed test: not for the next one
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def two_nodes(cluster: LocalCluster) -> LocalCluster:
    """The cluster with its second node up (again, after a test killed it)."""
    if SECOND_IP not in cluster.nodes:
        cluster.start_second_node()
    return cluster


def _tournament(*args: str) -> list[str]:
    return ["tournament", "--game", "oregon", "--sandbox", SANDBOX, "--move-time", "10", *args]


@needs_ray
@pytest.mark.slow
def test_a_tournament_across_two_nodes_equals_the_same_one_run_here(
    tmp_path: Path, two_nodes: LocalCluster
):
    bots = _first_and_last(tmp_path)
    common = ("--bots", bots, "--deals", "3", "--concurrency", "2", "--seed", str(2**50 + 7))
    here = run_cli(*_tournament(*common, "--name", "here", "--db", str(tmp_path / "here.db")))
    assert here.exit_code == 0, here.stdout + here.stderr
    on_ray = start_cli(
        *_tournament(*common, "--name", "ray", "--db", str(tmp_path / "ray.db")),
        *("--bot-logs", str(tmp_path / "logs"), "--ray", two_nodes.address),
    )
    out, err = on_ray.communicate(timeout=300)
    assert on_ray.returncode == 0, out + err
    assert f"2 node(s) ({HEAD_IP}, {SECOND_IP})" in err
    assert "Ray: 6 games played on 2 node(s)" in err  # both nodes played
    games = _games(tmp_path / "ray.db")
    assert len({key for key, *_ in games}) == 6
    assert games == _games(tmp_path / "here.db")  # same games, moves, scores and ranks
    # Each slot's actor (one per node: both played) sent its bots' logs back, named by slot.
    logs = _bot_logs(tmp_path / "logs")
    assert sorted(logs) == ["first-slot0", "first-slot1", "last-slot0", "last-slot1"], logs
    assert all(log.startswith(b"up\n") for log in logs.values()), logs
    # Every seat of every game points at its part of its bot's log in DIR (for its author).
    slices = query(tmp_path / "ray.db", 'SELECT path, start, "end" FROM seat_log')
    assert len(slices) == 12
    by_file: dict[str, list[tuple[int, int]]] = {}
    for path, start, end in slices:
        assert Path(path).parent == (tmp_path / "logs").resolve()
        by_file.setdefault(path, []).append((start, end))
    for path, parts in by_file.items():  # one after the other, from the start to the end
        parts.sort()
        assert parts[0][0] == 0 and parts[-1][1] == Path(path).stat().st_size, (path, parts)
        assert all(a[1] == b[0] for a, b in zip(parts, parts[1:])), (path, parts)


def _cores_of_chatty_bots(logs: Path) -> list[set[int]]:
    found = []
    for log in sorted(logs.glob("chatty*.log")):
        cores = re.search(r"^chatty up on cores ([\d,]+)$", log.read_text(), re.M)
        assert cores, log.read_text()
        found.append({int(core) for core in cores[1].split(",")})
    return found


@needs_ray
@pytest.mark.slow
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to claim")
def test_each_slots_actor_keeps_its_bots_to_a_core_unless_no_pin_cpus(
    tmp_path: Path, two_nodes: LocalCluster
):
    chatty = shutil.copytree(ROOT / "tests" / "bots" / "chatty", tmp_path / "chatty")
    bots = f"{chatty},{_first_and_last(tmp_path).split(',')[0]}"
    for pin in ("--pin-cpus", "--no-pin-cpus"):
        logs = tmp_path / pin
        arena = start_cli(
            *_tournament("--bots", bots, "--deals", "1", "--concurrency", "2", pin),
            *("--db", str(tmp_path / f"{pin}.db"), "--bot-logs", str(logs)),
            *("--ray", two_nodes.address),
        )
        out, err = arena.communicate(timeout=300)
        assert arena.returncode == 0, out + err
        found = _cores_of_chatty_bots(logs)
        assert len(found) >= 2, found  # a kept-up chatty bot per slot's actor (or more)
        if pin == "--pin-cpus":  # a core each (claimed in turn: which one, other runs decide)
            assert all(len(cores) == 1 for cores in found), found
        else:
            assert all(cores == os.sched_getaffinity(0) for cores in found), found


@needs_ray
@pytest.mark.slow
def test_a_remote_bot_is_called_at_its_address_from_the_nodes(
    tmp_path: Path, two_nodes: LocalCluster, monkeypatch: pytest.MonkeyPatch
):
    _first_and_last(tmp_path)
    port = free_port()
    monkeypatch.delenv("ARENA_REMOTE_BOT_TOKEN", raising=False)
    env = {**os.environ, "ARENA_BOT_ADDRESS": f"127.0.0.1:{port}", "ARENA_BOT_SEED": "1"}
    env.pop("ARENA_BOT_TOKEN", None)
    remote = subprocess.Popen([sys.executable, "bot.py"], cwd=tmp_path / "first", env=env)
    try:
        _wait_for(lambda: _listening(port), 30, "the remote bot")
        arena = start_cli(
            *_tournament("--bots", f"{tmp_path / 'last'},first@127.0.0.1:{port}"),
            "--deals",
            "1",
            "--db",
            str(tmp_path / "a.db"),
            "--ray",
            two_nodes.address,
        )
        out, err = arena.communicate(timeout=300)
    finally:
        remote.kill()
        remote.wait()
    assert arena.returncode == 0, out + err
    assert "Ray: 2 games played on 2 node(s)" in err
    assert len(_finished_keys(tmp_path / "a.db")) == 2


@needs_ray
@pytest.mark.slow
def test_an_sprt_plays_its_games_on_the_cluster(tmp_path: Path, two_nodes: LocalCluster):
    sample = ROOT / "sample_bots"
    test = start_cli(
        "sprt",
        "--game",
        "oregon",
        str(sample / "random-python"),
        str(sample / "heuristic-python"),
        *("--elo0", "0", "--elo1", "200", "--max-games", "60", "--move-time", "10"),
        *("--seed", "5", "--concurrency", "2", "--sandbox", SANDBOX, "--json"),
        *("--db", str(tmp_path / "a.db"), "--ray", two_nodes.address),
    )
    out, err = test.communicate(timeout=300)
    assert test.returncode == 0, out + err
    result = json.loads(out)  # the JSON alone on stdout; Ray's notes go to stderr
    assert result["status"] == "H0"
    played = re.search(r"Ray: (\d+) games played on 2 node\(s\)", err)
    assert played and int(played[1]) >= result["games"], err


def _bots_on(cluster: LocalCluster, ip: str) -> list[int]:
    """The slow bot's processes on the node (it runs them mid-game)."""
    found = []
    for pid in cluster.processes(ip):
        try:
            if b"misbehave.py" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found


def _shipped_bots_running() -> list[int]:
    """Every process on this machine that runs a bot shipped to a node (from its unpacked copy),
    whoever its parent is now."""
    root = str(shipping.cache_root())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
            in_cache = root.encode() in (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if in_cache or cwd.startswith(root):
            found.append(int(entry.name))
    return found


@contextmanager
def _unused_port() -> Iterator[int]:
    """A loopback port held (so nothing else takes it) but not listening: connecting fails."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield held.getsockname()[1]


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def _wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


@needs_ray
@pytest.mark.slow
def test_a_node_killed_mid_tournament_loses_and_duplicates_no_game(
    tmp_path: Path, two_nodes: LocalCluster
):
    db = tmp_path / "arena.db"
    bots = f"{_slow(tmp_path)},{tmp_path / 'first'}"
    _first_and_last(tmp_path)
    arena = start_cli(
        *_tournament("--bots", bots, "--deals", "2", "--concurrency", "2", "--seed", "91"),
        *("--name", "kill", "--db", str(db), "--bot-logs", str(tmp_path / "logs")),
        *("--ray", two_nodes.address),
    )
    try:
        _wait_for(lambda: _bots_on(two_nodes, SECOND_IP), 120, "a game on the second node")
        two_nodes.kill_node(SECOND_IP)
        out, err = arena.communicate(timeout=300)
    finally:
        if arena.poll() is None:
            arena.kill()
            arena.communicate()
    assert arena.returncode == 0, out + err
    keys = _finished_keys(db)
    assert len(keys) == len(set(keys)) == 4  # every scheduled game once: none lost, none twice
    # The one game the second node was playing is voided, once (the slot's new actor may be
    # placed on the dead node until Ray notices: that costs time, not games).
    reasons = query(db, "SELECT schedule_key, termination FROM game WHERE status = 'voided'")
    assert len(reasons) == 1 and f"Ray actor died on {SECOND_IP}" in reasons[0][1], reasons
    assert "Ray: 4 games played" in err
    _wait_for(lambda: not _shipped_bots_running(), 10, "the actors to stop their bots")
    # The dead node's unsent logs are lost, and nothing else: the live actors' came back.
    assert b"up\n" in b"".join(_bot_logs(tmp_path / "logs").values())


@needs_ray
@pytest.mark.slow
def test_ctrl_c_stops_the_actors_and_their_bots_and_resume_finishes_on_ray(
    tmp_path: Path, two_nodes: LocalCluster
):
    db = tmp_path / "arena.db"
    _first_and_last(tmp_path)
    bots = f"{_slow(tmp_path)},{tmp_path / 'first'}"
    args = ("--db", str(db), "--ray", two_nodes.address)
    arena = start_cli(
        *_tournament("--bots", bots, "--deals", "1", "--concurrency", "2", "--name", "t"), *args
    )
    try:
        _wait_for(lambda: _bots_on(two_nodes, SECOND_IP), 120, "a game on the second node")
        arena.send_signal(signal.SIGINT)
        out, err = arena.communicate(timeout=60)
    finally:
        if arena.poll() is None:
            arena.kill()
            arena.communicate()
    assert arena.returncode == 130, out + err
    assert "--resume t" in err
    _wait_for(lambda: not _shipped_bots_running(), 10, "the actors to stop their bots")
    resumed = start_cli("tournament", "--resume", "t", *args)
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, out + err
    keys = _finished_keys(db)
    assert len(keys) == len(set(keys)) == 2
    _wait_for(lambda: not _shipped_bots_running(), 10, "the actors to stop their bots")


@needs_ray
@pytest.mark.slow
def test_more_game_slots_than_the_cluster_holds_is_one_line_not_a_hang(
    tmp_path: Path, two_nodes: LocalCluster
):
    bots = _first_and_last(tmp_path)
    arena = start_cli(
        # 9 x 0.5 CPUs: the 2 nodes have 2 (3 while Ray still counts a node a test killed)
        *_tournament("--bots", bots, "--concurrency", "9"),
        "--db",
        str(tmp_path / "a.db"),
        "--ray",
        two_nodes.address,
    )
    out, err = arena.communicate(timeout=120)
    assert arena.returncode == 2, out + err
    # the cluster's note (which nodes), then the error: one line
    note, error = err.splitlines()
    assert note.startswith("Ray cluster at ")
    assert re.match(r"error: the Ray cluster has [23] CPUs, too few for 9 game slots", error), err


@needs_ray
def test_an_address_without_a_cluster_is_one_line_and_exit_2(tmp_path: Path):
    with _unused_port() as port:
        result = run_cli(*_tournament("--ray", f"127.0.0.1:{port}", "--db", str(tmp_path / "a.db")))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: no Ray cluster at 127.0.0.1:{port}")
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "a.db").exists()  # nothing stored


def test_without_ray_installed_it_is_one_line_with_the_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    result = run_cli(*_tournament("--ray", "127.0.0.1:6379", "--db", str(tmp_path / "a.db")))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "scripts/setup --with-ray (or pip install '.[ray]'" in result.stderr
    assert not (tmp_path / "a.db").exists()


def test_workers_and_ray_together_are_refused(tmp_path: Path):
    result = run_cli(*_tournament("--workers", "2", "--ray", "auto", "--db", str(tmp_path / "a")))
    assert result.exit_code == 2
    assert "not both" in result.stderr
