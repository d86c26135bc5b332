"""bot.toml's build step (arena.building): run in the bot's sandbox on a copy of its directory,
the result copied back; a failure or a timeout is one line naming the cause and the kept log,
and leaves the directory as it was."""

import os
import stat
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import arena
from arena.building import BuildError, build_bot, mirror
from arena.errors import ManifestError
from arena.manifest import load_manifest
from arena.new_bot import new_bot
from arena.sandbox import SandboxPolicy, bwrap_problem, seccomp
from tests.sandbox.conftest import is_uid_inside
from tests.tournament.helpers import SAMPLE_BOTS, run_cli

pytestmark = pytest.mark.slow  # real sandboxes

needs_bwrap = pytest.mark.skipif(
    bwrap_problem() is not None, reason=f"no sandbox on this machine: {bwrap_problem()}"
)
SANDBOX = SandboxPolicy()


def bot_dir(tmp_path, script, build='["sh", "build.sh"]'):
    directory = tmp_path / "bot"
    directory.mkdir()
    (directory / "bot.toml").write_text(
        f'name = "b"\nversion = "1"\ncommand = ["./bot"]\nbuild = {build}\ngames = ["oregon"]\n'
    )
    (directory / "build.sh").write_text(script)
    (directory / "kept.txt").write_text("the author's")
    return directory


@needs_bwrap
def test_a_build_in_the_sandbox_writes_its_result_into_the_directory(tmp_path):
    directory = bot_dir(
        tmp_path,
        "set -e\nid -u > uid.txt\nprintf '#!/bin/sh\\n' > bot\nchmod 4755 bot\n"
        "rm kept.txt\nln -s bot link\nmkdir -p out/deep && echo x > out/deep/file\n"
        "touch $HOME/cache\n",
    )
    built = build_bot(load_manifest(directory), SANDBOX)
    assert built is not None and built.sandboxed
    # it ran as the sandbox's unprivileged uid, never root
    assert is_uid_inside(0, (directory / "uid.txt").read_text().strip())
    mode = (directory / "bot").stat().st_mode
    assert mode & stat.S_ISUID == 0 and stat.S_IMODE(mode) == 0o755
    assert not (directory / "kept.txt").exists()  # the build removed it
    assert os.readlink(directory / "link") == "bot"
    assert (directory / "out" / "deep" / "file").read_text() == "x\n"
    assert (directory / "bot").stat().st_uid == os.geteuid()  # copied back as the arena's user


@needs_bwrap
def test_a_failed_build_names_its_cause_keeps_its_log_and_changes_nothing(tmp_path):
    directory = bot_dir(
        tmp_path, "echo compiling\necho 'bot.c:3:1: error: expected ;' >&2\ntouch new\nexit 2\n"
    )
    with pytest.raises(BuildError) as failed:
        build_bot(load_manifest(directory), SANDBOX)
    message = str(failed.value)
    assert "\n" not in message
    assert "build `sh build.sh` exited with code 2" in message
    assert "error: bot.c:3:1: error: expected ;" in message
    log = message.rpartition("log: ")[2]
    assert "compiling" in open(log).read()
    os.unlink(log)
    assert sorted(path.name for path in directory.iterdir()) == ["bot.toml", "build.sh", "kept.txt"]


@needs_bwrap
def test_a_build_that_runs_too_long_is_stopped(tmp_path):
    directory = bot_dir(tmp_path, "sleep 60 &\nsleep 60\n")
    with pytest.raises(BuildError, match="did not finish within 1 s"):
        build_bot(load_manifest(directory), SANDBOX, seconds=1)


