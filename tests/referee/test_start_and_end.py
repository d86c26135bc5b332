"""The referee around the decisions, with real bot processes and real gRPC: a bot that fails,
hangs in, garbles or answers twice StartGame, one that hangs in EndGame, a call that fails with
no details, a game cancelled while StartGame hangs, and the game ids of one bot playing two
games at once. The bots are modes of tests/bots/misbehave.py. (The autouse fixture checks that
no process or thread remains.)"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import trio

from arena import sdk
from arena.manifest import remote_bot
from arena.records import MatchRecord, Outcome, TimeControl
from arena.referee.client import RECEIVE_LIMIT_BYTES
from arena.referee.match import play_match
from arena.sandbox import SandboxPolicy, bwrap_problem
from engine.registry import get_game
from tests.support.bots import misbehaving_bot, sample_bot, sandboxed_misbehaving_bot

pytestmark = pytest.mark.slow

# Random bots answer in milliseconds: a generous limit keeps a loaded machine from turning a
# well-behaved seat into a TIMEOUT. The ready time differs from the move time so that a reason
# shows which of the two a call was given.
GENEROUS = TimeControl(move_seconds=20.0, ready_seconds=30.0)
# Long enough for the well-behaved bots to start even on a busy machine, short for a hanging one.
SHORT_READY = TimeControl(move_seconds=20.0, ready_seconds=5.0)
SEED = 5


def _finished_by_the_others(record: MatchRecord, culprit: int) -> None:
    """The game was played to its end with its scores; the culprit is ranked last, alone."""
    assert not record.voided, record.void_reason
    final = get_game(record.game).replay(record.num_players, record.seed, record.actions)
    assert final.is_over
    assert tuple(s.score for s in record.seats) == final.result().scores
    assert record.seats[culprit].rank == record.num_players
    others = [s for s in record.seats if s.seat != culprit]
    assert all(s.outcome is Outcome.FINISHED for s in others)
    assert all(s.rank < record.num_players for s in others)


async def test_a_bot_whose_start_game_fails_is_a_crash_naming_start_game():
    bots = [sample_bot("random-python"), misbehaving_bot("start-game-raise")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert culprit.outcome is Outcome.CRASH
    assert culprit.reason.startswith(
        "StartGame failed: UNKNOWN: Exception calling application: "
        "misbehave: raising in StartGame on purpose"
    )
    assert culprit.decisions == 0
    assert [s.rank for s in record.seats] == [1, 2]
    _finished_by_the_others(record, culprit=1)


async def test_a_bot_hanging_in_start_game_times_out_after_the_ready_time():
    bots = [
        sample_bot("random-python"),
        sample_bot("random-python"),
        misbehaving_bot("start-game-sleep"),
    ]

    with trio.fail_after(60):  # guard only: the 5 s ready time ends the call
        record = await play_match("oregon", bots, SEED, time_control=SHORT_READY)

    culprit = record.seats[2]
    assert culprit.outcome is Outcome.TIMEOUT
    assert culprit.reason == "no StartGame reply within 5 s"
    assert culprit.decisions == 0
    assert record.seats[2].rank == 3
    _finished_by_the_others(record, culprit=2)


async def test_a_game_cancelled_while_a_bot_hangs_in_start_game_ends_at_once():
    # StartGame is read by the thread that waits for it (no polling thread of grpcio's): closing
    # the channel must still end the call in flight, well before its 30 s ready time.
    bots = [sample_bot("random-python"), misbehaving_bot("start-game-sleep")]
    with trio.fail_after(20):  # guard only
        with trio.move_on_after(3.0) as scope:
            await play_match("oregon", bots, SEED, time_control=GENEROUS)
    assert scope.cancelled_caught


async def test_a_start_game_reply_that_does_not_parse_is_an_illegal_forfeit():
    bots = [misbehaving_bot("start-game-garbage"), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[0]
    assert culprit.outcome is Outcome.ILLEGAL
    assert culprit.reason == (
        "malformed StartGame reply: not a StartGameReply (1 byte that protobuf cannot parse)"
    )
    assert culprit.decisions == 0
    assert [s.rank for s in record.seats] == [2, 1]
    _finished_by_the_others(record, culprit=0)


async def test_a_bot_answering_start_game_twice_is_an_illegal_forfeit_that_says_so():
    """A unary call given two replies waits for its deadline in grpcio, so the bot was once
    forfeited for giving none ("no StartGame reply within 30 s")."""
    bots = [sample_bot("random-python"), misbehaving_bot("start-game-twice")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert culprit.outcome is Outcome.ILLEGAL
    assert culprit.reason == "answered StartGame twice (the call takes one reply)"
    assert culprit.decisions == 0
    _finished_by_the_others(record, culprit=1)


FILTERED = pytest.mark.skipif(bwrap_problem() is not None, reason="no bubblewrap here")


@FILTERED
@pytest.mark.parametrize("call", ["Handshake", "StartGame", "Decide"])
async def test_a_sandboxed_bot_answering_a_call_twice_is_an_illegal_forfeit_at_once(call, tmp_path):
    """The filter of a sandboxed bot's HTTP/2 ends a call at its reply's second message: a
    unary Decide given two waited for its deadline, and the bot lost on time ("no Decide reply
    within 20 s"). (Unsandboxed, a Decide answered twice still waits for its deadline.) The
    Handshake answered twice was a CRASH, "never became ready" (outside review)."""
    mode = {"Handshake": "handshake-twice", "StartGame": "start-game-twice"}.get(
        call, "decide-twice"
    )
    bots = [sample_bot("random-python"), sandboxed_misbehaving_bot(mode, tmp_path)]

    with trio.fail_after(GENEROUS.move_seconds / 2):  # the deadline is never waited for
        record = await play_match(
            "oregon", bots, SEED, time_control=GENEROUS, sandbox=SandboxPolicy()
        )

    culprit = record.seats[1]
    assert culprit.outcome is Outcome.ILLEGAL, culprit
    assert culprit.reason == f"answered {call} twice (the call takes one reply)"
    assert culprit.decisions == 0
    _finished_by_the_others(record, culprit=1)


async def test_a_bot_hanging_in_end_game_does_not_hold_up_the_record():
    bots = [misbehaving_bot("end-game-sleep"), sample_bot("random-python")]

    with trio.fail_after(60):  # guard only: EndGame's own deadline ends the call
        record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    assert not record.voided, record.void_reason
    assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2
    assert [s.reason for s in record.seats] == ["", ""], "the game was decided before EndGame"
    assert [s.end_unanswered for s in record.seats] == [True, False]
    assert sorted(s.rank for s in record.seats) in ([1, 2], [1, 1])
    final = get_game("oregon").replay(2, SEED, record.actions)
    assert final.is_over
    assert tuple(s.score for s in record.seats) == final.result().scores


async def test_a_call_failing_without_details_names_the_call_and_the_status_only():
    bots = [sample_bot("random-python"), misbehaving_bot("abort-silently")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert culprit.outcome is Outcome.CRASH
    assert culprit.reason == "Decide failed: INTERNAL"
    assert culprit.decisions == 2, "the failed call is not counted as a decision"
    assert [s.rank for s in record.seats] == [1, 2]
    _finished_by_the_others(record, culprit=1)


async def test_a_bot_answering_deadline_exceeded_at_once_is_no_timeout():
    """The status is the bot's own, not the arena's clock: it was recorded as "no Decide reply
    within 2 s" of a bot that answered in milliseconds (outside review)."""
    bots = [sample_bot("random-python"), misbehaving_bot("forged-deadline")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert culprit.outcome is Outcome.CRASH
    assert culprit.reason.startswith("Decide failed: DEADLINE_EXCEEDED"), culprit.reason
    _finished_by_the_others(record, culprit=1)


async def test_a_bots_own_too_large_status_quotes_no_number_of_its_own():
    """gRPC's words for a reply over the receive limit hold two numbers: a bot sending that
    status and those words itself had its numbers quoted as the arena's (outside review)."""
    bots = [sample_bot("random-python"), misbehaving_bot("forged-too-large")]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert culprit.outcome is Outcome.ILLEGAL
    assert culprit.reason == f"Decide reply over the {RECEIVE_LIMIT_BYTES} byte limit"
    _finished_by_the_others(record, culprit=1)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_one_remote_bot_in_two_games_at_once_gets_a_game_id_per_game_and_seat(tmp_path):
    # One bot process (a remote bot served here) plays both seats of two games that start
    # together: every StartGame names a game id of its own, and each decision carries its seat's.
    (tmp_path / "bot.toml").write_text(
        'name = "twin"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["oregon"]\n'
    )
    started: dict[str, int] = {}  # game id -> seat, from StartGame
    decided: set[tuple[str, int]] = set()  # (game id, seat) of every decision
    rng = sdk.seeded_random()

    def remember(request) -> None:
        assert request.game_id not in started, "a game id given twice"
        started[request.game_id] = request.seat

    def choose(request) -> int:
        decided.add((request.game_id, request.seat))
        return rng.randrange(len(request.legal_actions))

    port = _free_port()
    server = sdk.serve(
        sdk.replying_with(choose),
        address=f"127.0.0.1:{port}",
        manifest=Path(tmp_path / "bot.toml"),
        on_start=remember,
    )
    barrier = _Barrier(2)  # each game waits at its ready gate for the other: they overlap
    records: list[MatchRecord] = []
    try:
        bot = remote_bot(f"127.0.0.1:{port}", "twin", games=("oregon",))

        async def one_game() -> None:
            records.append(
                await play_match(
                    "oregon", [bot, bot], SEED, time_control=GENEROUS, ready_gate=barrier.wait
                )
            )

        async with trio.open_nursery() as nursery:
            nursery.start_soon(one_game)
            nursery.start_soon(one_game)
    finally:
        server.stop(grace=None)

    assert len(started) == 4, "two games, two seats each: four game ids"
    assert sorted(started.values()) == [0, 0, 1, 1]
    assert decided == set(started.items())
    for record in records:
        assert not record.voided, record.void_reason
        assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2


class _Barrier:
    """Lets its ``wait`` return once ``parties`` tasks are waiting."""

    def __init__(self, parties: int) -> None:
        self._parties = parties
        self._arrived = 0
        self._all_here = trio.Event()

    async def wait(self) -> None:
        self._arrived += 1
        if self._arrived == self._parties:
            self._all_here.set()
        await self._all_here.wait()
