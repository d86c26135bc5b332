"""The ``arena`` command's entry point. Importing the CLI (typer, the engines, SQLAlchemy, gRPC)
takes a second or more on a busy machine: a Ctrl-C or a SIGTERM meanwhile is one line and exit
code 130, as anywhere else in a command, not a traceback of the import (nor, for SIGTERM, a
silent 143), and a Ctrl-C is not lost when the command started with SIGINT ignored (a shell
script's background job), where it played a whole tournament."""

from __future__ import annotations

import signal
import sys
from types import FrameType

INTERRUPTED_CODE = 130


def ignore_stop_signals() -> None:
    """SIGINT and SIGTERM ignored from now on: the command stops (``arena.stopping``)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    ignore_stop_signals()
    raise KeyboardInterrupt


def main() -> None:
    # Ctrl-C from the first line: a background job of a shell script starts with SIGINT ignored,
    # and the CLI takes it back only after its imports (``arena.stopping.for_the_command``,
    # which explains why). SIGINT first: once SIGTERM is taken, so is SIGINT.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # Until the CLI takes SIGTERM the Ctrl-C way (``for_the_command`` too).
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        from arena.cli import main as run
    except KeyboardInterrupt:
        ignore_stop_signals()  # a repeat as it exits: still 130
        print("error: interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED_CODE)
    run()
