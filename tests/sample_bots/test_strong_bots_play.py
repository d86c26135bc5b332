"""The heuristic and search bots play complete games of every game over real gRPC, without a
forfeit, at 2 players and at the game's maximum."""

import dataclasses
from pathlib import Path

import pytest

from arena.manifest import load_manifest
from arena.records import Outcome, TimeControl
from arena.referee.match import play_match
from engine import game_names, get_game

pytestmark = pytest.mark.slow  # real bot processes

SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"
# Few playouts keep the test quick; the algorithm is the one the bot always runs.
SEARCH = dataclasses.replace(
    load_manifest(SAMPLE_BOTS / "search-python"),
    env={"SEARCH_ITERATIONS": "8", "SEARCH_BUDGET_S": "0.5"},
)
HEURISTIC = load_manifest(SAMPLE_BOTS / "heuristic-python")
CASES = [(name, players) for name in game_names() for players in (2, get_game(name).max_players)]


@pytest.mark.parametrize("name, players", CASES, ids=[f"{n}-{p}" for n, p in CASES])
async def test_heuristic_and_search_bots_finish_games_without_forfeit(name, players):
    bots = [(HEURISTIC, SEARCH)[seat % 2] for seat in range(players)]
    record = await play_match(name, bots, seed=3, time_control=TimeControl(move_seconds=5.0))
    assert not record.voided, record.void_reason
    assert [s.outcome for s in record.seats] == [Outcome.FINISHED] * players, [
        s.reason for s in record.seats
    ]
    final = get_game(name).replay(players, 3, record.actions)
    assert tuple(s.score for s in record.seats) == final.result().scores
