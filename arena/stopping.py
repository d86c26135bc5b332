"""How the arena stops on a signal, all in one place.

* The command (``for_the_command``, around ``arena.cli.main``): SIGTERM, as a service manager,
  ``timeout`` or ``kill`` sends it, takes the same orderly path as Ctrl-C: trio delivers the
  interrupt at a safe point, bots are stopped, the game in flight is abandoned, everything
  recorded stays recorded, exit code 130. (``arena.launcher`` takes both signals so from its
  first line, while the command still imports its modules.)
* One stop (``command_stops``): once the command knows that it stops, further SIGINT and SIGTERM
  are ignored until it has exited. Its clean-up (an upload put back in the queue, bots stopped,
  the database closed) is not broken off (a second Ctrl-C raised KeyboardInterrupt in the middle
  of a database call: a traceback), and it ends with 130 (Python puts SIG_DFL back for its own
  handlers as it exits, and a repeat in that instant killed the command by the signal: 143 or
  -2). The command knows it at the signal's arrival where the handler is the arena's: SIGTERM's
  (``_stop_like_ctrl_c``), a ``StopSignal``'s (a tournament, a ladder, ``arena match``:
  ``until_a_stop_signal``), ``arena serve``'s; else (Ctrl-C, which Python or trio raises as
  KeyboardInterrupt) where the interrupt is caught: the worker's upload in hand,
  ``arena.commands.stopped_by_signal``, the CLI's "interrupted" line, and at the latest as the
  command exits with 130.
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
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from types import FrameType
from typing import Any, ParamSpec, TypeVar

import trio

from arena.launcher import INTERRUPTED_CODE, ignore_stop_signals

P = ParamSpec("P")
T = TypeVar("T")

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _stop_like_ctrl_c(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # from its arrival: the command stops
    try:
        signal.raise_signal(signal.SIGINT)
    finally:
        command_stops()  # and Ctrl-C too, once the interrupt is on its way


# Set in the ``arena`` command's process, which ends soon after a run stopped by a signal.
_IN_THE_COMMAND = False


def _quiet_about_ignored_repeats(unraisable: Any) -> None:
    """``sys.unraisablehook`` in the command: a repeat of a stop signal that arrived while the
    first's handler set it to SIG_IGN is dropped by Python with "Signal 15 ignored due to race
    condition" and a traceback on stderr (a CI run saw one). Ignoring it is what the command
    wants; anything else goes to the hook before."""
    error = unraisable.exc_value
    if isinstance(error, OSError) and "ignored due to race condition" in str(error):
        return
    _HOOK_BEFORE(unraisable)


_HOOK_BEFORE = sys.unraisablehook


@contextmanager
def for_the_command() -> Iterator[None]:
    """The ``arena`` command's run (``arena.cli.main``): SIGTERM the Ctrl-C way, and the stop
    signals ignored as it exits interrupted."""
    global _IN_THE_COMMAND
    _IN_THE_COMMAND = True
    sys.unraisablehook = _quiet_about_ignored_repeats
    # A shell script's background job (`arena tournament ... &`) starts with SIGINT ignored, and
    # Python keeps it so: SIGTERM, which takes the Ctrl-C path, would then do nothing at all.
    # (``arena.launcher`` does the same from its first line, for a Ctrl-C while it imports.)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _stop_like_ctrl_c)
    try:
        yield
    except SystemExit as end:
        if end.code == INTERRUPTED_CODE:
            command_stops()
        raise
    except KeyboardInterrupt:
        command_stops()
        raise


def command_stops() -> None:
    """The ``arena`` command stops on a stop signal: from now on it ignores SIGINT and SIGTERM
    (the module's docstring says why). Outside the command (a test calling the CLI in its own
    process), and off the main thread, it does nothing."""
    if _IN_THE_COMMAND and threading.current_thread() is threading.main_thread():
        ignore_stop_signals()


class _DeferredStop:
    """A stop signal received inside ``deferred_ctrl_c``: noted, raised at a safe point."""

    requested = False  # a stop signal came
    waiting = False  # in ``interruptible_sleep``: raised at once


_DEFERRED = _DeferredStop()


def _defer_interrupt(signum: int, frame: FrameType | None) -> None:
    ignore_stop_signals()  # first: a second Ctrl-C sent at once is the same stop
    _DEFERRED.requested = True
    if _DEFERRED.waiting:
        raise KeyboardInterrupt


@contextmanager
def deferred_ctrl_c() -> Iterator[None]:
    """Around a service's loop (``arena submissions work``): Ctrl-C, and SIGTERM which takes its
    path, raise KeyboardInterrupt only at the loop's safe points, ``interruptible_sleep`` and
    ``stop_here``. Raised anywhere, it broke off a database call (SQLAlchemy printed a
    traceback as it closed the cursor), and under Python's own handler a second Ctrl-C sent at
    once landed in the ``except`` clause that was about to ignore it ("error: interrupted" in
    place of the service's "stopped"). Whatever runs trio inside goes under
    ``ctrl_c_for_trio``."""
    takes_it = (
        _IN_THE_COMMAND
        and threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )
    _DEFERRED.requested = False
    with _handling_sigint(_defer_interrupt if takes_it else None):
        yield


def stop_here() -> None:
    """A safe point of a ``deferred_ctrl_c`` loop: KeyboardInterrupt if a stop signal came."""
    if _DEFERRED.requested:
        raise KeyboardInterrupt


def interruptible_sleep(seconds: float) -> None:
    """``time.sleep``, which a stop signal inside ``deferred_ctrl_c`` ends at once."""
    _DEFERRED.waiting = True
    try:
        stop_here()  # one that came before
        time.sleep(seconds)
    finally:
        _DEFERRED.waiting = False


def ctrl_c_for_trio() -> AbstractContextManager[None]:
    """Python's own Ctrl-C handler again, inside ``deferred_ctrl_c``, for a ``trio.run``: trio
    keeps KeyboardInterrupt out of its own code and delivers it at a checkpoint only under that
    handler. (Call ``stop_here`` first thing inside: a stop may have come just before.)"""
    inside = signal.getsignal(signal.SIGINT) is _defer_interrupt
    return _handling_sigint(signal.default_int_handler if inside else None)


@contextmanager
def _handling_sigint(handler: Callable[[int, FrameType | None], object] | None) -> Iterator[None]:
    """SIGINT handled by ``handler`` within (None: left as it is), then as before, unless a stop
    has made it ignored meanwhile."""
    if handler is None:
        yield
        return
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGINT) is handler:
            signal.signal(signal.SIGINT, previous)


def is_interrupt(exc: BaseException) -> bool:
    """``exc`` is a KeyboardInterrupt, or an exception group that holds one: trio raises the
    interrupt it delivers inside a nursery wrapped in its group."""
    if isinstance(exc, BaseExceptionGroup):
        return exc.subgroup(KeyboardInterrupt) is not None
    return isinstance(exc, KeyboardInterrupt)


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


@restores_stop_handlers
async def until_a_stop_signal(run: Callable[[], Awaitable[T]]) -> T:
    """``run``, cancelled at the first SIGINT or SIGTERM: this raises KeyboardInterrupt once the
    run's clean-up (its bots stopped) is over, and a repeat meanwhile waits for it (a trio run
    that has no stop of its own, as ``arena match``'s; an interrupt that trio delivered in the
    middle of it, and a repeat, were raised wherever they landed). The run's own error is raised
    as itself, not in the nursery's group."""
    stop = StopSignal()
    done: list[T] = []
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(stop.watch, nursery.cancel_scope)
            done.append(await run())
            nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        if stop.received:  # what its cancellation raised: the stop is what happened
            raise KeyboardInterrupt from None
        if len(group.exceptions) == 1:  # the watch raises nothing
            raise group.exceptions[0] from None
        raise
    if not done:  # cancelled by the stop (had the run ended first, it stands)
        raise KeyboardInterrupt
    return done[0]
