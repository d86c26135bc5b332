"""Oregon's scoring table (oregon.md 2.4, 5.1-5.4) pinned one building type at a time on constructed
positions, with numbers worked out by hand from the table: k (own farmers around a new building)
is 2 for Red and 1 for Green everywhere here, so a rule that pays per building instead of per
farmer, or only the active seat, fails. The placements go through the scoring functions the turn
flow calls (``score_building`` / ``score_farmer``) right after putting the piece, as the engine
does; the worked examples in test_examples.py cover the same rules through legal plays."""

from __future__ import annotations

import pytest

from engine.oregon import data
from engine.oregon.enums import Building
from engine.oregon.scoring import final_result, score_building, score_farmer
from engine.oregon.state import OregonState
from tests.engine.oregon.positions import BLUE, GREEN, RED, position, sp

CENTRE = (5, 5)
# Red has two farmers around CENTRE (k = 2), Green one (k = 1), Blue none.
AROUND = {RED: [(4, 4), (4, 5)], GREEN: [(6, 6)]}


def _place_building(state: OregonState, b: Building, active: int, at=CENTRE) -> None:
    square = sp(*at)
    state._put_building(square, b - 1)
    score_building(state, square, b - 1, active)


def _place_farmer(state: OregonState, seat: int, at) -> None:
    square = sp(*at)
    state._put_farmer(square, seat)
    score_farmer(state, square, seat)


@pytest.mark.parametrize(
    "b, per_farmer",
    [
        (Building.POST_OFFICE, 3),
        (Building.HARBOR, 4),
        (Building.WAREHOUSE, 1),
        (Building.TRAIN_STATION, 1),
    ],
)
def test_building_placement_pays_every_seat_per_own_farmer(b, per_farmer):
    state = position(farmers=AROUND)
    _place_building(state, b, active=BLUE)
    assert state.score == [2 * per_farmer, 0, per_farmer]


def test_church_placement_pays_k_times_all_farmers_around():
    # n = 3 farmers of all colours; Red 2 x 3, Green 1 x 3 (5.2).
    state = position(farmers=AROUND)
    _place_building(state, Building.CHURCH, active=BLUE)
    assert state.score == [6, 0, 3]


@pytest.mark.parametrize("b, tiles", [(Building.COAL_PIT, "coal"), (Building.GOLD_MINE, "gold")])
def test_pit_or_mine_placement_gives_k_tiles_to_each_seat(b, tiles):
    # "k coal tiles": two farmers around the new pit are two tiles, not one.
    state = position(farmers=AROUND)
    stack = [5, 4, 3, 2, 1]
    setattr(state, f"{tiles}_stack", list(stack))
    _place_building(state, b, active=BLUE)
    owned = getattr(state, tiles)
    # Hand-out starts at the active seat (Blue, nothing), then Green, then Red (5.4).
    assert owned == [[2, 3], [], [1]]
    assert getattr(state, f"{tiles}_stack") == [5, 4]
    assert state.score == [0, 0, 0]  # tiles never go on the track


def test_the_active_seat_with_farmers_around_takes_its_share_first():
    state = position(farmers=AROUND)
    state.coal_stack = [9, 8, 7]
    _place_building(state, Building.COAL_PIT, active=GREEN)  # Green, then Red (wrapping), Blue
    assert state.coal == [[8, 9], [], [7]]  # the top of the stack is its end


@pytest.mark.parametrize(
    "b, token", [(Building.WAREHOUSE, "joker"), (Building.TRAIN_STATION, "extra")]
)
def test_building_placement_activates_the_tokens_of_every_seat_with_farmers_around(b, token):
    state = position(farmers=AROUND)
    _place_building(state, b, active=BLUE)
    assert getattr(state, token) == [True, False, True]


def test_building_placement_gives_no_group_bonus_and_neighbouring_buildings_score_nothing():
    state = position(farmers={RED: [(4, 4), (4, 5), (4, 6)]}, buildings=[(Building.HARBOR, 5, 6)])
    _place_building(state, Building.POST_OFFICE, active=RED)
    assert state.score == [9, 0, 0]


