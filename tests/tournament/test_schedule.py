from collections import Counter, defaultdict

import pytest

from arena.tournament.schedule import build_schedule, deal_seed, schedule_size


@pytest.mark.parametrize(("entrants", "players", "deals"), [(3, 2, 2), (4, 3, 2), (5, 4, 1)])
def test_every_entrant_sits_in_every_seat_of_every_deal(entrants, players, deals):
    games = build_schedule(entrants, players, deals, seed=11)
    assert len(games) == schedule_size(entrants, players, deals)
    assert len({game.key for game in games}) == len(games)
    by_deal = defaultdict(list)
    for game in games:
        by_deal[game.pod, game.deal].append(game)
    assert len(by_deal) == schedule_size(entrants, players, deals) // players
    for (pod, _), rotations in by_deal.items():
        members = sorted(map(int, pod.split("+")))
        assert len({game.seed for game in rotations}) == 1  # one deal, one seed
        seatings = Counter(
            (entrant, seat) for game in rotations for seat, entrant in enumerate(game.seats)
        )
        assert seatings == Counter({(e, s): 1 for e in members for s in range(players)})


def test_schedule_follows_from_settings_and_seed():
    assert build_schedule(4, 2, 3, seed=5) == build_schedule(4, 2, 3, seed=5)
    other = build_schedule(4, 2, 3, seed=6)
    assert [g.key for g in other] == [g.key for g in build_schedule(4, 2, 3, seed=5)]
    assert [g.seed for g in other] != [g.seed for g in build_schedule(4, 2, 3, seed=5)]


def test_deals_have_distinct_seeds():
    seeds = {deal_seed(1, pod, deal) for pod in ("0+1", "0+2", "1+2") for deal in range(50)}
    assert len(seeds) == 150
    assert all(0 <= seed < 2**63 for seed in seeds)
