"""`arena validate` passes a starter bot made by `arena new-bot` and finds each broken bot's
failure, with the right hint."""

import json
import time
from pathlib import Path

import pytest

from arena.new_bot import new_bot
from arena.records import TimeControl
from arena.sandbox import SandboxPolicy, bwrap_problem
from arena.validation import Status, validate
from tests.support.bots import sandboxed_misbehaving_bot
from tests.support.node import requires_npm
from tests.support.processes import bot_processes
from tests.tournament.helpers import run_cli

pytestmark = pytest.mark.slow  # real bot processes play validation games

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"
TEST_BOTS = HERE.parent / "bots"  # the referee's misbehaving bots
QUICK = TimeControl(ready_seconds=3.0)
# Checks of time against a limit: they warn past half the limit, which a loaded machine (CI)
# can reach, so the tests require only that they do not fail.
TIMED_CHECKS = ("start to ready", "reply times")


def statuses(report):
    return {check.name: check.status for check in report.checks}


def test_the_python_starter_passes_every_check_of_every_game(tmp_path):
    new_bot("starter", "python", tmp_path / "starter")
    report = validate(str(tmp_path / "starter"), seed=11)
    assert report.passed, [c for c in report.checks if c.status is Status.FAIL]
    results = statuses(report)
    for name in ("manifest", "handshake", "token", "clean exit", "same seed, same game"):
        assert results[name] is Status.PASS, name
    for name in TIMED_CHECKS:  # a loaded machine may make them warn, never fail
        assert results[name] in (Status.PASS, Status.WARN), name
    for game, seats in (("oregon", 4), ("ogallala", 5), ("merkator", 4)):
        for opponent in ("vs random", "vs itself"):
            assert results[f"{game}, 2 seats, {opponent}"] is Status.PASS
            assert results[f"{game}, {seats} seats, {opponent}"] is Status.PASS
        # a kind random play missed is played from a constructed position: none stays unreached
        assert results[f"{game}, decision kinds"] is Status.PASS
    assert results["games at once"] is Status.SKIP
    from_positions = [name for name in results if name.endswith(" from a position")]
    assert from_positions, "seed 11's games miss Oregon's DISCARD_WHEN_STUCK, at least"
    assert all(results[name] is Status.PASS for name in from_positions)


@requires_npm
def test_the_node_starter_passes(tmp_path):
    new_bot("node-starter", "node", tmp_path / "starter")
    report = validate(str(tmp_path / "starter"), game="oregon", seed=5)
    assert report.passed, [c for c in report.checks if c.status is Status.FAIL]
    assert statuses(report)["same seed, same game"] is Status.PASS


@pytest.mark.parametrize(
    "bot, check, detail, hint",
    [
        (BOTS / "bad-manifest", "manifest", "'games' must be a non-empty list", "bot.toml needs"),
        (
            TEST_BOTS / "never-ready",
            "start to ready",
            "never listened on ARENA_BOT_ADDRESS",
            "not on an address of the bot's own",
        ),
        (
            TEST_BOTS / "not-grpc",
            "start to ready",
            "its socket answers in HTTP/1 ('HTTP/1.1 400 Bad Request'), not HTTP/2",
            "the bot must serve gRPC (HTTP/2 without TLS)",
        ),
        (
            BOTS / "wrong-name",
            "handshake",
            "name 'impostor', expected 'wrong-name'",
            "the name in bot.toml",
        ),
        (BOTS / "open-door", "token", "answered a call with a wrong token", "UNAUTHENTICATED"),
        (
            TEST_BOTS / "out-of-range",
            "oregon, 2 seats, vs random",
            "ILLEGAL: index",
            "an index into its legal_actions",
        ),
        (
            BOTS / "traceback",
            "oregon, 2 seats, vs random",
            "error: KeyError: 'no plan for",
            "--bot-logs",
        ),
        (BOTS / "unseeded", "same seed, same game", "the games part at action", "ARENA_BOT_SEED"),
    ],
)
def test_each_broken_bot_fails_its_check_with_a_hint(bot, check, detail, hint):
    report = validate(str(bot), game="oregon", seed=3, time_control=QUICK)
    assert not report.passed
    [found] = [c for c in report.checks if c.name == check]
    assert found.status is Status.FAIL, found
    assert detail in found.detail
    assert hint in found.hint
    failed = [c.name for c in report.checks if c.status is Status.FAIL]
    assert failed == [check], "one failure, the others pass or are skipped"


