"""The ladder's matchmaking rule on constructed ratings, and the rounds it plans (no processes)."""

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

from arena.storage.bots import RegisteredVersion
from arena.storage.ladders import Lineup, Progress
from arena.storage.models import Bot, BotVersion
from arena.tournament.ladder import LadderRules, Rounds
from arena.tournament.matchmaking import Matchmaking, Ratings, pair_gains, ratings, rotations
from arena.tournament.runner import DealMemory
from leaderboard.batch import PRIOR_SD
from leaderboard.results import GameResult, SeatResult
from leaderboard.tally import FinishTally


def rated(*entrants: tuple[str, float, float, int]) -> Ratings:
    """Ratings from (player, rating, standard deviation, games), independent of each other."""
    return Ratings(
        [player for player, *_ in entrants],
        np.array([rating for _, rating, _, _ in entrants]),
        np.diag([sd**2 for _, _, sd, _ in entrants]),
        [games for *_, games in entrants],
    )


def test_a_newcomer_plays_at_once_and_who_sits_out_has_the_most_games():
    known = [(f"b{i}", 1100.0 + 200 * i, 20.0, 100 + i) for i in range(5)]
    entrants = rated(*known, ("new", 1500.0, PRIOR_SD, 0), ("x", 1300.0, 20.0, 300))
    for seed in range(20):
        pods = Matchmaking(2).round(entrants, random.Random(seed))
        seated = {p for pod in pods for p in pod}
        assert "new" in seated and "x" not in seated
        assert next(pod for pod in pods if "new" in pod)[0] == "new"  # fewest games first


def test_games_go_where_the_order_is_in_doubt():
    # a and b: near and little known; c and d: as near, but their difference is well known;
    # e and f far from everyone.
    entrants = rated(
        ("a", 1500.0, 80.0, 50),
        ("b", 1510.0, 80.0, 50),
        ("c", 1800.0, 10.0, 50),
        ("d", 1810.0, 10.0, 50),
        ("e", 1000.0, 10.0, 50),
        ("f", 2300.0, 10.0, 50),
    )
    gains = pair_gains(entrants, 2, Matchmaking(2).closeness)
    assert gains[0, 1] > 5 * gains[2, 3] > 0
    assert gains[4, 5] < gains[2, 3]
    pods = Counter(
        frozenset(pod)
        for seed in range(50)
        for pod in Matchmaking(2).round(entrants, random.Random(seed))
    )
    assert pods[frozenset("ab")] >= 45  # all but the rounds where one of them explores
    assert pods[frozenset("ef")] <= 5  # sure of their order: they sit out...


def test_nobody_starves():
    # ... unless they are behind: an entrant with fewer than half the mean games plays
    entrants = rated(
        ("a", 1500.0, 80.0, 50),
        ("b", 1510.0, 80.0, 50),
        ("e", 1000.0, 10.0, 10),
        ("f", 2300.0, 10.0, 50),
    )
    for seed in range(20):
        pods = Matchmaking(2).round(entrants, random.Random(seed))
        assert any("e" in pod for pod in pods)


def test_opponents_are_near_in_rating():
    # Two clusters far apart; inside each, ratings close and well known.
    low = [(f"low{i}", 1000.0 + 10 * i, 15.0, 200) for i in range(4)]
    high = [(f"high{i}", 2000.0 + 10 * i, 15.0, 200) for i in range(4)]
    matchmaking = Matchmaking(2)
    mixed = total = 0
    for seed in range(200):
        for a, b in matchmaking.round(rated(*low, *high), random.Random(seed)):
            total += 1
            mixed += a[:3] != b[:3]
    assert total > 600  # nearly everyone seated: every cluster's order is in doubt
    assert mixed / total < 0.05  # at random, 4 of 7 opponents are in the other cluster


def test_every_pair_meets_eventually():
    entrants = rated(*[(f"b{i}", 1000.0 + 100 * i, 10.0, 500) for i in range(8)])
    met: Counter[frozenset[str]] = Counter()
    for seed in range(3000):
        for pod in Matchmaking(2).round(entrants, random.Random(seed)):
            met[frozenset(pod)] += 1
    assert set(met) == {
        frozenset((f"b{i}", f"b{j}")) for i, j in itertools.combinations(range(8), 2)
    }
    # ... but neighbours far more often than the ends (who meet only by exploring)
    assert met[frozenset(("b3", "b4"))] > 5 * met[frozenset(("b0", "b7"))]


