"""Resource limits of bot processes (``arena.sandbox.limits``) and kept bot logs
(``--bot-logs``): a bot over a limit forfeits with a reason that says which, the others finish;
the sample bots play under the default limits. (The autouse fixture checks that no process or
thread remains.)"""

import json
import sqlite3
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.errors import SetupError
from arena.manifest import load_manifest
from arena.records import Outcome, TimeControl
from arena.referee.botprocess import connect, run_bot
from arena.referee.log_sink import cap_note
from arena.referee.match import play_match
from arena.sandbox import SandboxPolicy
from arena.sandbox.limits import (
    BotLimits,
    LimitsUnavailableWarning,
    limited_argv,
    prlimit_path,
)
from arena.tournament.settings import TournamentSettings
from tests.support.bots import SAMPLE_BOTS, TEST_BOTS, sample_bot
from tests.support.log_names import unstamped
from tests.support.node import requires_node

LIMIT_BOTS = Path(__file__).parent / "limit_bots"
FAST = TimeControl(move_seconds=2.0)
SEED = 5
# A Python gRPC bot needs 300-400 MiB of address space to start its threads (glibc reserves an
# arena per thread): 512 MiB lets it play, yet refuses a 1 GiB allocation.
PYTHON_BOT_MEMORY = BotLimits(memory_mib=512)
runner = CliRunner()

needs_prlimit = pytest.mark.skipif(prlimit_path() is None, reason="util-linux prlimit missing")


def limit_bot(name: str):
    return load_manifest(LIMIT_BOTS / name)


@pytest.fixture
def fresh_prlimit_lookup():
    """Forget where prlimit was found, before and after the test (it is looked up once)."""
    prlimit_path.cache_clear()
    yield
    prlimit_path.cache_clear()


@needs_prlimit
def test_the_bot_command_is_wrapped_with_prlimit():
    argv = limited_argv(["node", "index.js"], BotLimits(memory_mib=300, file_mib=2))

    assert argv == [
        prlimit_path(),
        f"--as={300 * 2**20}",
        f"--fsize={2 * 2**20}",
        "--",
        "node",
        "index.js",
    ]
    # Where a cgroup counts the bot's memory, only the file size is an rlimit.
    assert limited_argv(["bot"], BotLimits(file_mib=2), address_space=False) == [
        prlimit_path(),
        f"--fsize={2 * 2**20}",
        "--",
        "bot",
    ]


