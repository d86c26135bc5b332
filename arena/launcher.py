"""The ``arena`` command's entry point. Importing the CLI (typer, the engines, SQLAlchemy, gRPC)
takes a second or more on a busy machine: a Ctrl-C meanwhile is one line and exit code 130, as
anywhere else in a command, not a traceback of the import."""

from __future__ import annotations

import sys

INTERRUPTED_CODE = 130


def main() -> None:
    from arena import grpc_settings

    grpc_settings.apply()  # before the CLI's modules import grpc, which reads it then
    try:
        from arena.cli import main as run
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED_CODE)
    run()
