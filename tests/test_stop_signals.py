"""Stop signals to the real ``arena`` command (``arena.stopping``, ``arena.launcher``), as an
operator, a shell script or a service manager sends them (outside review, L2 and L3).

* Twice, at once or 0.1 s apart (an impatient operator; a service manager that repeats itself):
  the first stop finishes in order and the exit code is 130, without a traceback, for ``arena
  serve``, ``arena submissions work`` (idle; stopped in a validation: tests/hosting/
  test_worker_stops.py), ``arena match`` and ``arena validate``. A repeat killed them by the
  signal as Python exited (143, or -2), raised KeyboardInterrupt in the middle of a database
  call (a traceback), or forced uvicorn's exit (a traceback of its cancelled lifespan).
* Early: a shell script's background job starts with SIGINT ignored; ``arena tournament``
  took Ctrl-C back only after its imports, so a SIGINT in its first second was lost and the
  whole tournament was played.
(Tournaments and ladders: tests/tournament/test_double_stop.py.)"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.storage.database import open_database
from tests.support.bots import ROOT, SAMPLE_BOTS, TEST_BOTS
from tests.support.signals import popen_with_sigint

pytestmark = pytest.mark.slow  # real arena and bot processes

SIGNALS = pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
GAPS = pytest.mark.parametrize("gap", [0.0, 0.1], ids=["at-once", "0.1s-apart"])


def start(*args: str, sigint: signal.Handlers = signal.SIG_DFL) -> subprocess.Popen[str]:
    """The ``arena`` command by its own entry point (``arena.launcher``), SIGINT as ``sigint``
    says: SIG_DFL as from a terminal (a test run that a shell started in the background would
    pass SIG_IGN on), SIG_IGN as a shell script's background job."""
    return popen_with_sigint(
        [sys.executable, "-c", "from arena.launcher import main; main()", *args],
        sigint,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stopped_twice(process: subprocess.Popen[str], signum: int, gap: float | None) -> str:
    """Send ``signum`` twice, ``gap`` seconds apart (once if None); the command's stderr once it
    has ended."""
    try:
        process.send_signal(signum)
        if gap is not None:
            time.sleep(gap)  # the gap between the two signals, not a wait for anything
            process.send_signal(signum)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
        process.communicate()
    return err


def wait_for(condition, process: subprocess.Popen[str], what: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.05)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "arena.db"
    open_database(path, create=True).close()
    yield path


@SIGNALS
@GAPS
def test_arena_serve_stopped_twice(db: Path, signum: int, gap: float):
    process = start("serve", "--port", "0", "--db", str(db))
    assert process.stdout is not None
    first = process.stdout.readline()  # "arena: serving DB at http://...", once it listens
    assert " at " in first, (first, process.communicate(timeout=60), process.returncode)
    address = first.split(" at ")[1].split()[0]

    def answers() -> bool:
        try:
            with urllib.request.urlopen(address, timeout=5) as page:
                return page.status == 200
        except OSError:
            return False

    wait_for(answers, process, "arena serve answering")
    err = stopped_twice(process, signum, gap)
    assert (process.returncode, err) == (130, "arena serve: stopped\n")


@SIGNALS
@GAPS
def test_an_idle_worker_stopped_twice(db: Path, signum: int, gap: float):
    process = start("submissions", "work", "--sandbox", "none", "--db", str(db))
    assert process.stderr is not None
    assert process.stderr.readline().startswith("building the uploads of ")  # stops: "stopped"
    err = stopped_twice(process, signum, gap)
    assert (process.returncode, err) == (130, "arena submissions work: stopped\n")


@SIGNALS
@GAPS
def test_arena_match_stopped_twice(tmp_path: Path, signum: int, gap: float):
    """The sleeper never answers its decision: the game is under way, waiting for it."""
    logs = tmp_path / "logs"
    sleeper, other = TEST_BOTS / "sleeper", SAMPLE_BOTS / "random-python"
    process = start(
        *("match", "--game", "oregon", str(sleeper), str(other), "--move-time", "600"),
        *("--sandbox", "none", "--bot-logs", str(logs), "--no-store"),
    )

    def hanging() -> bool:
        return any(
            "misbehave: hanging on purpose" in log.read_text(errors="replace")
            for log in logs.glob("*-seat0-sleeper-*.log")
        )

    wait_for(hanging, process, "the sleeper hanging in its decision")
    err = stopped_twice(process, signum, gap)
    assert process.returncode == 130, err
    assert err == "error: interrupted; the game was abandoned and its bots stopped\n"


@SIGNALS
@GAPS
def test_arena_validate_stopped_twice(tmp_path: Path, signum: int, gap: float):
    logs = tmp_path / "logs"
    bot = SAMPLE_BOTS / "random-python"
    process = start("validate", str(bot), "--sandbox", "none", "--bot-logs", str(logs))
    # a game's bots started (the process check's log is above the games' directories)
    wait_for(lambda: any(logs.glob("*/*.log")), process, "a game of the validation")
    err = stopped_twice(process, signum, gap)
    assert process.returncode == 130, err
    assert err.splitlines()[-1] == "error: interrupted", err
    assert "Traceback" not in err, err


def _handles(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler of its own for ``signum`` (``SigCgt``)."""
    status = Path(f"/proc/{pid}/status").read_text()
    caught = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught, 16) & (1 << (signum - 1)))


def test_an_early_ctrl_c_stops_a_background_tournament(tmp_path: Path):
    """Started as a shell script's background job (SIGINT ignored), sent SIGINT as soon as the
    command's entry point has taken SIGTERM (its first lines, SIGINT just before): the command
    still imports its modules."""
    db = tmp_path / "arena.db"
    bots = ",".join(str(SAMPLE_BOTS / name) for name in ("random-python", "heuristic-python"))
    process = start(
        *("tournament", "--game", "oregon", "--bots", bots, "--deals", "50"),
        *("--sandbox", "none", "--db", str(db)),
        sigint=signal.SIG_IGN,
    )
    try:
        wait_for(lambda: _handles(process.pid, signal.SIGTERM), process, "the entry point", 60)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
        process.communicate()
    # it was 0, the whole tournament played; stopped so early, it says "error: interrupted"
    # (had the signal arrived later, as the tournament is set up or plays: 130 all the same)
    assert process.returncode == 130, err
    assert "Traceback" not in err, err


@pytest.fixture
def in_the_command(monkeypatch) -> Iterator[None]:
    """``arena.stopping`` as in the ``arena`` command's process; the stop handlers put back."""
    from arena import stopping

    monkeypatch.setattr(stopping, "_IN_THE_COMMAND", True)
    before = {signum: signal.getsignal(signum) for signum in stopping.STOP_SIGNALS}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def test_a_service_takes_a_stop_at_its_safe_points_only(in_the_command):
    """``arena submissions work``: a Ctrl-C that came during a database call broke it off
    (SQLAlchemy printed a traceback closing its cursor): it is now raised at the loop's next safe
    point; a second one is the same stop."""
    from arena import stopping

    with stopping.deferred_ctrl_c():
        signal.raise_signal(signal.SIGINT)  # as if in the middle of a database call
        signal.raise_signal(signal.SIGINT)
        sum(range(100_000))  # bytecode runs on: nothing raised here
        with pytest.raises(KeyboardInterrupt):
            stopping.stop_here()
        with pytest.raises(KeyboardInterrupt):
            stopping.interruptible_sleep(60)  # a stop that came before: at once
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # the command stops


def test_a_stop_ends_a_services_wait_at_once(in_the_command):
    import threading

    from arena import stopping

    main = threading.main_thread().ident
    threading.Timer(0.2, signal.pthread_kill, (main, signal.SIGINT)).start()  # as Ctrl-C comes
    began = time.monotonic()
    with stopping.deferred_ctrl_c(), pytest.raises(KeyboardInterrupt):
        stopping.interruptible_sleep(60)
    assert time.monotonic() - began < 30


def test_trio_gets_pythons_handler_inside_a_service(in_the_command):
    """trio keeps KeyboardInterrupt out of its own code only under Python's handler."""
    from arena import stopping

    with stopping.deferred_ctrl_c():
        with stopping.ctrl_c_for_trio():
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_repeat_python_drops_as_ignored_prints_nothing_in_the_command(monkeypatch):
    """A second SIGTERM sent at once arrived while the first's handler set SIGTERM to SIG_IGN:
    Python dropped it with "Signal 15 ignored due to race condition" and a traceback on stderr
    (a CI run of ``test_arena_validate_stopped_twice``). Other unraisable errors still show."""
    import types

    from arena import stopping

    shown: list[BaseException] = []
    monkeypatch.setattr(stopping, "_HOOK_BEFORE", lambda args: shown.append(args.exc_value))

    def unraisable(error: BaseException) -> types.SimpleNamespace:
        return types.SimpleNamespace(
            exc_type=type(error), exc_value=error, exc_traceback=None, err_msg=None, object=None
        )

    repeat = OSError("Signal 15 ignored due to race condition")
    stopping._quiet_about_ignored_repeats(unraisable(repeat))
    other = ValueError("something else")
    stopping._quiet_about_ignored_repeats(unraisable(other))
    assert shown == [other]