def test_a_command_that_is_not_there_gets_the_hint_that_fits(tmp_path):
    """Not the hint about the listening address: the program named is missing (a compiled bot
    written as ["bot"], or not built)."""
    directory = tmp_path / "unbuilt"
    directory.mkdir()
    (directory / "bot.toml").write_text(
        'name = "unbuilt"\nversion = "1"\ncommand = ["./bot"]\ngames = ["oregon"]\n'
    )
    report = validate(str(directory), game="oregon", seed=3, time_control=QUICK)
    [found] = [c for c in report.checks if c.name == "files"]  # before any process starts
    assert found.status is Status.FAIL
    assert found.detail == f"{directory}: ./bot does not exist: bot.toml has no build step, " + (
        "so put the program there (build it on your machine), or add a `build` that makes it"
    )
    assert "start to ready" not in statuses(report)
    (directory / "bot.toml").write_text(  # a program looked up on PATH, not found there
        'name = "unbuilt"\nversion = "1"\ncommand = ["no-such-program"]\ngames = ["oregon"]\n'
    )
    report = validate(str(directory), game="oregon", seed=3, time_control=QUICK)
    [found] = [c for c in report.checks if c.name == "start to ready"]
    assert found.status is Status.FAIL
    assert "must name a program that exists" in found.hint
    assert "ARENA_BOT_ADDRESS exactly" not in found.hint


def test_a_bot_that_fails_only_at_a_rare_kind_fails_in_its_position():
    # Random play (seed 3) never reaches Oregon's DISCARD_WHEN_STUCK; its position does.
    report = validate(str(BOTS / "stuck-crash"), game="oregon", seed=3, time_control=QUICK)
    failed = [c for c in report.checks if c.status is Status.FAIL]
    assert [c.name for c in failed] == ["oregon, DISCARD_WHEN_STUCK from a position"], failed
    assert "CRASH" in failed[0].detail and "no plan for DISCARD_WHEN_STUCK" in failed[0].detail
    assert "after 110 decisions made by the arena" in failed[0].detail
    assert statuses(report)["oregon, decision kinds"] is Status.SKIP


def test_a_crash_shows_the_error_line_not_the_last_stack_frame():
    report = validate(str(BOTS / "traceback"), game="oregon", seed=3, time_control=QUICK)
    [crash] = [c for c in report.checks if c.status is Status.FAIL]
    assert "CRASH" in crash.detail and "error: KeyError: 'no plan for" in crash.detail
    assert 'File "' not in crash.detail


def test_the_command_prints_json_and_exits_by_the_result(tmp_path):
    new_bot("cli-bot", "python", tmp_path / "cli-bot")
    good = run_cli("validate", str(tmp_path / "cli-bot"), "--game", "merkator", "--json")
    assert good.exit_code == 0, good.stdout
    assert json.loads(good.stdout)["passed"] is True
    bad = run_cli("validate", str(BOTS / "bad-manifest"))
    assert bad.exit_code == 1 and "FAIL" in bad.stdout and "manifest" in bad.stdout
    assert run_cli("validate", str(tmp_path / "missing")).exit_code == 2
    assert run_cli("validate", str(tmp_path / "cli-bot"), "--game", "chess").exit_code == 2


@pytest.fixture
def running_bot(tmp_path, monkeypatch):
    """random-python started by hand at a Unix socket with a token, as an operator would."""
    import os
    import subprocess
    import sys
    import time

    address = f"unix:{tmp_path}/remote.sock"
    env = {
        **os.environ,
        "ARENA_BOT_ADDRESS": address,
        "ARENA_BOT_SEED": "4",
        "ARENA_BOT_TOKEN": "operator-secret",
    }
    process = subprocess.Popen(
        [sys.executable, "bot.py"], cwd=HERE.parents[1] / "sample_bots" / "random-python", env=env
    )
    while not (tmp_path / "remote.sock").exists() and process.poll() is None:
        time.sleep(0.01)
    monkeypatch.setenv("ARENA_REMOTE_BOT_TOKEN", "operator-secret")
    yield address
    process.kill()
    process.wait()


