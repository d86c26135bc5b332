"""A game from a constructed position (play_match's opening, as `arena validate` plays it): the
bot in the deciding seat receives what `arena fixtures` recorded for that kind."""

import shutil
from pathlib import Path

import pytest

from arena.bot.v1 import bot_pb2
from arena.fixtures import requests
from arena.manifest import load_manifest
from arena.positions import position
from arena.records import Outcome
from arena.referee.match import play_match
from arena.validation.opponent import write_random_bot

pytestmark = pytest.mark.slow  # real bot processes

BOTS = Path(__file__).resolve().parent / "bots"


@pytest.mark.parametrize("game, kind", [("merkator", "PERMIT_JOIN"), ("oregon", "DRAW")])
async def test_the_bot_receives_the_fixtures_requests_and_plays_on(tmp_path, game, kind):
    recorder = tmp_path / "recorder"
    shutil.copytree(BOTS / "recorder", recorder)
    start = position(game, kind)
    bots = [write_random_bot(tmp_path / "random")] * start.num_players
    bots[start.seat] = load_manifest(recorder)
    record = await play_match(game, bots, start.seed, options=start.options, opening=start.actions)
    assert not record.voided and record.actions[: len(start.actions)] == list(start.actions)
    assert all(seat.outcome is Outcome.FINISHED for seat in record.seats)
    assert record.decision_seconds[: len(start.actions)] == [None] * len(start.actions)
    expected_start, expected_decide = requests(start)
    received_start = bot_pb2.StartGameRequest.FromString(
        (recorder / "start_game.binpb").read_bytes()
    )
    received = bot_pb2.DecisionRequest.FromString((recorder / "decide.binpb").read_bytes())
    expected = bot_pb2.DecisionRequest.FromString(expected_decide)
    for message in (received, expected):  # what differs between games: the id and the clock
        message.ClearField("game_id")
        message.ClearField("clock")
    assert received == expected
    for message in (received_start, expected_start):
        for name in ("game_id", "player_names", "time_control"):
            message.ClearField(name)
    assert received_start == expected_start
