"""What the referee tells of a game besides its outcomes, with real bots and real gRPC: the
observer's calls match the record decision by decision, the bots' choices and comments and the
seats' times are kept, a voided game's end reaches the bots as voided, a remote bot's failed call
is a crash, the game's options are played and recorded, a game that cannot be set up raises before
any bot starts, and the match's directory is gone afterwards. (The autouse fixture checks that no
process or thread remains.)"""

from __future__ import annotations

import dataclasses
import socket
import time
from collections.abc import Callable, Iterator
from concurrent import futures
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest

from arena import sdk
from arena.bot.v1 import bot_pb2, bot_pb2_grpc
from arena.errors import SetupError
from arena.manifest import BotSpec, load_manifest, remote_bot
from arena.records import MatchRecord, Outcome, TimeControl
from arena.referee.match import Decision, MatchObserver, play_match
from arena.sandbox.tempdirs import arena_root
from engine.core import GameState
from engine.registry import get_game
from tests.referee.test_spy import read_spy_file
from tests.support.bots import TEST_BOTS, misbehaving_bot, sample_bot

pytestmark = pytest.mark.slow

# Random bots answer in milliseconds: a generous limit keeps a loaded machine from turning a
# well-behaved seat into a TIMEOUT.
GENEROUS = TimeControl(move_seconds=20.0, ready_seconds=30.0)
SEED = 5


class _Recorder(MatchObserver):
    """Everything the observer hears, with what the state said at that moment."""

    def __init__(self) -> None:
        self.started: list[tuple[list[str], int]] = []  # players, decisions played then
        self.decisions: list[dict] = []
        self.finished: list[tuple[MatchRecord, bool]] = []  # record, whether the game was over

    def match_started(self, state: GameState, players) -> None:
        self.started.append((list(players), len(state.history)))

    def decision_made(self, decision: Decision, state: GameState) -> None:
        self.decisions.append(dict(vars(decision), played=len(state.history)))

    def match_finished(self, record: MatchRecord, state: GameState) -> None:
        self.finished.append((record, state.is_over))


def _times_fit(record: MatchRecord) -> None:
    """Every answered decision took a time within the game's; the arena's own took none."""
    assert len(record.decision_seconds) == len(record.actions)
    for seconds in record.decision_seconds:
        assert seconds is None or 0 < seconds <= record.duration
    for seat in record.seats:
        assert 0 <= seat.time_used <= record.duration


async def test_the_observer_hears_every_decision_as_the_record_tells_it():
    recorder = _Recorder()
    bots = [sample_bot("random-python"), misbehaving_bot("index-len")]
    before = time.perf_counter()

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS, observer=recorder)

    assert record.duration <= time.perf_counter() - before
    assert recorder.started == [(["random-python", "index-len"], 0)]
    assert recorder.finished == [(record, True)]
    assert record.seats[1].outcome is Outcome.ILLEGAL  # its third reply; the arena plays on
    state = get_game("oregon").new_game(2, SEED)
    culprit_decisions = 0
    assert [heard["number"] for heard in recorder.decisions] == list(range(len(record.actions)))
    for number, (heard, index) in enumerate(zip(recorder.decisions, record.actions, strict=True)):
        seat = state.current_seat
        culprit_decisions += seat == 1
        by_arena = seat == 1 and culprit_decisions >= 3
        assert heard["seat"] == seat
        assert heard["kind"] == state.decision_kind
        assert heard["index"] == index
        assert heard["action"] == state.legal_actions()[index]
        assert heard["by_arena"] is by_arena
        assert (record.decision_seconds[number] is None) is by_arena
        if not by_arena:
            assert heard["seconds"] == record.decision_seconds[number]
        assert heard["comment"] == record.comments[number] == ""
        assert heard["played"] == number + 1, "the observer sees the state after the decision"
        state.apply_index(index)
    assert state.is_over
    _times_fit(record)


class _ServedHere(bot_pb2_grpc.BotServicer):
    """A remote bot served by this process, deciding with ``decide(request, context)``."""

    def __init__(self, name: str, decide: Callable) -> None:
        self.identity = bot_pb2.HandshakeReply(
            name=name, version="1", protocol_version=bot_pb2.PROTOCOL_VERSION_1, games=["oregon"]
        )
        self.decide = decide

    def Handshake(self, request, context):
        return self.identity

    def StartGame(self, request, context):
        return bot_pb2.StartGameReply()

    def Decide(self, request, context):
        return self.decide(request, context)

    def EndGame(self, request, context):
        return bot_pb2.EndGameReply()


