"""Misbehaving bots forfeit with the right outcome and reason; the others finish their game; a
hanging bot cannot hang the referee. (The autouse fixture checks no process or thread remains.)"""

from concurrent import futures

import grpc
import pytest
import trio

from arena.bot.v1 import bot_pb2
from arena.manifest import load_manifest, remote_bot
from arena.records import MatchRecord, Outcome, TimeControl
from arena.referee.match import MatchObserver, play_match
from engine.registry import get_game
from tests.support.bots import misbehaving_bot, sample_bot

pytestmark = pytest.mark.slow

# Real bots answer in milliseconds, but a loaded machine can stall one for a second: the limits
# are generous wherever the test is not about time, and a hanging bot is judged after 2 s.
FAST = TimeControl(move_seconds=10.0, ready_seconds=30.0)
HANG_LIMIT = TimeControl(move_seconds=2.0, ready_seconds=30.0)
# Long enough for the well-behaved bots to start even on a busy machine.
SHORT_READY = TimeControl(move_seconds=10.0, ready_seconds=5.0)
SEED = 5


@pytest.mark.parametrize(
    "bot, outcome, reason",
    [
        ("sleeper", Outcome.TIMEOUT, "no Decide reply within 2 s"),
        ("exits-midgame", Outcome.CRASH, "process exited with code 3"),
        ("out-of-range", Outcome.ILLEGAL, "out of range"),
        ("stale-number", Outcome.ILLEGAL, "replied for decision"),
        ("never-ready", Outcome.CRASH, "never listened on ARENA_BOT_ADDRESS (unix:"),
    ],
)
async def test_misbehaving_bot_forfeits_and_the_game_completes(bot, outcome, reason):
    bots = [sample_bot("random-python"), misbehaving_bot(bot), sample_bot("random-python")]

    time_control = {"never-ready": SHORT_READY, "sleeper": HANG_LIMIT}.get(bot, FAST)
    with trio.fail_after(60):  # guard only: the limits end a hanging bot's call long before
        record = await play_match("oregon", bots, SEED, time_control=time_control)

    assert not record.voided, record.void_reason
    culprit = record.seats[1]
    assert culprit.outcome is outcome
    assert reason in culprit.reason
    assert culprit.rank == 3, "a forfeiting seat is ranked last"
    others = [record.seats[0], record.seats[2]]
    assert [s.outcome for s in others] == [Outcome.FINISHED] * 2
    assert sorted(s.rank for s in others) in ([1, 2], [1, 1])
    final = get_game("oregon").replay(3, SEED, record.actions)
    assert final.is_over
    assert tuple(s.score for s in record.seats) == final.result().scores


async def test_a_timeout_with_a_time_bank_says_how_the_limit_was_made():
    """ "no Decide reply within 0.27 s" read oddly beside a move time of 0.2 s (outside review,
    a Rust author): the limit was the move's time and what was left of the bank."""
    bots = [misbehaving_bot("sleeper"), sample_bot("random-python")]
    banked = TimeControl(move_seconds=0.5, bank_seconds=0.25, ready_seconds=30.0)
    with trio.fail_after(60):
        record = await play_match("oregon", bots, SEED, time_control=banked)
    assert record.seats[0].outcome is Outcome.TIMEOUT
    assert record.seats[0].reason == (
        "no Decide reply within 0.75 s (0.5 s a move + 0.25 s left of its bank)"
    )


async def test_forfeited_seat_is_played_by_the_fixed_rule():
    bots = [misbehaving_bot("out-of-range"), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=FAST)

    # Replay up to each of seat 0's later decisions: the arena chose the game's default each time.
    state = get_game("oregon").new_game(2, SEED)
    culprit_choices, defaults = [], []
    for index in record.actions:
        if state.current_seat == 0:
            culprit_choices.append(index)
            defaults.append(state.default_action_index())
        state.apply_index(index)
    answered = record.seats[0].decisions - 1  # the out-of-range reply is counted, not applied
    assert culprit_choices[answered:] == defaults[answered:]
    assert set(defaults) == {0}, "Oregon names no default of its own: the first legal action"
    assert len(culprit_choices) > answered + 1


async def test_time_bank_absorbs_slow_decisions_until_it_runs_out():
    bots = [misbehaving_bot("slow"), sample_bot("random-python")]

    record = await play_match(
        "oregon", bots, SEED, time_control=TimeControl(move_seconds=0.1, bank_seconds=0.6)
    )

    slow = record.seats[0]
    assert slow.outcome is Outcome.TIMEOUT
    assert slow.decisions >= 2, "the bank pays for the first slow decisions"
    assert slow.decisions <= 13, "at least 0.05 s over the limit per decision exhausts 0.6 s"


async def test_cancelling_a_match_with_a_hanging_bot_stops_everything():
    bots = [misbehaving_bot("sleeper"), sample_bot("random-python")]
    with trio.fail_after(30):  # guard only: cancellation must not wait for the 60 s limit
        with trio.move_on_after(2.0) as scope:
            await play_match("oregon", bots, SEED, time_control=TimeControl(move_seconds=60))
    assert scope.cancelled_caught


async def test_bot_that_does_not_play_the_game_forfeits_at_the_handshake(tmp_path):
    random_bot = sample_bot("random-python")
    (tmp_path / "bot.py").write_bytes((random_bot.directory / "bot.py").read_bytes())
    (tmp_path / "bot.toml").write_text(
        'name = "other"\nversion = "1"\ncommand = ["python", "bot.py"]\ngames = ["merkator"]\n'
    )
    bots = [load_manifest(tmp_path), random_bot]

    record = await play_match("oregon", bots, SEED, time_control=FAST)

    assert record.seats[0].outcome is Outcome.ILLEGAL
    assert "says it plays ['merkator'], not 'oregon'" in record.seats[0].reason
    assert record.seats[0].decisions == 0
    assert record.seats[1].outcome is Outcome.FINISHED


