"""The shared records: one ranking of forfeiting seats (referee and replay alike), and every
outcome mapped to its wire enum."""

from arena.bot.v1 import bot_pb2
from arena.protocol import OUTCOME_TO_PROTO
from arena.records import Outcome, arena_ranks
from engine.core import Result


def test_finishers_keep_their_order_and_forfeits_share_the_last_rank():
    result = Result(scores=(5, 9, 7, 9), ranks=(4, 1, 3, 1))
    assert arena_ranks(result.ranks, [False, True, False, False]) == [3, 4, 2, 1]
    assert arena_ranks(result.ranks, [False, False, False, False]) == [4, 1, 3, 1]
    assert arena_ranks(result.ranks, [True, True, False, False]) == [3, 3, 2, 1]


def test_every_outcome_has_its_own_wire_value():
    assert set(OUTCOME_TO_PROTO) == set(Outcome)
    assert sorted(OUTCOME_TO_PROTO.values()) == sorted(
        value for name, value in bot_pb2.Outcome.items() if name != "OUTCOME_UNSPECIFIED"
    )
    for outcome, value in OUTCOME_TO_PROTO.items():
        assert bot_pb2.Outcome.Name(value) == f"OUTCOME_{outcome.value}"
