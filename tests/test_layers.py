"""The layer rules hold: import-linter's contracts ([tool.importlinter] in pyproject.toml) over
the whole import graph, and, as the process really runs, the web arena loading nothing that
plays games (its import would otherwise pull in gRPC, the referee and the sandbox)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

# What plays games: the web arena and storage must load none of it.
PLAYING = ("grpc", "arena.referee", "arena.sandbox", "arena.bot", "arena.wire", "trio")


def test_the_import_contracts_are_kept():
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def loaded_by(module: str) -> list[str]:
    """The modules a fresh interpreter holds after importing ``module``."""
    done = subprocess.run(
        [sys.executable, "-c", f"import json, sys, {module}; print(json.dumps(list(sys.modules)))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def playing(modules: list[str]) -> list[str]:
    """The modules of ``modules`` in the packages of PLAYING (``arena.bot_tree`` is not
    ``arena.bot``)."""
    return sorted(m for m in modules if any(m == p or m.startswith(f"{p}.") for p in PLAYING))


def test_the_web_arena_loads_no_grpc_referee_or_sandbox():
    modules = loaded_by("arena.web.app")
    assert "arena.web.app" in modules and "starlette" in modules
    assert playing(modules) == []


def test_the_check_sees_what_plays():
    """The test above would pass if it looked at nothing: the referee does load gRPC."""
    assert "grpc" in playing(loaded_by("arena.referee.client"))
