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

import signal
from types import FrameType

import trio

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _stop_like_ctrl_c(signum: int, frame: FrameType | None) -> None:
    signal.raise_signal(signal.SIGINT)


def for_the_command() -> None:
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
                return
