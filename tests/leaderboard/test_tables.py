import math

from leaderboard.batch import BatchRating
from leaderboard.results import GameResult, SeatResult
from leaderboard.tables import cross_table, format_batch, leaderboard_rows, legend, pool_heading

GAMES = [
    GameResult((SeatResult("x", 1, 10), SeatResult("y", 2, 5), SeatResult("z", 3, 1, "TIMEOUT"))),
    GameResult((SeatResult("y", 1, 8), SeatResult("z", 1, 8), SeatResult("x", 3, 2))),
]


def test_rows_are_ordered_by_batch_rating_and_aggregate_each_player():
    batch = {
        "x": BatchRating(1490, 1400, 1580),
        "y": BatchRating(1530, 1450, 1610),
        "z": BatchRating(1480, 1400, 1560),
    }
    rows = leaderboard_rows(GAMES, {"x": 1501.0, "y": 1510.0, "z": 1489.0}, batch)
    assert [row.player for row in rows] == ["y", "x", "z"]
    assert [row.position for row in rows] == [1, 2, 3]
    y, x, z = rows
    assert (x.games, x.average_rank, x.average_score) == (2, 2.0, 6.0)
    assert z.forfeits == {"TIMEOUT": 1} and z.forfeited == 1
    # z's forfeited game (ranked 3, score 1) is left out of its averages
    assert (z.games, z.average_rank, z.average_score) == (2, 1.0, 8.0)
    assert y.forfeits == {}
    assert y.elo == 1510.0 and y.batch == batch["y"]


def test_equal_ratings_share_a_position():
    rows = leaderboard_rows(GAMES, {}, {})
    assert [row.position for row in rows] == [1, 1, 1]


def test_batch_ratings_equal_but_for_their_last_bits_share_a_position():
    """Two players of the same record get MAPs that differ in their last bits, and Elo that
    differs with the order of their games: they were given positions 15 and 16 (outside
    review). The batch rating orders the table; equal to 0.01 Elo, it is equal."""
    batch = {
        "x": BatchRating(1600.0000000001, 1500, 1700),
        "y": BatchRating(1600.0, 1500, 1700),
        "z": BatchRating(1300.0, 1200, 1400),
    }
    rows = leaderboard_rows(GAMES, {"x": 1490.0, "y": 1520.0, "z": 1490.0}, batch)
    assert [(row.player, row.position) for row in rows] == [("x", 1), ("y", 1), ("z", 3)]


def test_cross_table_counts_points_both_ways():
    table = cross_table(GAMES)
    # x beat y in game 1 and lost in game 2; z's forfeit loses to x
    assert (table["x", "y"].games, table["x", "y"].score) == (2, 1.0)
    assert (table["x", "z"].score, table["z", "x"].score) == (1.0, 1.0)
    assert table["y", "z"].score == 1.5 and table["z", "y"].score == 0.5
    for (a, b), record in table.items():
        assert record.score + table[b, a].score == record.games


def test_a_player_that_forfeited_every_game_has_no_averages():
    game = GameResult((SeatResult("x", 1, 3), SeatResult("y", 2, 0, "CRASH")))
    y = leaderboard_rows([game], {}, {})[1]
    assert (y.player, y.games, y.forfeited) == ("y", 1, 1)
    assert math.isnan(y.average_rank) and math.isnan(y.average_score)


def test_rows_come_pool_by_pool_with_positions_restarting():
    batch = {
        "x": BatchRating(1600, 1500, 1700, pool=2, pools=2),
        "y": BatchRating(1400, 1300, 1500, pool=1, pools=2),
        "z": BatchRating(1550, 1450, 1650, pool=1, pools=2),
    }
    rows = leaderboard_rows(GAMES, {}, batch)
    assert [(row.player, row.position) for row in rows] == [("z", 1), ("y", 2), ("x", 1)]
    assert pool_heading(batch["x"]) == "pool 2 of 2: not comparable with pool 1"
    assert pool_heading(BatchRating(1500, 1400, 1600, pool=1, pools=3)) == (
        "pool 1 of 3: not comparable with pools 2, 3"
    )
    assert pool_heading(BatchRating(1500, 1400, 1600)) == ""


