"""A bot directory its sandboxed uid cannot read (made under ``umask 077``): as root the sandbox
runs the bot as a user of its own, so such a bot failed at start with "Permission denied" and a
hint about its listening address. Now ``arena new-bot`` writes a directory anyone may read, and
match, submit, validate and the build refuse an unreadable one in one line that says what to
run."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from arena.new_bot import new_bot
from arena.sandbox import SandboxPolicy, unreadable_problem
from tests.sandbox.conftest import needs_bwrap
from tests.tournament.helpers import SAMPLE_BOTS, run_cli

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root's sandbox runs as another uid")


def test_new_bot_writes_a_directory_anyone_may_read_under_any_umask(tmp_path: Path):
    previous = os.umask(0o077)
    try:
        new_bot("private", "python", tmp_path / "bot")
    finally:
        os.umask(previous)
    for root, _directories, files in os.walk(tmp_path / "bot"):
        assert stat.S_IMODE(os.stat(root).st_mode) & 0o005 == 0o005, root
        for name in files:
            assert os.stat(Path(root) / name).st_mode & stat.S_IROTH, name


@as_root
def test_an_unreadable_file_is_named_with_the_command_that_fixes_it(tmp_path: Path):
    directory = tmp_path / "bot"
    new_bot("private", "python", directory)
    assert unreadable_problem(directory, SandboxPolicy()) == ""
    assert unreadable_problem(directory, None) == ""  # unconfined: the arena's own user reads
    (directory / "bot.py").chmod(0o600)
    problem = unreadable_problem(directory, SandboxPolicy())
    assert problem == (
        f"{directory}: the sandbox runs the bot as a user of its own, which cannot read "
        f"{directory / 'bot.py'}: run `chmod -R a+rX {directory}`"
    )
    assert unreadable_problem(directory, SandboxPolicy(tool="none")) == ""
    (directory / "bot.py").chmod(0o644)
    directory.chmod(0o700)
    assert "which cannot open" in unreadable_problem(directory, SandboxPolicy())


@as_root
@needs_bwrap
@pytest.mark.slow  # real CLI runs
def test_match_submit_and_validate_refuse_an_unreadable_bot_in_one_line(tmp_path: Path):
    directory = tmp_path / "bot"
    new_bot("private", "python", directory)
    (directory / "bot.py").chmod(0o600)
    fix = f"run `chmod -R a+rX {directory}`"
    db = str(tmp_path / "arena.db")
    match = run_cli(
        "match", "-g", "oregon", str(directory), str(SAMPLE_BOTS / "random-python"), "--db", db
    )
    submit = run_cli("submit", str(directory), "--db", db)
    for refused in (match, submit):
        assert refused.exit_code == 2, refused.output
        [line] = refused.stderr.strip().splitlines()
        assert line.endswith(fix), line
    validated = run_cli("validate", str(directory), "--game", "oregon", "--json")
    assert validated.exit_code == 1
    assert fix in validated.stdout and "Permission denied" not in validated.stdout
