"""sample_bots/predictability.py: the logistic fit recovers a known model, and self-play yields
rows in every third of a game with the result of the seat to move."""

import importlib.util
import random

import numpy as np
import pytest

from tests.support.bots import SAMPLE_BOTS

spec = importlib.util.spec_from_file_location("predictability", SAMPLE_BOTS / "predictability.py")
predictability = importlib.util.module_from_spec(spec)
spec.loader.exec_module(predictability)


def test_the_fit_recovers_the_weights_that_drew_the_results():
    rng = random.Random(3)
    x = np.array([rng.gauss(0.0, 1.0) for _ in range(20_000)])
    p = 1.0 / (1.0 + np.exp(-(0.5 + 2.0 * x)))
    y = np.array([float(rng.random() < q) for q in p])

    assert predictability.fit_logistic(x, y) == pytest.approx([0.5, 2.0], abs=0.1)


@pytest.mark.parametrize("name", ["oregon", "ogallala"])
def test_self_play_rows_cover_every_third_and_one_seat_wins_or_both_tie(name):
    rows = predictability.positions(name, 2)

    assert {third for _, _, third, _ in rows} == {0, 1, 2}
    for game in (0, 1):
        results = {won for g, _, _, won in rows if g == game}
        assert results in ({0.0, 1.0}, {0.5})  # both seats move in every game
