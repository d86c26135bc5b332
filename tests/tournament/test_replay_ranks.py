from engine.core import Result

from arena.commands.replay import arena_ranks


def test_finishers_keep_their_order_and_forfeits_share_the_last_rank():
    result = Result(scores=(5, 9, 7, 9), ranks=(4, 1, 3, 1))
    assert arena_ranks(result, [False, True, False, False]) == [3, 4, 2, 1]
    assert arena_ranks(result, [False, False, False, False]) == [4, 1, 3, 1]
    assert arena_ranks(result, [True, True, False, False]) == [3, 3, 2, 1]
