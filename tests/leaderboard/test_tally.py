"""A tally of how games finished fits as the games themselves do, and stays small."""

import random

import numpy as np
import pytest

from leaderboard.batch import fit_posterior
from leaderboard.bench import main
from leaderboard.results import GameResult, SeatResult
from leaderboard.tally import FinishTally


def _random_games(seats: int, count: int, seed: int) -> list[GameResult]:
    """Games of ``seats`` seats among 6 players, with ties, forfeits and a player that sometimes
    holds two seats, in a second pool of their own now and then."""
    rng = random.Random(seed)
    games = []
    for number in range(count):
        pool = ["x", "y"] if number % 17 == 0 else [f"p{i}" for i in range(6)]
        players = [rng.choice(pool) for _ in range(seats)]
        ranks = [rng.randint(1, seats) for _ in range(seats)]
        games.append(
            GameResult(
                tuple(
                    SeatResult(
                        player, rank, rng.random() * 100, "TIMEOUT" if rng.random() < 0.05 else ""
                    )
                    for player, rank in zip(players, ranks)
                ),
                group_key=f"deal {number // seats}",
            )
        )
    return games


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_tallys_fit_is_the_games_fit(seats: int):
    games = _random_games(seats, 600, seed=seats)
    expected = fit_posterior(games)
    tally = FinishTally(games)
    found = tally.fit()
    assert tally.games == 600
    assert found.players == expected.players
    assert np.allclose(found.rating, expected.rating, atol=1e-6)
    assert np.allclose(found.covariance, expected.covariance, atol=1e-6)
    assert list(found.games) == list(expected.games)


def test_games_that_finished_alike_are_one_entry_whatever_the_seats_scores_and_deals():
    tally = FinishTally()
    for number in range(1000):
        a_wins = number % 3 != 0
        seats = [
            SeatResult("a", 1 if a_wins else 2, number),
            SeatResult("b", 2 if a_wins else 1, 0),
        ]
        tally.add(GameResult(tuple(seats[:: 1 if number % 2 else -1]), group_key=f"{number}"))
    assert tally.games == 1000 and len(tally) == 2
    fit = tally.fit()
    assert fit.rating[0] > fit.rating[1] and list(fit.games) == [1000, 1000]


def test_an_empty_tally_rates_nobody():
    assert FinishTally().fit().players == []


def test_the_ladder_fit_bench_prints_both_ways_last(capsys):
    main(["--ladder", "--games", "400", "--players", "4", "--seats", "2"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    fields = dict(part.split("=") for part in last.split()[1:])
    assert last.startswith("ladder_fit games=400 players=4 seats=2 ")
    assert int(fields["tally_entries"]) <= 4 * 3 * 3  # who beat whom (or drew), of 4 players
    assert float(fields["tally_kib_per_game"]) < float(fields["list_kib_per_game"])
