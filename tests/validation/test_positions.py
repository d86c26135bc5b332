"""The constructed positions (arena.positions): one per decision kind of every game, each an
exact engine state that the engine's replay reaches, where that kind is next."""

import pytest

from arena.positions import Position, decision_kinds, position, positions, search
from arena.validation import Status
from arena.validation.games import kinds_check
from engine.registry import game_names

EVERY_KIND = [(game, kind) for game in game_names() for kind in decision_kinds(game)]


def test_every_decision_kind_of_every_game_has_a_position():
    for game in game_names():
        assert [p.kind for p in positions(game)] == decision_kinds(game)


@pytest.mark.parametrize("game, kind", EVERY_KIND)
def test_the_position_replays_to_a_state_where_its_kind_is_next(game, kind):
    state = position(game, kind).state()
    assert not state.is_over
    assert state.decision_kind == kind
    assert len(state.legal_actions()) >= 2  # a real decision, asked of a bot


@pytest.mark.parametrize("game, kind", EVERY_KIND)
def test_the_recorded_position_is_the_one_the_search_finds(game, kind):
    # The record is the search's output, not hand-made: `python -m arena.positions` rewrites it.
    assert search(game, kind) == position(game, kind)


def test_a_kind_that_needs_an_option_is_found_with_it():
    permit = position("merkator", "PERMIT_JOIN")
    assert permit.options == {"join_needs_permission": True}
    assert permit.state().options["join_needs_permission"] is True


def test_a_position_survives_its_json_form():
    original = position("oregon", "DISCARD_WHEN_STUCK")
    assert Position.from_json(original.to_json()) == original


def test_an_unreachable_kind_is_reported():
    with pytest.raises(LookupError, match="no seeded random game reaches NO_SUCH_KIND"):
        search("oregon", "NO_SUCH_KIND")


def test_validates_kinds_check_names_the_kinds_reached_from_positions():
    every = set(decision_kinds("oregon"))
    check = kinds_check("oregon", every, every - {"DISCARD_WHEN_STUCK"}, played=True)
    assert check.status is Status.PASS
    assert "reached all 5 (DISCARD_WHEN_STUCK from positions)" in check.detail


def test_a_kind_reached_neither_way_is_a_warning_that_names_it():
    check = kinds_check("oregon", {"PLAY", "DRAW"}, played=True)
    assert check.status is Status.WARN
    assert "not reached: PLACE_START_TILE, USE_EXTRA_TURN, DISCARD_WHEN_STUCK" in check.detail
    assert "python -m arena.positions" in check.hint