def test_a_bot_running_elsewhere_plays_several_games_at_once(running_bot, monkeypatch):
    report = validate(f"random-python@{running_bot}", game="oregon", seed=2)
    assert report.passed, [c for c in report.checks if c.status is Status.FAIL]
    results = statuses(report)
    assert results["token"] is Status.PASS
    assert results["games at once"] is Status.PASS
    assert results["same seed, same game"] is Status.SKIP  # its operator seeds it
    assert "clean exit" not in results  # not the arena's process to stop
    misnamed = validate(f"someone@{running_bot}", game="oregon", seed=2)
    [handshake] = [c for c in misnamed.checks if c.name == "handshake"]
    assert handshake.status is Status.FAIL and "expected 'someone'" in handshake.detail
    monkeypatch.delenv("ARENA_REMOTE_BOT_TOKEN")
    untokened = validate(f"random-python@{running_bot}", game="oregon", seed=2)
    [start] = [c for c in untokened.checks if c.name == "start to ready"]
    assert start.status is Status.FAIL and "UNAUTHENTICATED" in start.detail
    assert "ARENA_REMOTE_BOT_TOKEN" in start.hint


needs_bwrap = pytest.mark.skipif(
    bwrap_problem() is not None,
    reason=f"no sandbox on this machine: {bwrap_problem()} (scripts/setup installs bubblewrap)",
)
SANDBOX = SandboxPolicy(tool="bwrap")


def _starter(directory: Path) -> Path:
    new_bot("starter", "python", directory)
    return directory


@needs_bwrap
def test_a_bot_whose_code_lies_outside_its_directory_fails_in_the_sandbox(tmp_path):
    # It passed every check unconfined, then crashed in every sandboxed match: validate runs
    # the bot as a match does, in the sandbox, where only the bot's directory is visible.
    bot = _starter(tmp_path / "starter")
    (bot / "bot.py").rename(tmp_path / "bot.py")
    manifest = bot / "bot.toml"
    manifest.write_text(manifest.read_text().replace('"bot.py"', '"../bot.py"'))
    unconfined = validate(str(bot), game="oregon", seed=3, time_control=QUICK)
    assert statuses(unconfined)["start to ready"] in (Status.PASS, Status.WARN)
    confined = validate(str(bot), game="oregon", seed=3, time_control=QUICK, sandbox=SANDBOX)
    assert confined.sandbox == "bwrap"
    [ready] = [c for c in confined.checks if c.name == "start to ready"]
    assert ready.status is Status.FAIL and "No such file" in ready.detail
    assert "--sandbox none" in ready.hint


@needs_bwrap
@pytest.mark.parametrize("sandbox", [SANDBOX, None], ids=["bwrap", "none"])
def test_the_clean_exit_check_reaches_the_bot_itself(tmp_path, sandbox):
    # SIGTERM goes to the bot's program, not to bwrap (which passes no signal on): the starter
    # exits cleanly, a bot that ignores SIGTERM fails, sandboxed or not.
    good = validate(str(_starter(tmp_path / "good")), game="merkator", seed=3, sandbox=sandbox)
    assert statuses(good)["clean exit"] is Status.PASS, good.checks
    stubborn = _starter(tmp_path / "stubborn")
    code = (stubborn / "bot.py").read_text()
    (stubborn / "bot.py").write_text(
        "import signal\n\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "signal.signal = lambda *args: None  # nor may the SDK handle it\n\n" + code
    )
    report = validate(str(stubborn), game="merkator", seed=3, sandbox=sandbox)
    [exit_check] = [c for c in report.checks if c.name == "clean exit"]
    assert exit_check.status is Status.FAIL and "after SIGTERM" in exit_check.detail


@needs_bwrap
def test_the_command_validates_in_the_sandbox_unless_told_not_to(tmp_path):
    bot = str(_starter(tmp_path / "starter"))
    confined = run_cli("validate", bot, "--game", "oregon", "--json")
    assert confined.exit_code == 0, confined.stdout
    assert json.loads(confined.stdout)["sandbox"] == "bwrap"
    unconfined = run_cli("validate", bot, "--game", "oregon", "--sandbox", "none")
    assert unconfined.exit_code == 0, unconfined.stdout
    assert "unsandboxed" in unconfined.stdout.splitlines()[0]
    assert run_cli("validate", bot, "--sandbox", "docker").exit_code == 2