def test_without_prlimit_bots_run_unlimited_after_one_warning(
    fresh_prlimit_lookup, monkeypatch, tmp_path
):
    monkeypatch.setenv("PATH", str(tmp_path))

    with pytest.warns(LimitsUnavailableWarning, match="bots run without memory and file-size"):
        assert limited_argv(["bot"], BotLimits()) == ["bot"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert limited_argv(["bot"], BotLimits()) == ["bot"], "warned only once"


@pytest.mark.parametrize(
    "limits, said",
    [
        ({"memory_mib": 255}, "from 256 to"),
        ({"memory_mib": 2**24 + 1}, "from 256 to 16,777,216 MiB"),
        ({"file_mib": 0}, "at least"),
        ({"disk_mib": 0}, "at least"),
    ],
)
def test_limits_too_small_to_run_a_bot_are_refused_as_bad_input(limits, said):
    # a SetupError (exit 2, one line), not a ValueError escaping the error tree
    with pytest.raises(SetupError, match=said):
        BotLimits(**limits)


def test_an_unknown_sandbox_is_bad_input():
    with pytest.raises(SetupError, match="sandbox must be one of bwrap, none"):
        SandboxPolicy(tool="docker")


@pytest.mark.slow
@needs_prlimit
async def test_the_bot_process_itself_runs_under_the_limits(tmp_path):
    limits = BotLimits(memory_mib=1000, file_mib=3)

    async with run_bot(sample_bot("random-python"), 0, SEED, tmp_path, limits=limits) as bot:
        client, _ = await connect(bot, "oregon", timeout=10)  # prlimit has exec'd the bot
        client.close()
        proc_limits = Path(f"/proc/{bot.process.pid}/limits").read_text().splitlines()

    # Lines like "Max file size    3145728    3145728    bytes": the soft and the hard limit.
    values = {line[:25].strip(): line[25:].split()[:2] for line in proc_limits[1:]}
    assert values["Max address space"] == [str(1000 * 2**20)] * 2
    assert values["Max file size"] == [str(3 * 2**20)] * 2


@pytest.mark.slow
@needs_prlimit
async def test_a_bot_over_its_memory_limit_crashes_and_the_others_finish():
    bots = [sample_bot("random-python"), limit_bot("memory-hog"), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=FAST, limits=PYTHON_BOT_MEMORY)

    hog = record.seats[1]
    assert hog.outcome is Outcome.CRASH
    assert "error: MemoryError" in hog.reason
    assert "out of memory under the 512 MiB address-space limit" in hog.reason
    assert hog.rank == 3
    assert [record.seats[i].outcome for i in (0, 2)] == [Outcome.FINISHED] * 2


@pytest.mark.slow
async def test_a_bot_writing_without_end_plays_on_and_its_log_stops_at_the_cap(tmp_path):
    one_mib = BotLimits(file_mib=1)
    # output-flood writes without end from its third decision on, and still answers in time;
    # flood-at-start (yes) writes without end and never answers.
    bots = [limit_bot("output-flood"), sample_bot("random-python"), limit_bot("flood-at-start")]

    record = await play_match(
        "oregon", bots, SEED, time_control=FAST, limits=one_mib, bot_logs=tmp_path
    )

    flood, other, flood_at_start = record.seats
    assert (flood.outcome, flood.reason) == (Outcome.FINISHED, "")  # never stalled by its log
    assert other.outcome is Outcome.FINISHED
    assert flood_at_start.outcome is Outcome.CRASH
    assert "never listened on ARENA_BOT_ADDRESS" in flood_at_start.reason
    assert "file-size limit" not in flood_at_start.reason  # the log's cap is no limit it hit
    note = cap_note(2**20)
    for seat in (flood, flood_at_start):
        assert seat.log is not None
        log = Path(seat.log.path).read_bytes()
        assert len(log) == 2**20 + len(note) and log.endswith(note)
        assert seat.log.end == len(log)


@pytest.mark.slow
@requires_node
async def test_sample_bots_play_a_full_game_under_the_default_limits():
    bots = [sample_bot("random-python"), sample_bot("random-node")]

    record = await play_match("oregon", bots, SEED, time_control=FAST, limits=BotLimits())

    assert [(s.outcome, s.reason) for s in record.seats] == [(Outcome.FINISHED, "")] * 2
    assert not record.voided


@pytest.mark.slow
def test_match_keeps_each_seats_log_and_a_crash_reason_names_it(tmp_path):
    logs = tmp_path / "new" / "logs"

    # unsandboxed: the test bot runs ../misbehave.py, outside its directory
    result = runner.invoke(
        app,
        [
            "match",
            "--game",
            "oregon",
            "--seed",
            "3",
            "--bot-logs",
            str(logs),
            str(SAMPLE_BOTS / "random-python"),
            str(TEST_BOTS / "exits-midgame"),
            "--sandbox",
            "none",
        ],
    )

    assert result.exit_code == 3, result.output  # played, but a seat forfeited
    # named by seed, seat, bot and the time the log began (so a game played again gets its own)
    names = sorted(p.name for p in logs.glob("*.log"))
    assert [unstamped(name) for name in names] == [
        "3-seat0-random-python.log",
        "3-seat1-exits-midgame.log",
    ]
    kept = logs / names[1]
    assert "misbehave: exiting on purpose" in kept.read_text()
    assert f"log: {kept.resolve()}" in result.stdout.replace("\n", "")


@pytest.mark.slow
def test_tournament_keeps_one_log_per_game_and_seat_and_stores_the_memory_limit(tmp_path):
    db, logs = tmp_path / "arena.db", tmp_path / "logs"
    bots = f"{SAMPLE_BOTS / 'random-python'},{TEST_BOTS / 'exits-midgame'}"

    # unsandboxed: the test bot runs ../misbehave.py, outside its directory; a process per seat
    # and game (bots that stay up keep a log per process: the next test)
    result = runner.invoke(
        app,
        [
            "tournament",
            "--game",
            "oregon",
            "--bots",
            bots,
            "--deals",
            "1",
            "--name",
            "t",
            "--bot-memory",
            "2048",
            "--bot-logs",
            str(logs),
            "--db",
            str(db),
            "--sandbox",
            "none",
            "--fresh-bots",
        ],
    )

    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in logs.glob("*.log"))
    assert len(names) == 4, "2 games (the deal once per seat rotation) x 2 seats"
    assert {unstamped(name).split("-", 1)[1] for name in names} == {
        "seat0-random-python.log",
        "seat1-random-python.log",
        "seat0-exits-midgame.log",
        "seat1-exits-midgame.log",
    }
    with sqlite3.connect(db) as connection:
        ((settings,),) = connection.execute("SELECT settings FROM tournament").fetchall()
    assert json.loads(settings)["bot_memory_mib"] == 2048


