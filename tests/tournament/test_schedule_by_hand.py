"""The schedule against numbers and lists worked out by hand for small cases, not against other
functions of the product (test_schedule.py checks properties over bigger cases)."""

import hashlib

import pytest

from arena.tournament.schedule import build_schedule, deal_seed, schedule_size


def test_three_entrants_two_seats_two_deals_in_full():
    # Pods 0+1, 0+2, 1+2; each deal once per rotation; deal by deal, rotation, pod by pod.
    games = build_schedule(3, 2, 2, seed=7)
    assert [(g.pod, g.deal, g.seats) for g in games] == [
        ("0+1", 0, (0, 1)),
        ("0+2", 0, (0, 2)),
        ("1+2", 0, (1, 2)),
        ("0+1", 0, (1, 0)),
        ("0+2", 0, (2, 0)),
        ("1+2", 0, (2, 1)),
        ("0+1", 1, (0, 1)),
        ("0+2", 1, (0, 2)),
        ("1+2", 1, (1, 2)),
        ("0+1", 1, (1, 0)),
        ("0+2", 1, (2, 0)),
        ("1+2", 1, (2, 1)),
    ]
    assert games[0].key == "pod 0+1 deal 0 rotation 0"
    assert games[-1].key == "pod 1+2 deal 1 rotation 1"


def test_four_entrants_three_seats_one_deal_rotates_each_pod():
    games = build_schedule(4, 3, 1, seed=7)
    assert [g.seats for g in games] == [
        (0, 1, 2),
        (0, 1, 3),
        (0, 2, 3),
        (1, 2, 3),
        (1, 2, 0),
        (1, 3, 0),
        (2, 3, 0),
        (2, 3, 1),
        (2, 0, 1),
        (3, 0, 1),
        (3, 0, 2),
        (3, 1, 2),
    ]


@pytest.mark.parametrize(
    "entrants, players, deals, games",
    [
        (2, 2, 1, 2),  # one pod, two rotations
        (3, 2, 2, 12),  # 3 pods x 2 deals x 2 rotations
        (4, 3, 2, 24),  # 4 pods x 2 x 3
        (5, 4, 1, 20),  # 5 pods x 1 x 4
        (4, 4, 3, 12),  # 1 pod x 3 x 4
        (6, 2, 1, 30),  # 15 pods x 1 x 2
    ],
)
def test_schedule_sizes_worked_out_by_hand(entrants, players, deals, games):
    assert schedule_size(entrants, players, deals) == games
    assert len(build_schedule(entrants, players, deals, seed=1)) == games


def test_the_rotations_of_a_deal_share_its_seed_and_every_deal_has_its_own():
    games = build_schedule(3, 2, 3, seed=7)
    seeds = {}
    for g in games:
        seeds.setdefault((g.pod, g.deal), set()).add(g.seed)
    assert all(len(s) == 1 for s in seeds.values())
    distinct = {s.pop() for s in seeds.values()}
    assert len(distinct) == 3 * 3, "3 pods x 3 deals, each its own seed"


def test_deal_seed_is_the_documented_hash():
    # Stored tournaments resume by replaying these seeds: the derivation must not drift.
    digest = hashlib.blake2b(b"42/0+1/3", person=b"arena-deal", digest_size=8).digest()
    assert deal_seed(42, "0+1", 3) == int.from_bytes(digest, "big") >> 1
    assert deal_seed(42, "0+1", 3) != deal_seed(42, "0+1", 4) != deal_seed(43, "0+1", 4)
    assert deal_seed(42, "0+1", 3) != deal_seed(42, "0+2", 3)
