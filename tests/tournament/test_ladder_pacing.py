"""The games per hour spread over the hour (``arena.tournament.pacing``): constructed finish
times of a version's games -> how many games it may start, and when (no processes)."""

import random

import pytest

from arena.tournament.pacing import Pace, covers

PER_MINUTE = Pace(per_hour=60, burst=2)  # a game a minute, a deal of two at once


def test_a_version_without_recent_games_has_the_whole_burst():
    assert PER_MINUTE.allowance([]) == 2
    assert PER_MINUTE.allowance([3000.0, 3000.0, 2990.0]) == 2  # long ago: the bucket refilled
    assert Pace.of(240, [2, 3]).burst == 5  # one round's games: a deal on every board


def test_a_deal_spends_the_allowance_and_it_grows_back_at_the_rate():
    assert PER_MINUTE.allowance([0.0, 0.0]) == 0
    assert PER_MINUTE.allowance([30.0, 30.0]) == pytest.approx(0.5)
    assert PER_MINUTE.allowance([90.0, 90.0]) == pytest.approx(1.5)
    assert PER_MINUTE.ready_in([30.0, 30.0], 2) == pytest.approx(90.0)
    assert PER_MINUTE.ready_in([200.0, 200.0], 2) == 0.0


def test_games_beyond_the_allowance_are_a_debt_paid_back_before_the_next_deal():
    # five games within a minute (a deal half-played by a stopped run, completed by the next)
    ages = [60.0, 60.0, 10.0, 10.0, 0.0]
    assert PER_MINUTE.allowance(ages) == pytest.approx(2 - 5 + 1)
    assert PER_MINUTE.ready_in(ages, 2) == pytest.approx(240.0)  # four games at one a minute


def test_the_hour_is_spread_not_played_at_its_start():
    """A version that starts a deal whenever its allowance covers one, for two hours: never
    more than the burst plus the rate in any window, G games an hour, no hour-long wait."""
    pace = Pace(per_hour=60, burst=2)
    finished: list[float] = []
    for second in range(7200):
        ages = [second - time for time in finished]
        if covers(pace.allowance(ages), 2):
            finished += [second, second]
    assert len(finished) == pytest.approx(120, abs=2)
    for start in range(0, 7200, 60):
        in_window = [time for time in finished if start <= time < start + 600]
        assert len(in_window) <= 2 + 10  # the burst and ten minutes' rate
    gaps = [later - earlier for earlier, later in zip(finished, finished[1:], strict=False)]
    assert max(gaps) <= 120  # a deal every two minutes, not a burst and an hour's wait


def test_the_allowance_from_stored_times_is_the_bucket_played_game_by_game():
    """Read from the finish times alone (after a restart) the allowance is what a bucket kept
    in memory since the first game would hold, debts included."""
    rng = random.Random(3)
    pace = Pace(per_hour=120, burst=3)
    for _ in range(200):
        times = sorted(rng.uniform(0, 600) for _ in range(rng.randint(0, 25)))
        now = 600.0
        tokens, last = pace.burst, 0.0
        for time in times:
            tokens = min(pace.burst, tokens + pace.rate * (time - last)) - 1
            last = time
        tokens = min(pace.burst, tokens + pace.rate * (now - last))
        ages = [now - time for time in times]
        assert pace.allowance(ages) == pytest.approx(tokens)
        wait = pace.ready_in(ages, 2)
        later = [age + wait for age in ages]
        assert covers(pace.allowance(later), 2)
        if wait > 0:
            assert not covers(pace.allowance([age + wait - 1.0 for age in ages]), 2)


def test_the_next_round_waits_until_every_version_may_play_it():
    pace = Pace(per_hour=3600, burst=3)  # a game a second; a round of three games
    ages = {1: [0.0] * 3, 2: [1.0] * 3, 3: [2.0] * 3}  # allowances 0, 1 and 2
    assert pace.next_round_in(ages, [2, 3], 2) == pytest.approx(2.0)
    assert pace.next_round_in(ages, [1, 2, 3, 4], 2) == pytest.approx(3.0)  # 4: no games
    assert pace.next_round_in(ages, [3, 4], 2) == pytest.approx(1.0)
    assert pace.next_round_in(ages, [1, 2], 3) is None  # too few for a pod