def test_bots_that_stay_up_keep_one_log_per_process(tmp_path):
    logs = tmp_path / "logs"
    bots = f"{SAMPLE_BOTS / 'random-python'},{TEST_BOTS / 'exits-midgame'}"
    result = runner.invoke(
        app,
        [
            "tournament",
            "--game",
            "oregon",
            "--bots",
            bots,
            "--deals",
            "1",
            "--concurrency",
            "1",
            "--name",
            "t",
            "--bot-logs",
            str(logs),
            "--db",
            str(tmp_path / "arena.db"),
            "--sandbox",
            "none",
        ],
    )

    assert result.exit_code == 0, result.output
    # the two games are the rotations of one deal, which no process plays twice
    # (arena.referee.pool): a random-python process each; exits-midgame crashes in each anyway
    names = sorted(p.name for p in logs.glob("*.log"))
    assert [unstamped(name).rsplit("-process", 1)[0] for name in names] == [
        "exits-midgame",
        "exits-midgame",
        "random-python",
        "random-python",
    ], names
    assert all("exiting on purpose" in (logs / name).read_text() for name in names[:2])


def test_a_tournament_stored_before_limits_existed_resumes_with_the_defaults():
    def stored_limits(stored: dict) -> BotLimits:
        return TournamentSettings.from_stored(stored).limits

    assert stored_limits({"players": 2, "deals": 1}) == BotLimits()
    assert stored_limits({"bot_memory_mib": 1024}) == BotLimits(memory_mib=1024)


def _file_in(tmp_path: Path) -> Path:
    (tmp_path / "file").write_text("not a directory")
    return tmp_path / "file" / "logs"


@pytest.mark.parametrize("command", ["match", "tournament"])
@pytest.mark.parametrize(
    "arguments, message",
    [
        (
            lambda tmp: ["--bot-memory", "255"],
            "--bot-memory: bot memory must be from 256 to 16,777,216 MiB, not 255",
        ),
        (
            lambda tmp: ["--bot-memory", "99999999999999999999999"],
            "--bot-memory: bot memory must be from 256 to 16,777,216 MiB, not 9999",
        ),
        (lambda tmp: ["--bot-memory", "4G"], "--bot-memory '4G': not a whole number of MiB"),
        (lambda tmp: ["--bot-logs", str(_file_in(tmp))], "cannot write there: Not a directory"),
    ],
    ids=["too-small", "too-large", "nonsense", "unwritable-logs"],
)
def test_bad_limit_and_log_options_are_one_line_errors(command, arguments, message, tmp_path):
    bot = str(SAMPLE_BOTS / "random-python")
    bots = [bot, bot] if command == "match" else ["--bots", f"{bot},{TEST_BOTS / 'slow'}"]

    result = runner.invoke(
        app,
        [
            command,
            "--game",
            "oregon",
            *arguments(tmp_path),
            *bots,
            "--db",
            str(tmp_path / "arena.db"),
        ],
    )

    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert not (tmp_path / "arena.db").exists(), "nothing started, nothing stored"


@pytest.mark.slow
def test_the_cli_says_once_in_one_line_that_bots_run_unlimited(
    fresh_prlimit_lookup, monkeypatch, tmp_path
):
    monkeypatch.setenv("PATH", str(tmp_path))
    bot = str(SAMPLE_BOTS / "random-python")

    result = runner.invoke(app, ["match", "--game", "oregon", bot, bot])

    assert result.exit_code == 0, result.output
    assert result.stderr == (
        "warning: prlimit (util-linux) is not on PATH: bots run without "
        "memory and file-size limits\n"
    )