@contextmanager
def _bot_served_here(name: str, decide: Callable) -> Iterator[BotSpec]:
    """The spec of a remote bot ``name`` served here while the context lasts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    executor = futures.ThreadPoolExecutor(max_workers=2)
    server = grpc.server(executor)
    bot_pb2_grpc.add_BotServicer_to_server(_ServedHere(name, decide), server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    server.start()
    try:
        yield remote_bot(f"127.0.0.1:{port}", name, games=("oregon",))
    finally:
        server.stop(grace=None).wait()
        executor.shutdown(wait=True)


async def test_each_answered_decision_plays_the_bots_choice_and_keeps_its_comment():
    choices: dict[int, int] = {}  # decision number -> the index the bot chose

    def commented(request, context):
        # The last legal action: not the game's default (the first), whenever there is a choice.
        choices[request.decision_number] = len(request.legal_actions) - 1
        return bot_pb2.DecisionReply(
            decision_number=request.decision_number,
            action_index=choices[request.decision_number],
            comment=f"my pick at {request.decision_number}",
        )

    with _bot_served_here("commenter", commented) as commenter:
        record = await play_match("oregon", [commenter, commenter], SEED, time_control=GENEROUS)

    assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2
    assert record.actions == [choices[n] for n in range(len(record.actions))]
    assert any(record.actions), "some choice was not the first action"
    assert record.comments == [f"my pick at {n}" for n in range(len(record.actions))]


async def test_a_remote_bot_whose_call_fails_is_a_crash():
    rng = sdk.seeded_random()

    def fails_at_its_second(request, context):
        if request.decision_number >= 2:
            context.abort(grpc.StatusCode.INTERNAL, "remote trouble")
        return bot_pb2.DecisionReply(
            decision_number=request.decision_number,
            action_index=rng.randrange(len(request.legal_actions)),
        )

    with _bot_served_here("faraway", fails_at_its_second) as faraway:
        record = await play_match(
            "oregon", [faraway, sample_bot("random-python")], SEED, time_control=GENEROUS
        )

    assert not record.voided, record.void_reason
    culprit = record.seats[0]
    assert culprit.outcome is Outcome.CRASH
    assert culprit.reason == "Decide failed: INTERNAL: remote trouble"
    assert [s.rank for s in record.seats] == [2, 1]


def _slow_bot(mode: str, directory: Path, delay: float) -> BotSpec:
    """The test bot in ``mode``, misbehaving at its third decision, every decision taking at
    least ``delay`` seconds; its bot.toml goes in ``directory``/``mode``."""
    bot = directory / mode
    bot.mkdir()
    (bot / "bot.toml").write_text(
        f'name = "{mode}"\nversion = "1.0.0"\n'
        f'command = ["python", "{TEST_BOTS / "misbehave.py"}", "{mode}"]\n'
        f'games = ["oregon"]\n[env]\nMISBEHAVE_AT = "3"\nMISBEHAVE_DELAY = "{delay}"\n'
    )
    return load_manifest(bot)


@pytest.mark.parametrize(
    "mode, outcome", [("raise", Outcome.CRASH), ("garbage-decide", Outcome.ILLEGAL)]
)
async def test_a_seats_time_adds_up_its_answers_and_the_call_that_failed(mode, outcome, tmp_path):
    delay = 0.2  # each of the culprit's three calls takes at least this long
    bots = [sample_bot("random-python"), _slow_bot(mode, tmp_path, delay)]

    record = await play_match("oregon", bots, SEED, time_control=GENEROUS)

    culprit = record.seats[1]
    assert culprit.outcome is outcome
    assert culprit.decisions == 2, "the third call is no decision"
    assert culprit.time_used >= 3 * delay
    _times_fit(record)


async def test_a_voided_games_end_reaches_each_bot_as_voided_with_its_game_id(tmp_path):
    spy = misbehaving_bot("spy")
    bots = [
        dataclasses.replace(spy, env={"ARENA_SPY_FILE": str(tmp_path / f"seat{seat}.log")})
        for seat in range(2)
    ]

    class Faulty(MatchObserver):
        def decision_made(self, decision, state):
            if decision.number == 3:
                raise RuntimeError("observer broke")

    # With a time bank (not the default 0): the bots' StartGame and clocks show it too.
    banked = TimeControl(move_seconds=20.0, bank_seconds=1.5, ready_seconds=30.0)

    record = await play_match("oregon", bots, SEED, time_control=banked, observer=Faulty())

    assert record.voided
    for seat in range(2):
        _, messages = read_spy_file(tmp_path / f"seat{seat}.log")
        start, end = messages[0], messages[-1]
        assert isinstance(start, bot_pb2.StartGameRequest)
        assert (start.time_control.move_seconds, start.time_control.bank_seconds) == (20.0, 1.5)
        decisions = [m for m in messages if isinstance(m, bot_pb2.DecisionRequest)]
        assert decisions, "the game was voided after both seats had decided"
        # Quick replies spend nothing of the bank: every decision shows the full clock.
        assert {(d.clock.move_seconds, d.clock.bank_seconds) for d in decisions} == {(20.0, 1.5)}
        assert isinstance(end, bot_pb2.EndGameRequest)
        assert (end.game_id, end.seat, end.voided) == (start.game_id, seat, True)


async def test_the_match_directory_is_removed_after_the_game():
    matches_before = set(arena_root().glob("match-*"))

    await play_match("oregon", [sample_bot("random-python")] * 2, SEED, time_control=GENEROUS)

    assert set(arena_root().glob("match-*")) == matches_before


async def test_the_games_options_are_played_and_recorded():
    options = {"max_rounds": 2}  # Merkator's round limit, far below its default

    record = await play_match(
        "merkator", [sample_bot("random-python")] * 2, SEED, options=options, time_control=GENEROUS
    )

    assert not record.voided, record.void_reason
    assert record.void_reason == ""
    assert record.options["max_rounds"] == 2
    engine = get_game("merkator")
    final = engine.replay(2, SEED, record.actions, options)
    assert final.is_over
    assert tuple(s.score for s in record.seats) == final.result().scores
    assert not engine.replay(2, SEED, record.actions).is_over, "50 rounds by default"


@pytest.mark.parametrize(
    "game, options, message",
    [
        ("nosuch", None, "unknown game 'nosuch'"),
        ("oregon", {"nope": 1}, "unknown option 'nope'"),
    ],
)
async def test_a_game_that_cannot_be_set_up_raises_before_any_bot_starts(game, options, message):
    with pytest.raises(SetupError, match=message):
        await play_match(game, [sample_bot("random-python")] * 2, SEED, options=options)
