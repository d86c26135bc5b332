"""The benchmarks of README.md still run end to end (tiny sizes; no timing asserted)."""

import re

import pytest

from arena.bench.clients import refereed
from arena.bot.v1 import bot_pb2
from tests.support.bench import run_bench

pytestmark = pytest.mark.slow  # real bot processes


def test_protocol_bench_runs_and_prints_its_ratio_last():
    lines = run_bench(
        "protocol",
        "--players",
        "2",
        "--matches",
        "1",
        "--calls",
        "20",
        "--concurrent",
        "2",
        "--rounds",
        "1",
        "--seconds",
        "0.2",
        "--starts",
        "1",
        "--encoding-games",
        "1",
        "--slot-games",
        "1",
        timeout=120,
    )
    assert re.fullmatch(
        r"protocol bare_grpc_round_trip_us=\d+ referee_per_decision_us=\d+ "
        r"ratio=\d+\.\d\d matches_per_s=\d+ ceiling_per_s=\d+ matches_over_ceiling=\d+\.\d\d "
        r"workers_per_s=\d+ workers_over_ceiling=\d+\.\d\d "
        r"workers_over_pinned_ceiling=\d+\.\d\d bots_in_turn_over_bare=\d+\.\d\d",
        lines[-1],
    ), lines[-1]
    # the bound on b / a that the bots in turn set, measured in the same rounds
    assert any(
        re.search(r"a bare round trip to 2 bots in turn: \d+ us, \d+\.\d\d of \(a\)", line)
        for line in lines
    ), lines
    # the matches in pinned worker processes, and left to the scheduler
    assert any(
        re.search(r"in 2 worker processes .*: \d+ decisions/s, .*; \d+ with --no-pin-cpus", line)
        for line in lines
    ), lines
    # every game's request encoding, beside the previous encoder's on the same decisions
    for game in ("oregon", "ogallala", "merkator"):
        assert any(
            re.search(rf"{game}: engine \d+ us, request encoding \d+ us \(the previous", line)
            for line in lines
        ), lines
    assert any(line.strip().startswith("ceiling: 2 blocking client processes") for line in lines)
    # what the referee's client costs in CPU per call, beside a bare blocking call
    assert any(
        re.search(
            r"bare \d+ us \(\d+ us of CPU\), through the referee's client \d+ us "
            r"\(\d+ us of CPU\)",
            line,
        )
        for line in lines
    ), lines


def test_threads_bench_splits_the_referees_cpu_by_thread_and_the_decision_threads_by_part():
    lines = run_bench("threads", "--players", "2", "--matches", "1", "--warm-up", "1", timeout=120)
    assert len(lines) == 4, lines
    over_grpc, in_process, split = lines[0], lines[1], lines[2]
    assert re.match(r"bots answering over gRPC: \d+ us of referee CPU per decision \(", over_grpc)
    assert "decision threads" in over_grpc and "trio thread" in over_grpc, over_grpc
    assert re.match(r"Decide answered in process: \d+ us of referee CPU per decision", in_process)
    assert re.match(
        r"the decision thread over gRPC: \d+ us per decision \(encoding \d+, Decide calls \d+, "
        r"the rest -?\d+\); encoding in a tight loop in process: \d+ us",
        split,
    ), split
    assert lines[-1].startswith("load average")


def test_calls_bench_prints_each_kind_of_call_with_and_without_the_streams_polling_thread():
    lines = run_bench("calls", "--calls", "5", "--rounds", "1", timeout=120)
    kinds = [line.split(":")[0] for line in lines[:-1]]
    assert kinds == [
        "StartGame (the arena's client)",
        "StartGame (grpcio's default stream)",
        "EndGame",
        "Decide (blocking, as the decision thread)",
    ], lines
    assert all(re.search(r"referee CPU \d+-\d+ us per call$", line) for line in lines[:-1])
    assert lines[-1].startswith("load average")