@pytest.mark.parametrize(
    "b, points",
    [
        (Building.POST_OFFICE, 3),
        (Building.HARBOR, 4),
        (Building.WAREHOUSE, 1),
        (Building.TRAIN_STATION, 1),
        (Building.COAL_PIT, 0),
        (Building.GOLD_MINE, 0),
    ],
)
def test_farmer_placement_scores_only_the_active_seat(b, points):
    # Green's farmer also touches the building: placing Red's farmer pays Green nothing (5.1).
    state = position(farmers={GREEN: [(6, 6)]}, buildings=[(b, *CENTRE)])
    _place_farmer(state, RED, (4, 4))
    assert state.score == [points, 0, 0]


def test_farmer_next_to_two_buildings_of_one_type_scores_each():
    state = position(
        buildings=[
            (Building.HARBOR, 5, 5),
            (Building.HARBOR, 5, 3),
            (Building.COAL_PIT, 3, 3),
            (Building.COAL_PIT, 3, 5),
        ]
    )
    state.coal_stack = [3, 2, 1]
    _place_farmer(state, RED, (4, 4))
    assert state.score[RED] == 8
    assert state.coal[RED] == [1, 2]


def test_farmer_next_to_a_church_scores_every_farmer_around_the_church_itself():
    # Church at (5,5): around it Green (6,6), Blue (4,6) and the new Red (4,4) -> 3 points; the
    # Red farmer at (3,3) touches the new farmer but not the church, so it does not count.
    state = position(
        farmers={GREEN: [(6, 6)], BLUE: [(4, 6)], RED: [(3, 3)]},
        buildings=[(Building.CHURCH, *CENTRE)],
    )
    _place_farmer(state, RED, (4, 4))
    assert state.score == [3, 0, 0]


def test_farmer_placement_activates_tokens_once_per_building():
    state = position(buildings=[(Building.WAREHOUSE, 5, 5), (Building.TRAIN_STATION, 3, 3)])
    _place_farmer(state, RED, (4, 4))
    assert state.score[RED] == 2
    assert state.joker[RED] and state.extra[RED]
    assert not state.joker[BLUE] and not state.extra[BLUE]


def test_empty_stack_gives_no_tiles_to_later_seats():
    state = position(farmers=AROUND)
    state.gold_stack = [4]
    _place_building(state, Building.GOLD_MINE, active=RED)  # Red owed 2, gets the only one
    assert state.gold == [[4], [], []]


def test_final_total_adds_coal_and_gold_to_the_track():
    state = position(players=2)
    state.score = [10, 12]
    state.coal, state.gold = [[1, 3], []], [[5], [3]]
    result = final_result(state)
    assert result.scores == (19.0, 15.0)
    assert result.ranks == (1, 2)


def test_tie_on_totals_is_broken_by_farmers_on_the_board_not_by_the_track():
    # 5.7: Blue has the lower track score but more farmers, so Blue wins the tie on totals.
    state = position(farmers={RED: [(0, 0)], BLUE: [(9, 0), (9, 1)]})
    state.score = [20, 10, 10]
    state.gold = [[], [5, 5], [3]]
    result = final_result(state)
    assert result.scores == (20.0, 20.0, 13.0)
    assert result.ranks == (2, 1, 3)


def test_group_bonus_needs_three_orthogonal_farmers_of_one_colour():
    state = position(farmers={RED: [(4, 4)], BLUE: [(4, 6)]})
    _place_farmer(state, RED, (4, 5))  # Red 2 + Blue next to it: no bonus
    assert state.score[RED] == 0
    _place_farmer(state, RED, (5, 5))  # the third one, orthogonally joined
    assert state.score[RED] == data.GROUP_POINTS == 5


def test_building_placement_adds_to_the_points_already_on_the_track():
    state = position(farmers=AROUND)
    state.score = [10, 20, 30]
    _place_building(state, Building.HARBOR, active=BLUE)
    assert state.score == [18, 20, 34]


def test_the_result_explains_each_total():
    state = position(players=2, farmers={RED: [(0, 0), (0, 1)]})
    state.score = [10, 12]
    state.coal, state.gold = [[1, 3], []], [[5], [3]]
    assert final_result(state).details == (
        "10 points + 4 coal + 5 gold, 2 farmers on the board",
        "12 points + 0 coal + 3 gold, 0 farmers on the board",
    )
    state.farmer_mask[RED] &= state.farmer_mask[RED] - 1  # one farmer left: no plural
    assert final_result(state).details[RED].endswith(", 1 farmer on the board")
