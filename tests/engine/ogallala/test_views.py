"""Views (section 6): shuffling the hidden stack order changes no view and no legal list; views
show exactly the public multisets; all seats see the same; rendering shows every display. The
leak test by resampling is in tests/engine/test_contract.py."""

import random
from collections import Counter

import pytest

from engine.ogallala import GAME
from engine.ogallala.data import KIND_NAMES
from engine.ogallala.views import KindCount
from tests.engine.harness import random_decision_points


def _multiset(kinds) -> tuple[KindCount, ...]:
    counts = Counter(KIND_NAMES[k] for k in kinds)
    return tuple(KindCount(name, counts[name]) for name in KIND_NAMES if counts[name])


@pytest.mark.parametrize("players", (2, 5))
def test_views_are_the_same_for_every_seat_and_show_only_multisets(players):
    for state in random_decision_points(GAME, players, seed=40 + players, every=4):
        views = [state.view(seat) for seat in range(players)]
        assert [v.seat for v in views] == list(range(players))
        assert len({repr(v).replace(f"seat={v.seat}, num", "num", 1) for v in views}) == 1
        view = views[0]
        originals = [c for s, r in zip(state.stacks, state.refilled) if not r for c in s]
        assert view.unseen == _multiset(originals)
        for stack, cards, refilled in zip(view.stacks, state.stacks, state.refilled):
            assert stack.size == len(cards) and stack.refilled == refilled
            assert stack.contents == (_multiset(cards) if refilled else ())


def test_shuffling_the_stacks_changes_no_view_and_no_legal_action():
    rng = random.Random(3)
    for state in random_decision_points(GAME, 4, seed=8, every=6):
        if state.is_over:
            continue
        other = state.clone()
        pool = [c for s, r in zip(other.stacks, other.refilled) if not r for c in s]
        rng.shuffle(pool)  # the split of the unseen cards among the original stacks is secret
        for index, refilled in enumerate(other.refilled):
            if refilled:
                rng.shuffle(other.stacks[index])
            else:
                size = len(other.stacks[index])
                other.stacks[index], pool = pool[:size], pool[size:]
        for seat in range(4):
            assert repr(other.view(seat)) == repr(state.view(seat))
        assert other.legal_actions() == state.legal_actions()


def test_render_shows_every_display_with_complete_boats_in_brackets():
    from tests.engine.ogallala.positions import start_of_turn

    state = start_of_turn(3, {0: ("Bp W2 Sp W3",), 2: ("Bi CB",)})
    text = state.render()
    assert "seat 0: 1 complete boats, 3 points" in text
    assert "[Bp  W2  Sp] W3" in text
    assert "seat 1: 0 complete boats" in text and "  r0  Bi  CB" in text
    assert "seat 0 CHOOSE_STACK" in text
