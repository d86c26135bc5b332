"""Final scoring (ogallala.md 5.3, R26-R28) pinned rule by rule on constructed boats, each case
worked out by hand from the rules text: random play rarely builds the rarer set layouts, so every
branch of the booty rule gets a boat of its own here. Boats are written left to right in the short
card names of section 9 (Bp plain bow, Sp plain stern, W1 a 1-point warrior)."""

from __future__ import annotations

import pytest

from engine.ogallala.scoring import (
    boat_points,
    booty_points,
    card_points,
    display_score,
    final_result,
)
from engine.ogallala.views import EndReason
from tests.engine.ogallala.positions import display, kinds

# Every set as (person, left half, right half), in the short names.
SETS = [
    ("CB", "HF", "HB"),
    ("GD", "GL", "GR"),
    ("BH", "BF", "BB"),
    ("IH", "IF", "IB"),
    ("LJ", "TL", "TR"),
]


@pytest.mark.parametrize("person, left, right", SETS)
def test_triple_with_the_person_right_of_the_pair(person, left, right):
    # 5.3: a pair with P = R + 1 is a triple, exactly as with P = L - 1: 3 x 3 x 10.
    assert booty_points(kinds(f"Bp {left} {right} {person} Sp")) == 90


@pytest.mark.parametrize("person, left, right", SETS)
def test_triple_with_the_person_left_of_the_pair(person, left, right):
    assert booty_points(kinds(f"Bp {person} {left} {right} Sp")) == 90


@pytest.mark.parametrize("person, left, right", SETS)
def test_pair_without_the_person_doubles_the_halves_only(person, left, right):
    assert booty_points(kinds(f"Bp {left} {right} Sp")) == 40
    # The person in the boat but not next to the pair counts 1x (R27): 20 + 20 + 10.
    assert booty_points(kinds(f"Bp {person} W1 {left} {right} Sp")) == 50
    assert booty_points(kinds(f"Bp {left} {right} W1 {person} Sp")) == 50


@pytest.mark.parametrize("person, left, right", SETS)
def test_halves_in_the_wrong_order_or_apart_are_singles(person, left, right):
    assert booty_points(kinds(f"Bp {right} {left} Sp")) == 20
    assert booty_points(kinds(f"Bp {right} {left} {person} Sp")) == 30
    assert booty_points(kinds(f"Bp {left} W1 {right} Sp")) == 20
    # The person between the halves breaks the pair, so there is no triple either.
    assert booty_points(kinds(f"Bp {left} {person} {right} Sp")) == 30


@pytest.mark.parametrize("person, left, right", SETS)
def test_a_person_next_to_one_half_alone_gives_nothing_extra(person, left, right):
    assert booty_points(kinds(f"Bp {person} {left} Sp")) == 20
    assert booty_points(kinds(f"Bp {right} {person} Sp")) == 20
    assert booty_points(kinds(f"Bp {person} {right} Sp")) == 20


def test_single_booty_cards_count_ten_each_and_indians_count_nothing():
    assert booty_points(kinds("Bp SQ CA TP CN Sp")) == 40
    assert booty_points(kinds("Bi W8 CH MM TO Si")) == 0


def test_two_sets_in_one_boat_score_independently():
    # horse triple (person right) 90 + gold pair 40 + a lone bear half 10.
    assert booty_points(kinds("Bp HF HB CB GL GR BF Sp")) == 140
    # Two triples sharing nothing: person left for one, right for the other.
    assert booty_points(kinds("Bp CB HF HB GL GR GD Sp")) == 180


def test_card_points_switch_from_one_to_two_per_card_at_eight_cards():
    # R26: n <= 7 scores n, n >= 8 scores 2n; every card counts, booty included.
    assert card_points(kinds("Bp W1 W1 W1 W1 W1 Sp")) == 7
    assert card_points(kinds("Bp W1 W1 W1 W1 W1 W1 Sp")) == 16
    assert card_points(kinds("Bp Sp")) == 2


def test_boat_points_add_card_and_booty_points():
    # 8 cards (16 card points) with a person-right triple (90).
    assert boat_points(kinds("Bp W1 HF HB CB W2 W3 Sp")) == 16 + 90


def test_unfinished_boats_score_nothing_and_complete_boats_add_up():
    # Row 0: a complete boat of 3 cards with a single (3 + 10); row 1: bow and booty, no stern.
    assert display_score(display("Bp SQ Sp", "Bp HF HB CB")) == 13
    # The same pieces in a completed row: 6 cards + triple.
    assert display_score(display("Bp SQ Sp", "Bp HF HB CB Sp")) == 13 + 5 + 90


def test_sets_are_judged_one_by_one_a_broken_set_does_not_stop_the_next():
    # Horse halves apart (singles, 20) before a gold pair (40) in one boat.
    assert booty_points(kinds("Bp HF W1 HB GL GR Sp")) == 60


def test_the_result_names_every_complete_boat_and_the_end_reason():
    # Seat 0: a boat at row 0 from column 0 (3 cards + a single) and one at row 1 from column 2
    # (5 cards + a person-right triple); seat 1: nothing complete.
    first = display("Bp SQ Sp . . . .", ". . Bp HF HB CB Sp")
    second = display("Bp W1 W2")
    result = final_result([first, second], EndReason.FIVE_BOATS)
    assert result.scores == (108.0, 0.0)
    assert result.ranks == (1, 2)
    assert result.details == (
        "108 points: boat (0,0) 3+10, boat (1,2) 5+90; game end: five boats",
        "0 points; game end: five boats",
    )
    assert final_result([second], None).details == ("0 points; game end: ",)