@needs_bwrap
def test_a_build_sees_no_network_and_nothing_of_the_host_to_write(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    os.chmod(outside, 0o777)
    directory = bot_dir(
        tmp_path,
        f"touch {outside}/x 2> touch.txt || echo refused >> touch.txt\n"
        "cat /proc/net/dev | grep -c : > interfaces.txt\n",
    )
    build_bot(load_manifest(directory), SANDBOX)
    assert not (outside / "x").exists()
    assert "refused" in (directory / "touch.txt").read_text()
    assert (directory / "interfaces.txt").read_text().strip() == "1"  # its own loopback only


def test_without_a_sandbox_the_build_runs_in_the_directory(tmp_path):
    directory = bot_dir(tmp_path, "pwd > where.txt\n")
    built = build_bot(load_manifest(directory), None)
    assert built is not None and not built.sandboxed
    assert (directory / "where.txt").read_text().strip() == str(directory.resolve())


def test_a_bot_without_build_is_not_built(tmp_path):
    directory = tmp_path / "bot"
    directory.mkdir()
    (directory / "bot.toml").write_text(
        'name = "b"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
    )
    assert build_bot(load_manifest(directory), SANDBOX) is None


@pytest.mark.parametrize(
    "build, problem",
    [
        ('"sh build.sh"', "'build' must be a non-empty list of strings"),
        ("[]", "'build' must be a non-empty list of strings"),
        ('["build.sh"]', "'build': 'build.sh' is looked up on PATH"),
    ],
)
def test_a_malformed_build_is_a_manifest_error(tmp_path, build, problem):
    directory = bot_dir(tmp_path, "true\n", build=build)
    with pytest.raises(ManifestError, match=problem):
        load_manifest(directory)


def test_mirror_never_follows_a_link_of_the_target(tmp_path):
    """The build replaced a link of the author's directory by a directory: the link goes, and
    nothing is written where it led."""
    source, target, elsewhere = tmp_path / "s", tmp_path / "t", tmp_path / "elsewhere"
    for path in (source, target, elsewhere):
        path.mkdir()
    (source / "out").mkdir()
    (source / "out" / "file").write_text("built")
    os.symlink(elsewhere, target / "out")
    mirror(source, target)
    assert not (target / "out").is_symlink() and (target / "out" / "file").read_text() == "built"
    assert list(elsewhere.iterdir()) == []


@needs_bwrap
def test_submit_builds_the_bot_first_and_refuses_one_whose_build_fails(tmp_path):
    directory = tmp_path / "starter"
    new_bot("built-starter", "python", directory)
    (directory / "build.sh").write_text("echo built > built.txt\n")
    manifest = directory / "bot.toml"
    manifest.write_text(manifest.read_text() + 'build = ["sh", "build.sh"]\n')
    database = str(tmp_path / "arena.db")
    submitted = run_cli("submit", str(directory), "--db", database)
    assert submitted.exit_code == 0, submitted.stderr
    assert submitted.stdout.startswith("built in ") and "registered" in submitted.stdout
    assert (directory / "built.txt").read_text() == "built\n"
    (directory / "build.sh").write_text("echo 'fatal: no compiler' >&2\nexit 3\n")
    refused = run_cli("submit", str(directory), "--db", database)
    assert refused.exit_code == 2
    [line] = refused.stderr.strip().splitlines()
    assert "exited with code 3; error: fatal: no compiler; log: " in line
    os.unlink(line.rpartition("log: ")[2])


@needs_bwrap
def test_a_build_in_a_sandbox_without_the_seccomp_filter_writes_its_result_too(
    tmp_path, monkeypatch
):
    """Without libseccomp the sandbox has another shape (as root, a bwrap inside a bwrap, each
    showing the build's copy at the bot's path), and the build still writes the directory."""
    monkeypatch.setattr(seccomp, "filter_program", lambda: None)
    directory = bot_dir(tmp_path, "echo built > built.txt\n")
    built = build_bot(load_manifest(directory), SANDBOX)
    assert built is not None and built.sandboxed
    assert (directory / "built.txt").read_text() == "built\n"


@needs_bwrap
def test_a_bot_inside_the_arenas_own_code_is_not_built_there(tmp_path):
    spec = load_manifest(bot_dir(tmp_path, "true\n"))
    inside = replace(spec, directory=Path(arena.__file__).parent / "starters" / "python")
    with pytest.raises(BuildError, match="writable inside a directory every sandbox shows"):
        build_bot(inside, SANDBOX)


def _compiled_starter(tmp_path: Path) -> Path:
    """A Python starter made to look compiled: its command is ``./bot``, which only its build
    writes (a script that runs the bot with the arena's interpreter)."""
    directory = tmp_path / "compiled"
    new_bot("compiled", "python", directory)
    (directory / "build.sh").write_text(
        f"printf '#!/bin/sh\\nexec {sys.executable} bot.py\\n' > bot\nchmod 755 bot\n"
    )
    manifest = directory / "bot.toml"
    text = manifest.read_text().replace('command = ["python", "bot.py"]', 'command = ["./bot"]')
    manifest.write_text(text + 'build = ["sh", "build.sh"]\n')
    assert 'command = ["./bot"]' in manifest.read_text()
    return directory


@needs_bwrap
def test_a_tournament_builds_the_directories_it_registers(tmp_path):
    """`--bots DIR` submits DIR on the way, build included, as `arena submit` does: the code
    registered and played is the code built from the directory."""
    directory = _compiled_starter(tmp_path)
    played = run_cli(
        "tournament",
        "--game",
        "oregon",
        "--bots",
        f"{directory},{SAMPLE_BOTS / 'random-python'}",
        "--deals",
        "1",
        "--db",
        str(tmp_path / "arena.db"),
    )
    assert played.exit_code == 0, played.stderr
    assert (directory / "bot").is_file()


def test_a_match_names_the_missing_build_in_one_line(tmp_path):
    directory = _compiled_starter(tmp_path)
    refused = run_cli(
        "match",
        "--game",
        "oregon",
        str(directory),
        str(SAMPLE_BOTS / "random-python"),
        "--no-store",
    )
    assert refused.exit_code == 2
    [line] = refused.stderr.strip().splitlines()
    assert f"{directory}: ./bot does not exist: build it first by running `sh build.sh`" in line


@needs_bwrap
def test_a_command_the_build_did_not_make_is_named_after_the_build(tmp_path):
    """A typo in bot.toml's command: after a build that succeeded, the author was told to build
    it first (outside review)."""
    directory = bot_dir(tmp_path, "printf '#!/bin/sh\\n' > bot && chmod +x bot\n")
    manifest = directory / "bot.toml"
    manifest.write_text(manifest.read_text().replace('["./bot"]', '["./bott"]'))
    refused = run_cli("submit", str(directory), "--db", str(tmp_path / "arena.db"))
    assert refused.exit_code == 2, refused.output
    [line] = refused.stderr.strip().splitlines()
    assert line.endswith(
        "./bott does not exist after the build: check that bot.toml's command names the "
        "program `sh build.sh` makes"
    ), line
    assert (directory / "bot").is_file()


# --- what a hostile build may leave (outside review) -----------------------------------------


@needs_bwrap
def test_a_build_cannot_leave_more_than_its_disk_limit(tmp_path):
    """Three 400 MiB files: over the build's 1024 MiB, so nothing is copied back (the copy of the
    bot was the host's disk, unbounded but for each file; as root it is a capped tmpfs now)."""
    directory = bot_dir(tmp_path, "for i in 1 2 3; do fallocate -l 400M big$i || exit 3; done\n")
    with pytest.raises(BuildError) as refused:
        build_bot(load_manifest(directory), SANDBOX)
    message = str(refused.value)
    assert "\n" not in message and ("1024 MiB" in message or "exited with code 3" in message)
    assert not any(directory.glob("big*"))
    os.unlink(message.rpartition("log: ")[2])


@needs_bwrap
def test_sparse_files_count_at_the_size_they_are_copied_back_at(tmp_path):
    """Four sparse 500 MiB files cost the build's tmpfs nothing, but the copy back wrote them
    dense: a 400-byte upload left 2 GB on the host's disk (outside review)."""
    directory = bot_dir(tmp_path, "for i in 1 2 3 4; do truncate -s 500M s$i || exit 3; done\n")
    with pytest.raises(BuildError, match="left 2000 MiB in the bot's directory, over its 1024") as (
        refused
    ):
        build_bot(load_manifest(directory), SANDBOX)
    assert not any(directory.glob("s*"))
    os.unlink(str(refused.value).rpartition("log: ")[2])


@needs_bwrap
def test_a_build_that_leaves_a_deep_tree_is_refused_in_one_line(tmp_path):
    """2,500 nested directories crashed the copy back (a RecursionError: a traceback, and the
    hosted worker died for every author)."""
    directory = bot_dir(
        tmp_path, "python3 -c \"import os\nfor _ in range(2500): os.mkdir('d'); os.chdir('d')\"\n"
    )
    with pytest.raises(BuildError, match="left a directory tree deeper than 100 levels") as refused:
        build_bot(load_manifest(directory), SANDBOX)
    assert not (directory / "d").exists()
    os.unlink(str(refused.value).rpartition("log: ")[2])


@needs_bwrap
def test_nobody_else_may_write_what_a_build_leaves(tmp_path):
    directory = bot_dir(
        tmp_path, "mkdir out && echo x > out/f && chmod 0777 out && chmod 0666 out/f\n"
    )
    build_bot(load_manifest(directory), SANDBOX)
    assert stat.S_IMODE((directory / "out").stat().st_mode) == 0o755
    assert stat.S_IMODE((directory / "out" / "f").stat().st_mode) == 0o644


@needs_bwrap
def test_a_fifo_in_the_bots_directory_is_left_out_of_the_build(tmp_path):
    directory = bot_dir(tmp_path, "echo built > built.txt\n")
    os.mkfifo(directory / "pipe")
    build_bot(load_manifest(directory), SANDBOX)  # was a shutil.Error traceback
    assert (directory / "built.txt").read_text() == "built\n"


@needs_bwrap
def test_a_builds_escape_sequences_never_reach_the_terminal(tmp_path):
    directory = bot_dir(tmp_path, "printf 'error: \\033]0;PWNED\\007\\033[2J gone\\n'; exit 1\n")
    with pytest.raises(BuildError) as refused:
        build_bot(load_manifest(directory), SANDBOX)
    message = str(refused.value)
    assert "\x1b" not in message and "\x07" not in message
    assert "\\x1b]0;PWNED" in message
    os.unlink(message.rpartition("log: ")[2])
