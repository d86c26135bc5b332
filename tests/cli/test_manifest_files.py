"""A bot.toml that is no ordinary small file (outside review D, L1 and L6): a FIFO hung
`arena tournament`, `submit` and `validate`; a link to /dev/zero read until memory ran out, deaf to
SIGTERM; arrays nested 100,000 deep were a RecursionError of 3,000 lines. Each is now a malformed
manifest, in one line."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.bots import ROOT, SAMPLE_BOTS
from tests.tournament.helpers import run_cli

MANIFEST_LIMIT = 64 * 1024  # bytes (arena.manifest.MAX_MANIFEST_BYTES)
VALID = 'name = "b"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["*"]\n'

# The real command line in a child process with 1 GiB of address space and a time limit: before
# the fix, the FIFO waited for ever and /dev/zero filled the machine's memory.
ARENA_IN_A_BOX = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from arena.cli import main
main()
"""


def bot_dir(tmp_path: Path) -> Path:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text((SAMPLE_BOTS / "random-python" / "bot.py").read_text())
    return bot


def assert_one_line(returncode: int, stderr: str, message: str, code: int = 2) -> None:
    assert "Traceback" not in stderr, stderr
    assert returncode == code, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert message in lines[0]


@pytest.mark.parametrize(
    ("kind", "command"),
    [("fifo", "tournament"), ("fifo", "submit"), ("dev-zero", "submit")],
)
def test_a_manifest_that_is_no_regular_file_is_refused_at_once(tmp_path: Path, kind, command):
    bot = bot_dir(tmp_path)
    if kind == "fifo":
        os.mkfifo(bot / "bot.toml")
    else:
        (bot / "bot.toml").symlink_to("/dev/zero")
    args = (
        ("tournament", "--game", "oregon", "--bots", f"{SAMPLE_BOTS}/random-python,{bot}")
        if command == "tournament"
        else ("submit", str(bot))
    )
    done = subprocess.run(
        [sys.executable, "-c", ARENA_IN_A_BOX, *args, "--db", str(tmp_path / "arena.db")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert_one_line(done.returncode, done.stderr, f"{bot / 'bot.toml'}: not a regular file")


def test_a_manifest_larger_than_the_limit_is_refused(tmp_path: Path):
    bot = bot_dir(tmp_path)
    padding = "#" * MANIFEST_LIMIT + "\n"  # a valid manifest, but no bot.toml is this long
    (bot / "bot.toml").write_text(VALID + padding)
    result = run_cli("submit", str(bot), "--db", str(tmp_path / "arena.db"))
    assert_one_line(result.exit_code, result.stderr, "larger than 64 KiB")
    assert not (tmp_path / "arena.db").exists()


def test_arrays_nested_too_deeply_are_a_malformed_manifest(tmp_path: Path):
    bot = bot_dir(tmp_path)
    (bot / "bot.toml").write_text(VALID + "x = " + "[" * 5000 + "]" * 5000 + "\n")
    message = f"{bot / 'bot.toml'}: invalid TOML: arrays or tables nested too deeply"
    for args in (
        ("submit", str(bot)),
        ("tournament", "--game", "oregon", "--bots", f"{SAMPLE_BOTS}/random-python,{bot}"),
    ):
        result = run_cli(*args, "--db", str(tmp_path / "arena.db"))
        assert_one_line(result.exit_code, result.stderr, message)
    validated = run_cli("validate", str(bot), "--json")  # its report: the manifest check failed
    assert validated.exit_code == 1 and "Traceback" not in validated.output
    assert "nested too deeply" in validated.stdout
