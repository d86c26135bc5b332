"""The ``arena`` command's entry point. Importing the CLI (typer, the engines, SQLAlchemy, gRPC)
takes a second or more on a busy machine: a Ctrl-C or a SIGTERM meanwhile is one line and exit
code 130, as anywhere else in a command, not a traceback of the import (nor, for SIGTERM, a
silent 143)."""

from __future__ import annotations

import signal
import sys
from types import FrameType

INTERRUPTED_CODE = 130


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    # Until the CLI takes SIGTERM the Ctrl-C way (``arena.stopping.for_the_command``).
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        from arena.cli import main as run
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED_CODE)
    run()