class _FaultyObserver(MatchObserver):
    def decision_made(self, decision, state):
        if decision.number == 5:
            raise RuntimeError("observer broke")


async def test_a_fault_on_the_arena_side_voids_the_game():
    bots = [sample_bot("random-python"), sample_bot("random-python")]

    record = await play_match("oregon", bots, SEED, time_control=FAST, observer=_FaultyObserver())

    assert record.voided
    assert record.void_reason == "arena fault: RuntimeError: observer broke"
    assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2, "no bot is blamed"
    assert [(s.score, s.rank) for s in record.seats] == [(0.0, 0)] * 2, "an unfinished game"
    assert len(record.actions) == 6


async def _play_garbage_decider(decide=lambda request, context: b"\x08") -> MatchRecord:
    """A game of a remote bot that answers the handshake and StartGame, then replies to Decide
    with ``decide`` (by default bytes that are no DecisionReply: a truncated varint), against
    random-python."""
    identity = bot_pb2.HandshakeReply(
        name="garbage", version="1", protocol_version=bot_pb2.PROTOCOL_VERSION_1, games=["oregon"]
    )
    handlers = {
        "Handshake": grpc.unary_unary_rpc_method_handler(
            lambda request, context: identity,
            request_deserializer=bot_pb2.HandshakeRequest.FromString,
            response_serializer=bot_pb2.HandshakeReply.SerializeToString,
        ),
        "StartGame": grpc.unary_unary_rpc_method_handler(
            lambda request, context: bot_pb2.StartGameReply(),
            request_deserializer=bot_pb2.StartGameRequest.FromString,
            response_serializer=bot_pb2.StartGameReply.SerializeToString,
        ),
        "Decide": grpc.unary_unary_rpc_method_handler(decide),
        "EndGame": grpc.unary_unary_rpc_method_handler(
            lambda request, context: bot_pb2.EndGameReply(),
            request_deserializer=bot_pb2.EndGameRequest.FromString,
            response_serializer=bot_pb2.EndGameReply.SerializeToString,
        ),
    }
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler("arena.bot.v1.Bot", handlers)]
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        bots = [
            remote_bot(f"127.0.0.1:{port}", "garbage", games=("oregon",)),
            sample_bot("random-python"),
        ]
        return await play_match("oregon", bots, SEED, time_control=FAST)
    finally:
        server.stop(grace=None)


async def test_a_reply_that_does_not_parse_is_an_illegal_forfeit():
    record = await _play_garbage_decider()

    assert not record.voided, record.void_reason
    assert record.seats[0].outcome is Outcome.ILLEGAL
    assert record.seats[0].reason == (
        "malformed Decide reply: not a DecisionReply (1 byte that protobuf cannot parse)"
    )
    assert record.seats[1].outcome is Outcome.FINISHED


# What a hostile bot can put in the text the arena prints and stores: newlines, terminal escape
# sequences (clear the screen, set the window title), a bell, and a lot of it.
HOSTILE_TEXT = "first\nsecond\r\x1b[2J\x1b]0;pwned\x07 [/bold] " + "y" * 5000


def _is_one_printable_line(text: str) -> bool:
    return text.isprintable() and len(text) <= 500


async def test_a_bots_error_details_become_one_short_printable_reason():
    """gRPC carries a bot's error message to the arena as it is: the seat's reason (printed by
    the CLI, stored, shown on the web) must stay one line without control characters."""

    def abort(request, context):
        context.abort(grpc.StatusCode.INTERNAL, HOSTILE_TEXT)

    record = await _play_garbage_decider(abort)

    culprit = record.seats[0]
    assert culprit.outcome is Outcome.CRASH
    assert culprit.reason.startswith("Decide failed: INTERNAL: first second")
    assert _is_one_printable_line(culprit.reason), culprit.reason


async def test_a_bots_comment_is_kept_as_one_printable_line():
    def comment(raw_request, context):
        request = bot_pb2.DecisionRequest.FromString(raw_request)
        return bot_pb2.DecisionReply(
            decision_number=request.decision_number, comment=HOSTILE_TEXT
        ).SerializeToString()

    record = await _play_garbage_decider(comment)

    assert record.seats[0].outcome is Outcome.FINISHED, record.seats[0].reason
    comments = [comment for comment in record.comments if comment]  # random-python has none
    assert comments and all(comment.startswith("first second") for comment in comments)
    assert all(_is_one_printable_line(c) and len(c) <= 200 for c in comments)


async def test_a_bot_running_elsewhere_that_is_gone_is_told_as_such():
    """A remote bot killed mid-tournament: each later game said only "did not answer the
    handshake within 10 s" (outside review, a Rust author); nobody listens at its address."""
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bots = [remote_bot(f"127.0.0.1:{port}", "gone"), sample_bot("random-python")]
    quick = TimeControl(move_seconds=10.0, ready_seconds=2.0)
    with trio.fail_after(60):
        record = await play_match("oregon", bots, SEED, time_control=quick)
    assert record.seats[0].outcome is Outcome.CRASH
    assert record.seats[0].reason == (
        "never became ready: did not answer the handshake within 2 s: cannot connect: "
        "Connection refused"
    )