def test_bot_logs_keeps_the_build_log_and_every_processs_log(tmp_path):
    bot = _starter(tmp_path / "built")
    (bot / "build.sh").write_text("echo compiling the starter\necho built > built.txt\n")
    manifest = bot / "bot.toml"
    manifest.write_text(manifest.read_text() + 'build = ["sh", "build.sh"]\n')
    logs = tmp_path / "logs"
    result = run_cli(
        "validate", str(bot), "--game", "oregon", "--seed", "3", "--bot-logs", str(logs), "--json"
    )
    assert result.exit_code == 0, result.stdout
    checks = {check["name"]: check for check in json.loads(result.stdout)["checks"]}
    assert checks["build"]["status"] == "PASS" and (bot / "built.txt").read_text() == "built\n"
    assert "compiling the starter" in (logs / "build-starter.log").read_text()
    assert (logs / "process.log").is_file()
    for game in (
        "oregon-2-seats-vs-random",
        "oregon-4-seats-vs-itself",
        "oregon-2-seats-vs-random-again",
    ):
        assert any("-starter-" in path.name for path in (logs / game).iterdir()), game


def test_a_failed_build_fails_validate_with_its_cause_and_skips_the_rest(tmp_path):
    bot = _starter(tmp_path / "broken")
    (bot / "build.sh").write_text("echo 'bot.c:1:1: error: nothing to build' >&2\nexit 1\n")
    manifest = bot / "bot.toml"
    manifest.write_text(manifest.read_text() + 'build = ["sh", "build.sh"]\n')
    report = validate(str(bot), game="oregon", seed=3)
    assert [check.name for check in report.checks] == ["manifest", "build"]
    build = report.checks[1]
    assert build.status is Status.FAIL
    assert "exited with code 1; error: bot.c:1:1: error: nothing to build; log: " in build.detail
    assert build.hint.startswith("the log shows the build's whole output: fix the error")
    Path(build.detail.rpartition("log: ")[2]).unlink()


@pytest.mark.skipif(bwrap_problem() is not None, reason="no sandbox here")
def test_a_build_whose_program_the_sandbox_lacks_is_told_so(tmp_path):
    """rustup's cargo lives in ~/.cargo, which the sandbox hides: by hand the build passed, and
    the hint said to run it by hand (outside review G); the sandbox's own shell named itself by
    the file it reads the environment from."""
    bot = _starter(tmp_path / "rusty")
    manifest = bot / "bot.toml"
    manifest.write_text(manifest.read_text() + 'build = ["cargo-in-my-home", "build"]\n')
    report = validate(str(bot), game="oregon", seed=3, sandbox=SandboxPolicy())
    build = report.checks[1]
    assert build.status is Status.FAIL
    assert "exited with code 127" in build.detail and "cargo-in-my-home: not found" in build.detail
    assert "arena-env" not in build.detail
    assert build.hint.startswith("the build's program is not in the sandbox")
    Path(build.detail.rpartition("log: ")[2]).unlink()


def test_a_validation_past_its_time_budget_fails_soon_and_stops_the_bot():
    """A bot answering just within the per-decision limit held a hosted arena's only worker for
    about 50 minutes of validation games (outside review): the checks now have a budget."""
    started = time.monotonic()
    # "slow" takes 0.15 s over every decision: its oregon games alone take longer than 3 s
    report = validate(str(TEST_BOTS / "slow"), game="oregon", seed=3, seconds=3)
    assert time.monotonic() - started < 3 + 10  # stopping the bot's games takes a moment
    budget = report.checks[-1]
    assert (budget.name, budget.status) == ("time budget", Status.FAIL), report.checks
    assert "took longer than its budget of 3 s" in budget.detail
    assert "make the bot reply faster" in budget.hint
    assert not report.passed
    assert not bot_processes()  # its processes stopped with the checks


def test_the_command_takes_a_time_budget_in_minutes():
    bot = str(TEST_BOTS / "slow")
    budget_of_6_s = ("--validation-minutes", "0.1", "--sandbox", "none")  # slow: ../misbehave.py
    result = run_cli("validate", bot, "--game", "oregon", *budget_of_6_s, "--json")
    assert result.exit_code == 1, result.stdout
    budget = json.loads(result.stdout)["checks"][-1]
    assert budget["name"] == "time budget" and "budget of 6 s" in budget["detail"]


def test_each_check_names_where_its_logs_are_kept(tmp_path):
    """So that a hosted arena's worker quotes the failed check's logs, not others."""
    logs = tmp_path / "logs"
    report = validate(str(BOTS / "traceback"), game="oregon", seed=3, bot_logs=logs)
    results = {check.name: check for check in report.checks}
    failed = results["oregon, 2 seats, vs random"]
    assert failed.status is Status.FAIL and failed.logs == "oregon-2-seats-vs-random"
    [own] = (logs / failed.logs).glob("*-seat0-traceback-*.log")
    assert "KeyError: 'no plan for" in own.read_text()
    assert results["start to ready"].logs == "process.log" and (logs / "process.log").is_file()
    unkept = validate(str(BOTS / "traceback"), game="oregon", seed=3)
    assert {check.logs for check in unkept.checks} == {""}