def test_a_rating_prints_its_point_and_interval_with_the_open_end_infinite():
    assert format_batch(BatchRating(1712.4, 1650.2, 1790.6)) == "1712 [1650, 1791]"
    assert format_batch(BatchRating(1764, 1413, 2115, bound="lower")) == "1764 [1413, ∞)"
    assert format_batch(BatchRating(1236, 885, 1587, bound="upper")) == "1236 (-∞, 1587]"
    prior = BatchRating(1500, 1100, 1900, prior_set=True, provisional=True)
    assert format_batch(prior) == "1500 [1100, 1900] ~ ?"


def _unbeaten_board() -> list[GameResult]:
    """h wins every game; the others beat each other, a stronger than b, b than c, c than d,
    and d plays few games, so its interval is the widest (outside review: "< 1734" ranked below
    "< 1709", the point that orders them shown nowhere)."""
    games = []
    for loser in "abcd":
        games += [GameResult((SeatResult("h", 1, 1), SeatResult(loser, 2, 0)))] * 3
    for winner, loser, won, lost in [("a", "b", 7, 3), ("b", "c", 7, 3), ("c", "d", 3, 1)]:
        games += [GameResult((SeatResult(winner, 1, 1), SeatResult(loser, 2, 0)))] * won
        games += [GameResult((SeatResult(loser, 1, 1), SeatResult(winner, 2, 0)))] * lost
    return games


def test_one_unbeaten_bot_leaves_every_row_showing_the_point_it_is_ordered_by():
    from leaderboard.batch import fit_batch  # numpy: loaded by this test alone

    games = _unbeaten_board()
    rows = leaderboard_rows(games, {}, fit_batch(games, bootstrap=50))
    assert [row.player for row in rows] == ["h", "a", "b", "c", "d"]
    texts = [format_batch(row.batch) for row in rows if row.batch]
    # h is bounded below only; the others, measured against each other, on both sides
    assert texts[0].endswith(", ∞) ?") and not any("∞" in text for text in texts[1:])
    points = [int(text.split()[0]) for text in texts]
    assert points == sorted(points, reverse=True), texts  # the order the rows are in
    # each shown point lies inside its shown interval
    for row, point in zip(rows, points):
        assert row.batch is not None and row.batch.low <= point <= row.batch.high


def test_the_legend_explains_the_marks_shown():
    assert legend([BatchRating(1500, 1400, 1600)]) == []
    lines = legend([BatchRating(1764, 1413, 2115, bound="lower", provisional=True)])
    assert [line[:7] for line in lines] == ["[x, ∞):", "?: prov"]
    assert "not always a perfect record" in lines[0].lower()
    assert "which sets its place" in lines[0]
    lines = legend(
        [BatchRating(1236, 885, 1587, bound="upper"), BatchRating(1500, 1, 2, prior_set=True)]
    )
    assert [line[:8] for line in lines] == ["(-∞, x]:", "~: the i"]


def test_a_player_in_two_seats_of_one_game_played_one_game():
    """As `arena match --game oregon random-python other other`: games counted 2 per game."""
    game = GameResult(
        (SeatResult("r", 2, 5), SeatResult("o", 1, 9), SeatResult("o", 3, 1, "TIMEOUT"))
    )
    again = GameResult((SeatResult("r", 1, 7), SeatResult("o", 2, 4), SeatResult("o", 3, 2)))
    rows = {row.player: row for row in leaderboard_rows([game, again], {}, {})}
    o = rows["o"]
    assert (o.games, o.forfeits) == (2, {"TIMEOUT": 1})
    # game 1: only its finished seat (rank 1, score 9); game 2: the mean of ranks 2 and 3
    assert (o.average_rank, o.average_score) == ((1 + 2.5) / 2, (9 + 3) / 2)
    table = cross_table([game, again])
    # game 1: r lost to o's first seat and beat its forfeit (1/2); game 2: r beat both (1)
    assert (table["r", "o"].games, table["r", "o"].score) == (2, 1.5)
    assert table["o", "r"].score == 0.5
