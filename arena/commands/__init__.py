"""One module per CLI command; each exposes ``register(app: typer.Typer) -> None``."""

from __future__ import annotations

import sys
from typing import NoReturn

import typer


def fail(message: str, code: int = 2) -> NoReturn:
    """End the command with a one-line error on stderr and a non-zero exit code."""
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(code)
