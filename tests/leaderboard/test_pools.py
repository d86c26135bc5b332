"""Pools of players joined by games, and the records that bound a rating on one side only."""

from leaderboard.finishes import encode
from leaderboard.pools import find_pools, record_shapes, unbounded_sides
from leaderboard.results import GameResult, SeatResult


def game(*players: str, ranks: tuple[int, ...] = ()) -> GameResult:
    return GameResult(
        tuple(SeatResult(p, ranks[i] if ranks else i + 1, 0) for i, p in enumerate(players))
    )


def test_pools_are_connected_components_largest_first():
    games = [game("d", "e"), game("a", "b"), game("b", "c"), game("x", "x")]
    assert find_pools(encode(games)) == [["a", "b", "c"], ["d", "e"], ["x"]]


def test_a_multiplayer_game_joins_all_its_players():
    assert find_pools(encode([game("a", "b", "c"), game("c", "d")])) == [["a", "b", "c", "d"]]


def test_a_chain_of_perfect_records_bounds_the_ends_on_one_side():
    games = [game("a", "b"), game("b", "c")] * 3  # a always ahead of b, b of c
    assert unbounded_sides(encode(games)) == {"a": "lower", "b": "", "c": "upper"}


def test_a_cycle_of_results_bounds_everyone_on_both_sides():
    games = [game("a", "b"), game("b", "c"), game("c", "a")]
    assert unbounded_sides(encode(games)) == {"a": "", "b": "", "c": ""}


def test_players_who_drew_each_other_and_beat_the_rest_are_the_boards_measure():
    """a and b are bounded on both sides against each other: the board is measured on them,
    and c, always behind, is bounded above only (they were all one-sided: outside review)."""
    games = [game("a", "b", ranks=(1, 1)), game("a", "c"), game("b", "c")]
    assert unbounded_sides(encode(games)) == {"a": "", "b": "", "c": "upper"}


def test_a_forfeit_ranked_first_still_finishes_behind():
    forfeit = GameResult((SeatResult("a", 1, 0, "TIMEOUT"), SeatResult("b", 2, 0)))
    assert unbounded_sides(encode([forfeit])) == {"a": "upper", "b": "lower"}


def test_a_player_always_between_two_others_has_an_interval_set_by_the_prior():
    """a always ahead of b, b of c: b is bounded on both sides, but only through a and c, whose
    ratings are one-sided; when b also trades wins with d, their interval is measured."""
    chain = [game("a", "b", "c")] * 3
    assert record_shapes(encode(chain)) == {
        "a": ("lower", False),
        "b": ("", True),
        "c": ("upper", False),
    }
    traded = chain + [game("a", "d", "c"), game("b", "d"), game("d", "b")]
    assert record_shapes(encode(traded)) == {
        "a": ("lower", False),
        "b": ("", False),
        "c": ("upper", False),
        "d": ("", False),
    }


def test_the_main_component_is_the_largest_bounded_on_both_sides_and_a_tie_has_none():
    """Review H: b and c trade wins between a (always first) and two forfeiters tied last: the
    bottom pair is as large as the middle pair, but one-sided, so the middle is the main
    component (measured) however the components are numbered; two middle pairs of one size
    leave no main one, and both are prior-set."""
    middle = [game("a", "b", "c"), game("a", "c", "b")]
    tied_last = [game("b", "x", "y", ranks=(1, 2, 2))]
    for games in (middle + tied_last, tied_last + middle):
        shapes = record_shapes(encode(games))
        assert shapes["b"] == shapes["c"] == ("", False)
        assert shapes["x"] == shapes["y"] == ("upper", False)
    pairs = [game("a", "b", "c"), game("a", "c", "b"), game("d", "e", "f"), game("e", "d", "f")]
    shapes = record_shapes(encode([*pairs, game("b", "d")]))  # b-c always ahead of d-e
    assert {p: shapes[p] for p in "bcde"} == {p: ("", True) for p in "bcde"}


def forfeit(winner: str, *forfeiters: str) -> GameResult:
    """``winner`` finished; every one of ``forfeiters`` forfeited (tied behind, rank 2)."""
    return GameResult(
        (SeatResult(winner, 1, 0), *(SeatResult(f, 2, 0, "ILLEGAL") for f in forfeiters))
    )


def test_bots_that_always_forfeit_never_take_the_board_over():
    """Three forfeiters tie with each other whenever they meet: a component of their own,
    bounded on both sides and larger than the two real bots', which then were both one-sided,
    700 points up, around the forfeiters' closed intervals (outside review). The main component
    is where games were played to the end."""
    real = [game("p", "q"), game("q", "p")] * 3
    tied = [GameResult(tuple(SeatResult(f, 1, 0, "ILLEGAL") for f in pair)) for pair in
            [("x", "y"), ("y", "z"), ("z", "x")] * 3]  # fmt: skip
    beaten = [forfeit(bot, f) for bot in "pq" for f in "xyz"]
    shapes = record_shapes(encode(real + tied + beaten))
    assert shapes["p"] == shapes["q"] == ("", False)
    assert shapes["x"] == shapes["y"] == shapes["z"] == ("upper", False)


def test_a_forfeiter_joining_a_small_pair_does_not_flip_the_board():
    """A group of five always ahead of a pair m, n, which a forfeiter f makes two-sided: the
    pair (two-sided) was preferred to the group (one-sided as a whole), and every bot of the
    group became one-sided, 535 points up (outside review). The group played the most games."""
    group = "abcde"
    inside = [game(x, y) for x in group for y in group if x != y]
    below = [game(x, y) for x in group for y in "mn"] + [game("m", "n"), game("n", "m")]
    shapes = record_shapes(encode(inside + below + [forfeit("m", "f"), forfeit("n", "f")]))
    assert all(shapes[p] == ("", False) for p in group), shapes
    assert shapes["m"] == shapes["n"] == ("", True)  # bounded both ways, through other components
    assert shapes["f"] == ("upper", False)


def test_the_main_pool_is_the_one_whose_games_were_played():
    """A bot whose only games were against a forfeiter made a pool as large as the two others',
    and first by its name it was the pool matchmaking read: the two others played 148 games, it
    none, and `ladder --until width:W` never stopped (a test's ladder)."""
    games = [forfeit("a", "f"), forfeit("a", "f")] + [game("r", "s"), game("s", "r")] * 20
    assert find_pools(encode(games)) == [["r", "s"], ["a", "f"]]
    assert find_pools(encode([game("b", "c"), game("x", "y", "z")])) == [
        ["x", "y", "z"],
        ["b", "c"],
    ]