def test_a_round_seats_everyone_it_can_in_whole_pods():
    entrants = rated(*[(f"b{i}", 1500.0, PRIOR_SD, 0) for i in range(10)])
    pods = Matchmaking(3).round(entrants, random.Random(1))
    assert len(pods) == 3  # one entrant sits out
    assert len({p for pod in pods for p in pod}) == 9
    assert Matchmaking(2).round(entrants.select([0]), random.Random(1)) == []


def test_a_round_planned_after_another_counts_its_deals_before_their_results():
    entrants = rated(("a", 1500.0, 80.0, 50), ("b", 1510.0, 80.0, 50), ("c", 1520.0, 80.0, 50))
    after = entrants.after([("a", "b")], 2)
    assert after.games == [52, 52, 50] and list(after.rating) == list(entrants.rating)
    # a deal of two even games: information 2 * 0.25 * (ln 10 / 400)^2 on the difference a - b
    information = 2 * 0.25 * (math.log(10) / 400) ** 2
    assert 1 / (after.covariance[0, 0] + after.covariance[1, 1] - 2 * after.covariance[0, 1]) == (
        pytest.approx(1 / (2 * 80.0**2) + information, rel=1e-3)
    )
    closeness = Matchmaking(2).closeness
    assert pair_gains(after, 2, closeness)[0, 1] < pair_gains(entrants, 2, closeness)[0, 1]


def test_rounds_planned_together_spread_out():
    rounds = Rounds(1, 7, LadderRules(), {}, Progress())
    games = rounds.plan(_lineup(4), None, None, at_least=12)  # three rounds before any result
    pods = [frozenset(game.seats) for game in games if game.key.endswith("rotation 0")]
    assert len(pods) == 6 and len(set(pods)) >= 5  # 6 pairs among 4: nearly all, not 2 again


def test_ratings_of_players_without_games_are_the_prior():
    game = GameResult((SeatResult("a", 1, 1.0), SeatResult("b", 2, 0.0)), "g")
    found = ratings(FinishTally([game] * 6), ["a", "b", "c"])
    assert found.players == ["a", "b", "c"]
    assert found.rating[0] > 1500 > found.rating[1] and found.rating[2] == 1500
    assert found.games == [6, 6, 0]
    assert found.spread(0) < PRIOR_SD == found.spread(2)
    assert found.covariance[0, 1] > 0  # their ratings share the games: a difference is surer
    assert found.covariance[0, 2] == found.covariance[1, 2] == 0
    assert ratings(FinishTally(), ["a"]).spread(0) == PRIOR_SD


