"""A tournament's games in worker processes (``--workers``): the same games recorded once each,
by the main process; a worker killed mid-game voids that game, which is re-run."""

import multiprocessing
import os
import signal
from pathlib import Path

import trio

from arena.sandbox import SandboxPolicy
from arena.tournament.runner import QuietObserver, run_tournament
from arena.tournament.settings import TournamentSettings
from arena.tournament.setup import create_tournament
from tests.tournament.helpers import SAMPLE_BOTS, query, run_cli

BOTS = Path(__file__).resolve().parents[1] / "bots"


def _finished_keys(db: Path) -> list[str]:
    return sorted(
        key for (key,) in query(db, "SELECT schedule_key FROM game WHERE status = 'finished'")
    )


def test_workers_play_the_same_games_as_one_process(tmp_path: Path):
    bots = f"{SAMPLE_BOTS / 'random-python'},{SAMPLE_BOTS / 'random-node'}"
    for name, extra in (("one", ()), ("two", ("--workers", "2"))):
        result = run_cli(
            "tournament",
            "--game",
            "oregon",
            "--bots",
            bots,
            "--deals",
            "2",
            "--concurrency",
            "2",
            "--seed",
            "5",
            "--name",
            name,
            "--db",
            str(tmp_path / f"{name}.db"),
            *extra,
        )
        assert result.exit_code == 0, result.stdout + result.stderr
    one, two = _finished_keys(tmp_path / "one.db"), _finished_keys(tmp_path / "two.db")
    assert one == two and len(one) == 4
    assert query(tmp_path / "two.db", "SELECT count(*) FROM game") == [(4,)]


class _KillAWorkerMidGame(QuietObserver):
    """Kills one worker process a moment after the third game started (the slow bot's games last
    seconds, so that one is mid-game)."""

    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery, self.started, self.killed = nursery, 0, 0

    def game_started(self) -> None:
        self.started += 1
        if self.started == 3:
            self.nursery.start_soon(self.kill)

    async def kill(self) -> None:
        await trio.sleep(1.0)
        worker = multiprocessing.active_children()[0]
        os.kill(worker.pid, signal.SIGKILL)
        self.killed = worker.pid


async def test_a_worker_killed_mid_game_voids_it_and_it_is_rerun(tmp_path: Path):
    db = tmp_path / "arena.db"
    settings = TournamentSettings(
        deals=2, concurrency=2, move_time=10.0, sandbox=SandboxPolicy(tool="none")
    )
    ready = await trio.to_thread.run_sync(
        lambda: create_tournament(
            db, "oregon", [str(BOTS / "slow"), str(SAMPLE_BOTS / "random-python")], settings, 9, "t"
        )
    )
    try:
        async with trio.open_nursery() as nursery:
            observer = _KillAWorkerMidGame(nursery)
            summary = await run_tournament(ready.database, ready.id, observer, workers=2)
    finally:
        ready.database.close()
    assert observer.killed
    assert summary.complete and summary.voided >= 1
    assert len(_finished_keys(db)) == len(set(_finished_keys(db))) == 4  # none lost, none twice
    reasons = query(db, "SELECT termination FROM game WHERE status = 'voided'")
    assert reasons and all("worker process died" in reason for (reason,) in reasons), reasons
    assert multiprocessing.active_children() == []  # the workers were stopped
