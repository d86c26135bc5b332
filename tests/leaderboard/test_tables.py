from leaderboard.batch import BatchRating
from leaderboard.results import GameResult, SeatResult
from leaderboard.tables import cross_table, leaderboard_rows

GAMES = [
    GameResult((SeatResult("x", 1, 10), SeatResult("y", 2, 5), SeatResult("z", 3, 1, "TIMEOUT"))),
    GameResult((SeatResult("y", 1, 8), SeatResult("z", 1, 8), SeatResult("x", 3, 2))),
]


def test_rows_are_ordered_by_batch_rating_and_aggregate_each_player():
    batch = {"x": BatchRating(1490, 1400, 1580), "y": BatchRating(1530, 1450, 1610),
             "z": BatchRating(1480, 1400, 1560)}
    rows = leaderboard_rows(GAMES, {"x": 1501.0, "y": 1510.0, "z": 1489.0}, batch)
    assert [row.player for row in rows] == ["y", "x", "z"]
    assert [row.position for row in rows] == [1, 2, 3]
    y, x, z = rows
    assert (x.games, x.average_rank, x.average_score) == (2, 2.0, 6.0)
    assert z.forfeits == {"TIMEOUT": 1}
    assert y.forfeits == {}
    assert y.elo == 1510.0 and y.batch == batch["y"]


def test_equal_ratings_share_a_position():
    rows = leaderboard_rows(GAMES, {}, {})
    assert [row.position for row in rows] == [1, 1, 1]


def test_cross_table_counts_points_both_ways():
    table = cross_table(GAMES)
    # x beat y in game 1 and lost in game 2; z's forfeit loses to x
    assert (table["x", "y"].games, table["x", "y"].score) == (2, 1.0)
    assert (table["x", "z"].score, table["z", "x"].score) == (1.0, 1.0)
    assert table["y", "z"].score == 1.5 and table["z", "y"].score == 0.5
    for (a, b), record in table.items():
        assert record.score + table[b, a].score == record.games
