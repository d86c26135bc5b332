"""Calls that outlive their deadline: a bot that stops reading its socket (while it floods the
referee with HTTP/2 PINGs, say) can hold a call to it for ever. grpcio ends a unary call only once
its request is sent (grpc/grpc#28434, closed as won't fix), so neither the call's deadline nor
closing the channel ends it: the game, its tournament and even Ctrl-C waited on it (outside
review). Killing the bot's process closes its end of the socket, which ends the call at once.

So every call to a local bot is watched (``STALLS.watch``): one that has not returned
``GRACE_SECONDS`` after its deadline gets its ``on_stall`` (the client kills its bot), and the
call fails as the timeout it is. One daemon thread per process looks every ``LOOK_SECONDS`` (it
ends when idle); a call costs a lock and two dict operations, not a timer thread. A remote bot
(``NAME@HOST:PORT``) is no process of ours to kill, but the filter the arena reads it through is
(``arena.sandbox.relay``): killing that ends the call.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

GRACE_SECONDS = 1.0  # past a call's deadline before its bot is taken for stalled
LOOK_SECONDS = 0.25
IDLE_SECONDS = 2.0  # the watcher's thread ends when no call was watched for this long


class StallGuard:
    def __init__(self) -> None:
        self._calls: dict[int, tuple[float, Callable[[], None]]] = {}
        self._keys = itertools.count()
        self._lock = threading.Lock()
        self._owner = 0  # the pid whose watcher thread runs (a forked child has none)

    def watch(self, timeout: float, on_stall: Callable[[], None]) -> int:
        """Watch a call with ``timeout`` seconds, starting now; the key to hand to ``done``."""
        key = next(self._keys)
        with self._lock:  # against the watcher leaving as this call comes
            self._calls[key] = (time.monotonic() + timeout + GRACE_SECONDS, on_stall)
            if self._owner != os.getpid():
                threading.Thread(target=self._look, name="arena-stall-guard", daemon=True).start()
                self._owner = os.getpid()
        return key

    def done(self, key: int) -> None:
        self._calls.pop(key, None)

    def _look(self) -> None:
        """Until no call has been watched for IDLE_SECONDS (the next call starts it again)."""
        idle_since = time.monotonic()
        while True:
            time.sleep(LOOK_SECONDS)
            now = time.monotonic()
            if self._calls:
                idle_since = now
            elif now - idle_since >= IDLE_SECONDS:
                with self._lock:
                    if not self._calls:
                        self._owner = 0
                        return
            for key, (due, on_stall) in list(self._calls.items()):
                if now >= due and self._calls.pop(key, None) is not None:
                    log.warning(
                        "a call outlived its deadline by %g s: its bot is stopped", GRACE_SECONDS
                    )
                    try:
                        on_stall()
                    except Exception:  # the watcher must go on for every other call
                        log.exception("stopping a stalled bot failed")


STALLS = StallGuard()
