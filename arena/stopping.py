"""How the arena stops on a signal, all in one place.

* The command (``for_the_command``, from ``arena.cli.main``): SIGTERM, as a service manager,
  ``timeout`` or ``kill`` sends it, takes the same orderly path as Ctrl-C: trio delivers the
  interrupt at a safe point, bots are stopped, the game in flight is abandoned, everything
  recorded stays recorded, exit code 130.
* A tournament (``StopSignal``, from ``arena.tournament.runner``): while its games run, trio
  receives SIGINT and SIGTERM instead, and the runner cancels the games, marks the tournament
  stopped and returns, so the command can say how to resume it.
* A worker process (``for_a_worker``, ``StopSignal(SIGTERM)``): Ctrl-C reaches it too (the
  terminal signals the whole process group), but the main process decides when it stops: it
  ignores SIGINT, and SIGTERM from the main process abandons its games and stops its bots.
"""

from __future__ import annotations

import functools
import signal
import threading
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import ParamSpec, TypeVar

import trio

P = ParamSpec("P")
T = TypeVar("T")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _stop_like_ctrl_c(signum: int, frame: FrameType | None) -> None:
    signal.raise_signal(signal.SIGINT)


# Set in the ``arena`` command's process, which ends soon after a run stopped by a signal.
_IN_THE_COMMAND = False


def for_the_command() -> None:
    global _IN_THE_COMMAND
    _IN_THE_COMMAND = True
    # A shell script's background job (`arena tournament ... &`) starts with SIGINT ignored, and
    # Python keeps it so: SIGTERM, which takes the Ctrl-C path, would then do nothing at all.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop_like_ctrl_c)


def for_a_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class StopSignal:
    """Cancels a scope at the first of ``signals`` (default SIGINT and SIGTERM), received by
    trio from the moment ``watch`` starts; ``received`` tells whether one came."""

    def __init__(self, *signals: int) -> None:
        self.signals = signals or STOP_SIGNALS
        self.received = False

    async def watch(
        self,
        scope: trio.CancelScope,
        *,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        with trio.open_signal_receiver(*self.signals) as arriving:
            task_status.started()  # receiving from now on
            async for _ in arriving:
                self.received = True
                scope.cancel()
                break
        if self.received and threading.current_thread() is threading.main_thread():
            # The run now stops: its clean-up (bots stopped, its state stored, the database
            # closed) is short, and a second Ctrl-C in it raised KeyboardInterrupt in the middle
            # of a database call: a traceback instead of one line. Repeats wait for the run's end
            # (``restores_stop_handlers`` puts the handlers back).
            # Ignored, not a Python handler: Python puts SIG_DFL back for those as it exits,
            # and a repeat in that instant killed the command by SIGINT instead of exit 130.
            for signum in self.signals:
                signal.signal(signum, signal.SIG_IGN)


def restores_stop_handlers(
    run: Callable[P, Awaitable[T]],
) -> Callable[P, Awaitable[T]]:
    """Decorates a run that watches a ``StopSignal``: when it returns, the handlers of the stop
    signals are what they were when it began (Ctrl-C works again afterwards), but in the
    ``arena`` command after a stop, which goes on to say how to resume and exit: a repeat there
    would be a KeyboardInterrupt on its way out (the process killed by SIGINT, not exit 130)."""

    @functools.wraps(run)
    async def restoring(*args: P.args, **kwargs: P.kwargs) -> T:
        main = threading.current_thread() is threading.main_thread()
        previous = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS} if main else {}
        try:
            return await run(*args, **kwargs)
        finally:
            stopping = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            for signum, handler in {} if _IN_THE_COMMAND and stopping else previous.items():
                if handler is not None:  # None: not set from Python, nothing to put back
                    signal.signal(signum, handler)

    return restoring
