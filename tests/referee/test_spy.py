"""Leak test over the wire: a spy bot records every message it receives. No message to seat s may
carry more than seat s's view and events: each decision request must be exactly the encoding of
the engine's ``view(s)``, legal actions and ``events_for(s)`` since s's previous decision at that
point (the end request: the events since its last one), and that view must not change when
everything seat s cannot see is resampled (tests/engine/test_contract.py checks the same of the
events). Every request names seat s and a game_id of its own. The game's seed appears nowhere."""

import base64
import dataclasses
import random

import pytest

from arena.bot.v1 import bot_pb2
from arena.records import TimeControl
from arena.referee.match import play_match
from arena.wire.codec import decode_action, decode_event, decode_view
from engine.registry import game_names, get_game
from tests.support.bots import misbehaving_bot, sample_bot

pytestmark = pytest.mark.slow  # real bot processes

SEED = 918_273_645  # distinctive, so that finding it in a message would be telling


def read_spy_file(path):
    lines = path.read_text().splitlines()
    kind, bot_seed = lines[0].split()
    assert kind == "Environment"
    messages = []
    for line in lines[1:]:
        type_name, payload = line.split()
        messages.append(getattr(bot_pb2, type_name).FromString(base64.b64decode(payload)))
    return int(bot_seed), messages


def seed_encodings(seed):
    """How the seed could show up in a message: as a varint, fixed-width integer or text."""
    varint, value = bytearray(), seed
    while value > 0x7F:
        varint.append(value & 0x7F | 0x80)
        value >>= 7
    varint.append(value)
    return [
        bytes(varint),
        seed.to_bytes(4, "little"),
        seed.to_bytes(8, "little"),
        str(seed).encode(),
    ]


@pytest.mark.parametrize("game", game_names())
async def test_spies_receive_only_their_own_view(game, tmp_path):
    engine = get_game(game)
    spy = misbehaving_bot("spy")
    spies = [
        dataclasses.replace(spy, env={"ARENA_SPY_FILE": str(tmp_path / f"seat{s}.log")})
        for s in range(2)
    ]
    bots = [*spies, sample_bot("random-python")][: max(engine.min_players, 3)]
    record = await play_match(game, bots, SEED)
    assert not record.voided, record.void_reason

    # Replay the game; at each decision remember what each seat was entitled to see.
    state = engine.new_game(len(bots), SEED)
    expected = []  # (decision number, seat, state copy)
    for number, index in enumerate(record.actions):
        expected.append((number, state.current_seat, state.clone()))
        state.apply_index(index)
    rng = random.Random(1)
    game_ids = set()

    for seat in range(len(spies)):
        bot_seed, messages = read_spy_file(tmp_path / f"seat{seat}.log")
        assert bot_seed != SEED
        start, *decisions, end = messages
        assert isinstance(start, bot_pb2.StartGameRequest) and start.seat == seat
        assert isinstance(end, bot_pb2.EndGameRequest)
        # StartGame tells the game as the referee plays it (play_match's default time control).
        assert (start.game, start.rules_version, start.num_players) == (
            game,
            engine.rules_version,
            len(bots),
        )
        assert list(start.player_names) == [bot.name for bot in bots]
        assert {option.name for option in start.options} == set(state.options)
        assert (start.time_control.move_seconds, start.time_control.bank_seconds) == (
            TimeControl().move_seconds,
            TimeControl().bank_seconds,
        )
        assert start.game_id and {m.game_id for m in messages} == {start.game_id}
        assert all(m.seat == seat for m in messages)
        game_ids.add(start.game_id)
        mine = [(n, st) for n, s, st in expected if s == seat]
        assert [d.decision_number for d in decisions] == [n for n, _ in mine]
        told = 0
        for request, (number, truth) in zip(decisions, mine, strict=True):
            view = truth.view(seat)
            assert repr(decode_view(game, request.view)) == repr(view), f"decision {number}"
            legal = [decode_action(game, a) for a in request.legal_actions]
            assert legal == list(truth.legal_actions())
            events = [decode_event(game, e) for e in request.events]
            assert events == truth.events_for(seat, told), f"decision {number}"
            told = len(truth.event_log)
            # Nothing beyond the view: the view is the same whatever seat s cannot see.
            resampled = engine.sample_state(view, rng)
            assert repr(resampled.view(seat)) == repr(view)
        assert [decode_event(game, e) for e in end.events] == state.events_for(seat, told)
        for message in [start, *decisions, end]:
            wire = message.SerializeToString()
            assert not any(code in wire for code in seed_encodings(SEED))
    assert len(game_ids) == len(spies)  # one game_id per seat


async def test_a_forfeit_reason_reaches_the_other_seats_without_the_bots_own_words(tmp_path):
    """EndGame told every seat the others' whole forfeit reasons: a crashed bot's own error
    line and the host's path of its log (outside review). Its author reads them on their own
    pages; the other seats get the arena's words only."""
    spy = dataclasses.replace(
        misbehaving_bot("spy"), env={"ARENA_SPY_FILE": str(tmp_path / "spy.log")}
    )
    raiser = misbehaving_bot("raise")
    raiser = dataclasses.replace(raiser, env={**raiser.env, "MISBEHAVE_MESSAGE": "SECRET-PLAN-42"})
    (tmp_path / "logs").mkdir()
    record = await play_match("oregon", [spy, raiser], SEED, bot_logs=tmp_path / "logs")
    stored = record.seats[1].reason
    assert "SECRET-PLAN-42" in stored and "log: " in stored  # the operator's record is whole

    *_, end = read_spy_file(tmp_path / "spy.log")[1]

    assert isinstance(end, bot_pb2.EndGameRequest) and end.seat == 0
    told = end.results[1].reason
    assert told.startswith("Decide failed: UNKNOWN"), told
    assert "SECRET" not in told and "log: " not in told and str(tmp_path) not in told