def test_rotations_seat_every_member_in_every_seat():
    assert rotations(("a", "b", "c")) == [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")]


def _lineup(count: int) -> Lineup:
    entrants = [
        RegisteredVersion(
            Bot(id=i, name=f"b{i}"),
            BotVersion(id=10 + i, bot_id=i, version="1", content_hash="h", games=["oregon"]),
        )
        for i in range(count)
    ]
    return Lineup(entrants, active=list(range(count)))


def test_rounds_rotate_seats_on_one_deal_and_never_repeat_a_key():
    rounds = Rounds(1, 7, LadderRules(boards=(2, 3)), {}, Progress())
    lineup = _lineup(6)
    games = rounds.plan(lineup, None, None, at_least=40)
    keys = [game.key for game in games]
    assert len(keys) == len(set(keys)) >= 40
    deals: dict[tuple[int, str], list] = {}
    for game in games:
        deals.setdefault((game.deal, game.pod), []).append(game)
    for (_, pod), deal in deals.items():
        members = tuple(int(p) for p in pod.split("+"))
        assert [game.seats for game in deal] == rotations(members)
        assert len({game.seed for game in deal}) == 1
    assert {len(game.seats) for game in games} == {2, 3}  # both boards


def test_a_rounds_rotations_come_one_after_another_not_together():
    """A game is shown live once the other rotations of its deal are played: a round plays
    every pod's first rotation before any pod's second, so the second can be watched."""
    rounds = Rounds(1, 7, LadderRules(boards=(2,)), {}, Progress())
    games = rounds.plan(_lineup(6), None, None, at_least=6)
    first_round = [game for game in games if game.deal == games[0].deal]
    turns = [int(game.key.rsplit(" ", 1)[1]) for game in first_round]
    assert turns == sorted(turns) and turns[0] == 0 and turns[-1] == 1
    assert len(first_round) == 6  # 3 pods of 6 entrants, 2 rotations each


def test_a_ladder_slot_takes_a_game_its_kept_up_bots_need_not_be_replaced_for():
    """A round plays every pod's first rotation before any second: a slot whose bots played a
    deal's first rotation takes another game (its bots would be replaced for the second)."""
    rounds = Rounds(1, 7, LadderRules(boards=(2,)), {}, Progress())
    rounds.queue = rounds.plan(_lineup(4), None, None, at_least=4)  # 2 pods, 2 rotations
    slots = [DealMemory(), DealMemory()]
    replaced = 0
    for turn in itertools.count():
        memory = slots[turn % 2]
        if (game := rounds.next_game(memory.would_replace)) is None:
            break
        replaced += memory.would_replace(game)
        memory.played(game)
    assert replaced == 0


def test_under_games_per_hour_a_round_waits_until_everyone_may_play_it():
    rounds = Rounds(1, 7, LadderRules(boards=(2,), games_per_hour=10), {}, Progress())
    lineup = _lineup(5)
    short = {10: 0.5, 11: 2.0, 12: 2.0, 13: 2.0, 14: 4.0}  # b0 cannot pay a deal (two games)
    assert rounds.plan(lineup, short, None, at_least=100) == []
    lineup.active.remove(0)  # paused: the others play
    allowance = {**short, 11: 2 - 1e-12}  # short by float error only
    games = rounds.plan(lineup, allowance, None, at_least=100)
    # one round: b4 could pay a second one, the others not
    assert Counter(p for game in games for p in game.seats) == dict.fromkeys(range(1, 5), 2)
    assert allowance[14] == 4.0  # the caller's stays as it was


def test_a_round_needs_a_deal_on_every_board_and_charges_each():
    rounds = Rounds(1, 7, LadderRules(boards=(2, 3), games_per_hour=10), {}, Progress())
    lineup = _lineup(6)
    # 4 games each would pay a 2-deal, and the 2-board would take every game from the 3-board
    assert rounds.plan(lineup, dict.fromkeys(range(10, 16), 4.0), None, at_least=100) == []
    games = rounds.plan(lineup, dict.fromkeys(range(10, 16), 7.0), None, at_least=100)
    assert Counter(p for game in games for p in game.seats) == dict.fromkeys(range(6), 5)
    assert {len(game.seats) for game in games} == {2, 3}


def test_rounds_first_complete_the_deals_a_stopped_run_left_half_played():
    unfinished = {(4, "2+0"): {0}, (4, "1+3"): set(), (3, "0+1"): {1}}
    rounds = Rounds(1, 7, LadderRules(), {}, Progress(5, unfinished))
    lineup = _lineup(4)
    lineup.active.remove(3)  # b3 paused since: its deal stays unfinished
    games = rounds.plan(lineup, None, None, at_least=0)
    assert [game.key for game in games] == [
        "round 3 pod 0+1 rotation 0",
        "round 4 pod 2+0 rotation 1",
    ]
    assert games[1].seats == (0, 2)
    assert rounds.plan(lineup, None, 3, at_least=10)[0].deal == 5  # then new rounds, from 5


def test_local_gains_are_the_exact_gains_when_the_ratings_are_independent():
    # With independent ratings a deal narrows only the pairs of its own two entrants, the ones
    # the local gains count: within every place they are the exact gains.
    rng = np.random.default_rng(3)
    entrants = rated(
        *[
            (f"b{i}", 1500 + 150 * rng.standard_normal(), 30 + 100 * rng.random(), 10)
            for i in range(12)
        ]
    )
    closeness = Matchmaking(2).closeness
    exact = pair_gains(entrants, 2, closeness)
    assert pair_gains(entrants, 2, closeness, near=11) == pytest.approx(exact, rel=1e-9, abs=1e-15)
    # within 3 places: the pairs further apart in the rating order are no candidates
    local = pair_gains(entrants, 2, closeness, near=3)
    place = np.argsort(np.argsort(entrants.rating))
    apart = np.abs(place[:, None] - place[None, :])
    assert (local[apart > 3] == 0).all() and (local[(apart >= 1) & (apart <= 3)] > 0).all()


def test_a_large_board_pairs_entrants_near_each_other_in_the_rating_order():
    # Above exact_up_to the rounds use the local gains: every pod (but the exploring ones)
    # seats entrants at most `near` places apart.
    entrants = rated(*[(f"b{i:03d}", 1000.0 + 5 * i, 40.0, 30) for i in range(300)])
    matchmaking = Matchmaking(2, exact_up_to=100, near=10)
    pods = matchmaking.round(entrants, random.Random(5))
    assert len(pods) >= 140  # nearly everyone seated
    far = [pod for pod in pods if abs(int(pod[0][1:]) - int(pod[1][1:])) > 10]
    assert len(far) <= 10  # explore: 1% of entrants paired at random
