"""Adding a game takes its engine package, its .proto and its rules (engine/README.md, "How to
add a game"): everything else finds it in the registry. A fourth game, Nim (tests/toy_game), is
registered in a process of its own and nowhere in the arena's code, its .proto added to a copy of
proto/ and the code generated from that copy as scripts/gen-proto does; then the engine contract
tests run for it unchanged, and it is carried over the wire, played by real bot processes (the
random bot's bot.toml says games = ["*"]) through the referee, stored, and replayed by the web
arena, which has no board drawing for it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "toy_game"

pytestmark = pytest.mark.slow  # generates code, starts real bot processes

# Nim's members of bot.proto's oneofs, after Merkator's: (line after which, line to add).
BOT_PROTO_ADDITIONS = [
    ('import "arena/bot/v1/merkator.proto";', 'import "arena/bot/v1/nim.proto";'),
    ("    MerkatorView merkator = 3;", "    // The view of a Nim game.\n    NimView nim = 4;"),
    ("    MerkatorEvent merkator = 3;", "    // A Nim event.\n    NimEvent nim = 4;"),
    ("    MerkatorAction merkator = 3;", "    // A Nim action.\n    NimAction nim = 4;"),
]


@pytest.fixture(scope="module")
def sdk_with_nim(tmp_path_factory) -> Path:
    """The Python SDK's package with its code generated from proto/ plus nim.proto; the
    directory to put on PYTHONPATH."""
    work = tmp_path_factory.mktemp("nim-proto")
    shutil.copytree(ROOT / "proto", work / "proto")
    shutil.copy(TOY / "nim.proto", work / "proto" / "arena" / "bot" / "v1" / "nim.proto")
    bot_proto = work / "proto" / "arena" / "bot" / "v1" / "bot.proto"
    text = bot_proto.read_text()
    for anchor, addition in BOT_PROTO_ADDITIONS:
        assert text.count(anchor) == 1, anchor
        text = text.replace(anchor, f"{anchor}\n{addition}")
    bot_proto.write_text(text)
    (work / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "gen-proto", work / "scripts" / "gen-proto")
    out = work / "out"
    shutil.copytree(
        ROOT / "sdk" / "python" / "src" / "arena_sdk",
        out / "sdk" / "python" / "src" / "arena_sdk",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    subprocess.run(
        [work / "scripts" / "gen-proto", out],
        check=True,
        env={
            **os.environ,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        },
    )
    return out / "sdk" / "python" / "src"


def run_with_nim(sdk: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{sdk}{os.pathsep}{ROOT}"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_engine_contract_tests_run_for_the_new_game(sdk_with_nim):
    done = run_with_nim(
        sdk_with_nim,
        "-m",
        "pytest",
        "-p",
        "tests.toy_game.registered",
        "tests/engine/test_contract.py",
        "-k",
        "nim",
        "-q",
        "-p",
        "no:cacheprovider",
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


def test_the_new_game_is_played_over_the_wire_stored_and_replayed(sdk_with_nim, tmp_path):
    done = run_with_nim(sdk_with_nim, "-m", "tests.toy_game.play", str(tmp_path / "arena.db"))
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.splitlines()[-1])
    assert seen["pb2 modules"] == ["nim_pb2", "nim_pb2_grpc"]  # found, not named
    assert seen["wire round trips"]
    assert seen["voided"] == "" and seen["outcomes"] == [True, True]
    assert seen["decisions"] > 0
    assert seen["replayed frames"] == seen["decisions"] + 1  # every decision, and the end
    assert seen["result"] == seen["ranks"] and sorted(seen["ranks"]) == [1, 2]
    assert seen["page names the game"]
    assert seen["board scripts"] == 0  # no drawing of its own: the frames' views as they are
    assert seen["boards"] == [["nim", 2, 1]]  # one bot version, on the 2-player Nim board
