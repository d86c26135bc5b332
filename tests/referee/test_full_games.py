"""Full games between real bot processes (Python and Node.js) over real gRPC."""

import os
import sys

import pytest
import trio

from arena.manifest import remote_bot
from arena.records import Outcome
from arena.referee.match import play_match
from engine.registry import game_names, get_game
from tests.support.bots import sample_bot

pytestmark = pytest.mark.slow  # real bot processes

SEATINGS = [
    ("random-python", "random-node"),
    ("random-node", "random-python", "random-python"),
    ("random-python", "random-node", "random-python", "random-node"),
]


# Oregon with every seating; each other game with the 3-seat mix (keeps the suite fast).
CASES = [("oregon", seating) for seating in SEATINGS] + [
    (game, SEATINGS[1]) for game in game_names() if game != "oregon"
]


@pytest.mark.parametrize("game, seating", CASES, ids=[f"{g}-{len(s)}-seats" for g, s in CASES])
async def test_python_and_node_bots_play_a_full_game(game, seating):
    engine = get_game(game)
    if not engine.min_players <= len(seating) <= engine.max_players:
        pytest.skip(f"{game} is not for {len(seating)} players")
    bots = [sample_bot(name) for name in seating]

    record = await play_match(game, bots, seed=11)

    assert not record.voided, record.void_reason
    assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * len(seating)
    assert [s.player for s in record.seats] == list(seating)
    assert all(s.decisions > 0 for s in record.seats)
    assert sum(s.decisions for s in record.seats) == len(record.actions)
    final = engine.replay(len(seating), 11, record.actions)
    assert final.is_over
    assert tuple(s.score for s in record.seats) == final.result().scores
    assert tuple(s.rank for s in record.seats) == final.result().ranks


async def test_a_bot_already_running_elsewhere_plays_by_address(tmp_path):
    local = sample_bot("random-python")
    address = f"unix:{tmp_path}/remote.sock"
    process = await trio.lowlevel.open_process(
        [sys.executable, "bot.py"],
        cwd=local.directory,
        env={**os.environ, "ARENA_BOT_ADDRESS": address, "ARENA_BOT_SEED": "9"},
    )
    try:
        remote = remote_bot(address, "random-python", games=["oregon"])
        record = await play_match("oregon", [remote, local], seed=4)
        assert process.poll() is None, "the arena does not stop a bot it did not start"
        # The name given with the address must be the one the bot answers the handshake with.
        misnamed = remote_bot(address, "far-away", games=["oregon"])
        refused = await play_match("oregon", [misnamed, local], seed=4)
    finally:
        process.kill()
        await process.wait()
    assert not record.voided, record.void_reason
    assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * 2
    assert record.seats[0].player == "random-python" and record.seats[0].decisions > 0
    assert refused.seats[0].outcome is Outcome.ILLEGAL
    assert refused.seats[0].reason == "handshake: name 'random-python', expected 'far-away'"
