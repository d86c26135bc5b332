"""The ladder's matchmaking rule on constructed ratings, and the rounds it plans (no processes)."""

import itertools
import random
from collections import Counter

from arena.storage.bots import RegisteredVersion
from arena.storage.ladders import Lineup, Progress
from arena.storage.models import Bot, BotVersion
from arena.tournament.ladder import LadderRules, Rounds
from arena.tournament.matchmaking import Matchmaking, Standing, rotations, standings
from leaderboard.batch import PRIOR_SD
from leaderboard.results import GameResult, SeatResult


def test_a_newcomer_plays_at_once_and_who_sits_out_has_the_most_games():
    rated = [Standing(f"b{i}", 1100 + 200 * i, 20.0, 100 + i) for i in range(5)]
    newcomer = Standing("new", 1500.0, PRIOR_SD, 0)
    for seed in range(20):
        pods = Matchmaking(2).round(
            [*rated, newcomer, Standing("x", 1300.0, 20.0, 300)], random.Random(seed)
        )
        seated = {p for pod in pods for p in pod}
        assert "new" in seated and "x" not in seated
        assert next(pod for pod in pods if "new" in pod)[0] == "new"  # fewest games first


def test_opponents_are_near_in_rating():
    # Two clusters far apart; inside each, ratings close and well known.
    low = [Standing(f"low{i}", 1000 + 10 * i, 15.0, 200) for i in range(4)]
    high = [Standing(f"high{i}", 2000 + 10 * i, 15.0, 200) for i in range(4)]
    matchmaking = Matchmaking(2)
    mixed = total = 0
    for seed in range(200):
        for a, b in matchmaking.round([*low, *high], random.Random(seed)):
            total += 1
            mixed += a[:3] != b[:3]
    assert total == 800  # everyone seated
    assert mixed / total < 0.15  # at random, 4 of 7 opponents are in the other cluster


def test_every_pair_meets_eventually():
    ratings = [Standing(f"b{i}", 1000 + 100 * i, 10.0, 500) for i in range(8)]
    met = Counter()
    for seed in range(10_000):
        for pod in Matchmaking(2).round(ratings, random.Random(seed)):
            met[frozenset(pod)] += 1
    assert set(met) == {
        frozenset((f"b{i}", f"b{j}")) for i, j in itertools.combinations(range(8), 2)
    }
    # ... but neighbours far more often than the ends (who meet only by exploring)
    assert met[frozenset(("b3", "b4"))] > 5 * met[frozenset(("b0", "b7"))]


def test_a_round_seats_everyone_it_can_in_whole_pods():
    entrants = [Standing(f"b{i}") for i in range(10)]
    pods = Matchmaking(3).round(entrants, random.Random(1))
    assert len(pods) == 3  # one entrant sits out
    assert len({p for pod in pods for p in pod}) == 9
    assert Matchmaking(2).round(entrants[:1], random.Random(1)) == []


def test_standings_of_players_without_games_are_the_prior():
    game = GameResult((SeatResult("a", 1, 1.0), SeatResult("b", 2, 0.0)), "g")
    found = {s.player: s for s in standings([game] * 6, ["a", "b", "c"])}
    assert found["c"] == Standing("c")
    assert found["a"].rating > 1500 > found["b"].rating
    assert found["a"].games == 6 and found["a"].spread < PRIOR_SD


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
    games = rounds.plan(lineup, {}, None, at_least=40)
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


def test_rounds_leave_out_who_played_its_games_per_hour():
    rounds = Rounds(1, 7, LadderRules(games_per_hour=10), {}, Progress())
    lineup = _lineup(4)
    busy = {10: 10, 11: 9}  # b0 is at its limit; b1 has one game left, a deal is two
    games = rounds.plan(lineup, busy, None, at_least=1)
    assert games and all(0 not in game.seats and 1 not in game.seats for game in games)
    assert rounds.plan(lineup, {10: 10, 11: 10, 12: 10, 13: 10}, None, at_least=1) == []


def test_rounds_first_complete_the_deals_a_stopped_run_left_half_played():
    unfinished = {(4, "2+0"): {0}, (4, "1+3"): set(), (3, "0+1"): {1}}
    rounds = Rounds(1, 7, LadderRules(), {}, Progress(5, unfinished))
    lineup = _lineup(4)
    lineup.active.remove(3)  # b3 paused since: its deal stays unfinished
    games = rounds.plan(lineup, {}, None, at_least=0)
    assert [game.key for game in games] == [
        "round 3 pod 0+1 rotation 0",
        "round 4 pod 2+0 rotation 1",
    ]
    assert games[1].seats == (0, 2)
    assert rounds.plan(lineup, {}, 3, at_least=10)[0].deal == 5  # then new rounds, from 5