def _stalling_bot(directory: Path, mode: str) -> Path:
    """A misbehaving test bot (``tests/bots/misbehave.py``) whose processes share one stall."""
    directory.mkdir()
    (directory / "bot.toml").write_text(
        f'name = "{mode}"\nversion = "1.0.0"\n'
        f'command = ["python", "{TEST_BOTS / "misbehave.py"}", "{mode}"]\ngames = ["oregon"]\n'
        f'[env]\nMISBEHAVE_ONCE = "{directory / "stalled"}"\n'
    )
    return directory


def test_one_game_lost_on_time_is_played_again_and_only_warns(tmp_path):
    """A loaded host's one pause failed a correct hosted upload for good (outside review): a
    game the bot loses on time is played again once, with the same seed."""
    report = validate(str(_stalling_bot(tmp_path / "bot", "stall-once")), game="oregon", seed=3)
    assert report.passed, [c for c in report.checks if c.status is Status.FAIL]
    assert (tmp_path / "bot" / "stalled").exists()  # it did stall
    times = statuses(report)["reply times"]
    assert times is Status.WARN
    [check] = [c for c in report.checks if c.name == "reply times"]
    assert "lost on time, then played again: oregon (no Decide reply within 2 s" in check.detail


def test_a_bot_late_again_in_the_same_game_fails():
    report = validate(str(TEST_BOTS / "sleeper"), game="oregon", seed=3)
    results = {check.name: check for check in report.checks}
    failed = results["oregon, 2 seats, vs random"]
    assert failed.status is Status.FAIL, report.checks
    assert "reply within the per-decision limit" in failed.hint
    assert "lost on time, then played again: oregon" in results["reply times"].detail


@needs_bwrap
def test_a_handshake_answered_twice_fails_the_handshake_check(tmp_path):
    """As in a match (ILLEGAL, not a start that failed): the frame filter ends the call at its
    second reply, and botprocess says so by the error's kind, not by its words."""
    bot = sandboxed_misbehaving_bot("handshake-twice", tmp_path)
    report = validate(str(bot.directory), game="oregon", seed=3, sandbox=SANDBOX)
    [handshake] = [c for c in report.checks if c.name == "handshake"]
    assert handshake.status is Status.FAIL
    assert handshake.detail == "answered Handshake twice (the call takes one reply)"
    assert "start to ready" not in statuses(report)


def test_a_bot_leaving_end_game_unanswered_is_warned_of():
    """It passed every check, and in a tournament its process was replaced after every game
    (outside review)."""
    report = validate(str(TEST_BOTS / "end-game-sleep"), game="oregon", seed=3, time_control=QUICK)
    [first] = [c for c in report.checks if c.name == "oregon, 2 seats, vs random"]
    assert first.status is Status.WARN
    assert first.detail.endswith("; EndGame not acknowledged within 2 s (seat 0)")
    assert first.hint.startswith("return from EndGame at once: a tournament replaces")
    assert report.passed, "a warning, not a failure: the games were played by the rules"


def test_a_remote_bots_version_is_checked_as_submit_checks_it():
    """A 100,000-character version passed every check (390 KB of report) and `arena submit
    --address` then refused it (outside review)."""
    from arena.bot.v1 import bot_pb2
    from arena.validation.process import handshake_check

    reply = bot_pb2.HandshakeReply(
        name="far", version="\x1b[2J" + "v" * 100_000, protocol_version=1, games=["oregon"] * 9999
    )
    remote = handshake_check(reply, "far", ["oregon"], remote=True)
    assert remote.status is Status.FAIL and "at most 64 printable characters" in remote.detail
    assert len(remote.detail) < 300
    chess = bot_pb2.HandshakeReply(
        name="far", version="1", protocol_version=1, games=["chess", "oregon"]
    )
    refused = handshake_check(chess, "far", ["oregon"], remote=True)  # as submit refuses it
    assert refused.status is Status.FAIL
    assert "lists game(s) this arena does not have: 'chess'" in refused.detail
    local = handshake_check(reply, "far", ["oregon"], remote=False)  # bot.toml's is stored
    assert local.status is Status.PASS and len(local.detail) < 400, local.detail
    assert "\x1b" not in local.detail
