"""Full games between real bot processes (Python and Node.js) over real gRPC."""

import pytest

from arena.match import Outcome, play_match
from engine.registry import get_game
from tests.arena.conftest import playable_games, sample_bot

SEATINGS = [
    ("random-python", "random-node"),
    ("random-node", "random-python", "random-python"),
    ("random-python", "random-node", "random-python", "random-node"),
]


# Oregon with every seating; each other game with the 3-seat mix (keeps the suite fast).
CASES = [("oregon", seating) for seating in SEATINGS] + [
    (game, SEATINGS[1]) for game in playable_games() if game != "oregon"]


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
