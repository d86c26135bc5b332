"""A second Ctrl-C while a tournament or ladder stops (arena.stopping): it waits for the first's
stop instead of raising KeyboardInterrupt in the middle of the clean-up's database calls (a
SQLAlchemy traceback before "error: interrupted", seen in 4 of 12 double Ctrl-Cs by an outside
tester); Ctrl-C works as before once the run has returned."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest
import trio

from arena.stopping import StopSignal, restores_stop_handlers
from tests.tournament.helpers import start_cli
from tests.tournament.test_ladder import QUICK, finished_keys, random_bots, wait_for_games


@restores_stop_handlers
async def _a_run_stopped_twice() -> StopSignal:
    stop = StopSignal()
    async with trio.open_nursery() as nursery:
        await nursery.start(stop.watch, nursery.cancel_scope)
        signal.raise_signal(signal.SIGINT)  # the first: the run stops
        await trio.sleep_forever()
    signal.raise_signal(signal.SIGINT)  # the second, in the clean-up: no KeyboardInterrupt
    signal.raise_signal(signal.SIGTERM)
    return stop


async def test_a_second_stop_signal_waits_and_ctrl_c_works_again_after_the_run():
    # Ctrl-C as at a terminal: a test run started as a shell's background job (as a CI runner
    # may start it) begins with SIGINT ignored, and the last check would then see nothing.
    outside = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        stop = await _a_run_stopped_twice()
        assert stop.received
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, outside)


@pytest.mark.slow  # real CLI and bot processes
def test_ctrl_c_twice_stops_a_tournament_with_one_line(tmp_path: Path):
    db = tmp_path / "arena.db"
    bots = ",".join(str(bot) for bot in random_bots(tmp_path, 3))
    args = (*QUICK, "--deals", "200", "--concurrency", "2", "--name", "twice", "--db", str(db))
    for attempt in range(3):
        run = (
            start_cli("tournament", *args, "--bots", bots)
            if attempt == 0
            else start_cli("tournament", "--resume", "twice", "--db", str(db))
        )
        try:
            wait_for_games(db, run, len(finished_keys(db)) + 1 if attempt else 1)
            run.send_signal(signal.SIGINT)
            time.sleep(0.05)
            run.send_signal(signal.SIGINT)
            _, err = run.communicate(timeout=60)
        finally:
            run.kill()
            run.wait()
        assert run.returncode == 130, err
        assert "Traceback" not in err and "Exception" not in err, err
        assert "--resume twice" in err