def test_tournament_bench_runs_and_prints_its_ratio_last():
    lines = run_bench(
        "tournament",
        "--deals",
        "1",
        "--concurrency",
        "2",
        "--rounds",
        "1",
        "--worker-deals",
        "1",
        "--seconds",
        "1",
        timeout=180,
    )
    assert re.fullmatch(
        r"tournament tournament_decisions_per_s=\d+ protocol_decisions_per_s=\d+ "
        r"ratio=\d+\.\d\d",
        lines[-1],
    ), lines[-1]
    assert any(line.startswith("tournament, --fresh-bots") for line in lines)
    # the all-cores run against the ceiling, and the CPU costs that explain their ratio
    assert any(re.search(r"worker processes: .* ratio \d+\.\d\d$", line) for line in lines)
    assert any(
        re.search(r"with --no-pin-cpus .*: \d+ decisions/s, ratio \d+\.\d\d$", line)
        for line in lines
    )
    assert any(
        re.search(
            r"^minimal referee .*: \d+ decisions/s, [\d.]+ of the ceiling; .* [\d.]+ of it$", line
        )
        for line in lines
    ), lines
    assert any(
        re.fullmatch(
            r"CPU per decision: ceiling [\d.]+ ms \(client [\d.]+, bots [\d.]+\); minimal "
            r"referee [\d.]+ ms \(client [\d.]+, bots [\d.]+\); tournament in workers [\d.]+ ms "
            r"\(this process, .*: [\d.]+; the workers and their bots, .*: [\d.]+\); "
            r"ceiling/tournament \d+\.\d\d",
            line,
        )
        for line in lines
    ), lines


def test_the_minimal_referee_plays_whole_games_from_the_replies():
    """The bench's minimal referee encodes each request from the state and applies the reply:
    decision numbers count up within a game and start again with the next one."""
    requests = refereed("oregon", 2, first_seed=7)
    seat, raw = next(requests)
    games, numbers = set(), []
    for _ in range(400):  # several games of about 80 decisions
        request = bot_pb2.DecisionRequest.FromString(raw)
        assert request.seat == seat and request.legal_actions
        games.add(request.game_id)
        numbers.append(request.decision_number)
        last = len(request.legal_actions) - 1
        reply = bot_pb2.DecisionReply(decision_number=request.decision_number, action_index=last)
        seat, raw = requests.send(reply)
    assert len(games) >= 3
    assert numbers.count(0) == len(games)


def test_gaps_bench_prints_each_bots_cpu_per_call_by_pause():
    lines = run_bench(
        "gaps", "--calls", "20", "--rounds", "2", "--warm-up", "20", "--gaps", "0,1", timeout=120
    )
    assert len(lines) == 3, lines
    for bot, line in zip(("random-python", "random-node"), lines[:2], strict=True):
        assert re.fullmatch(
            rf"{bot}: CPU ms per call \(median of 2\), by the pause after each: "
            r"0 ms: [\d.]+; 1 ms: [\d.]+",
            line,
        ), line
    assert lines[-1].startswith("load average")


@pytest.mark.parametrize(
    ("args", "last"),
    [
        (("--runs", "2"), "start to ready, sandbox over none: "),
        (("--runs", "2", "--chain"), "launcher chain to /bin/true, sandbox over none: "),
    ],
)
def test_sandbox_bench_prints_the_sandboxs_cost_last(args, last):
    from arena.sandbox import bwrap_problem

    if bwrap_problem() is not None:
        pytest.skip(f"no sandbox here: {bwrap_problem()}")
    lines = run_bench("sandbox", *args, timeout=300)
    assert [line.split(":")[0].strip() for line in lines[:2]] == ["bwrap", "none"]
    assert lines[-1].startswith(last) and re.search(r"[+-][\d.]+ ms \(median; load", lines[-1])


def test_ladder_bench_runs_and_prints_both_counts_and_their_ratios_last():
    lines = run_bench(
        *("ladder", "--bots", "8", "--runs", "2", "--limit", "300", "--step", "50"),
        *("--tau", "0.5"),
        timeout=300,
    )
    assert re.fullmatch(
        r"games to Kendall tau 0\.5: ladder mean curve (\d+|>=300), settled >?=?\d+ games "
        r"\(width \d+\); round robin mean curve (\d+|>=300), settled >?=?\d+ games \(width \d+\); "
        r"ratio ladder / round robin: mean curve ([\d.]+|-), settled [\d.]+",
        lines[-1],
    ), lines[-1]
