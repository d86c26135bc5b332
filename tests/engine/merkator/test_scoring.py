"""Final scoring (merkator.md 2.6 and 5.2-5.3) pinned kind by kind on constructed holdings, every
number worked out by hand from the rules text: contract points with exact halves, one building of
each scoring kind (with the edge of its rounding or threshold), the strict "sole most" rule, the
Alsterhaus misprint option, and the time-marker tie-break."""

from __future__ import annotations

import pytest

from engine.merkator import data
from engine.merkator.scoring import (
    Holdings,
    building_points,
    contract_points_x2,
    final_result,
    is_type_dependent,
    score_x2,
)


def good(name: str) -> int:
    return data.GOOD_NAMES.index(name)


def building(name: str) -> int:
    return data.BUILDING_NAMES.index(name)


def contract(cid: str) -> int:
    return data.CONTRACT_IDS.index(cid)


def kontor(**cubes: int) -> tuple[int, ...]:
    """Cubes per good, by name with '_' for a space (Fish_oil)."""
    held = [0] * data.NUM_GOODS
    for name, count in cubes.items():
        held[good(name.replace("_", " "))] = count
    return tuple(held)


def holdings(kontor_=(0,) * 16, contracts=(), bonus_cards=(), buildings=(), markers=0, coins=0):
    return Holdings(
        tuple(kontor_), tuple(contracts), tuple(bonus_cards), tuple(buildings), markers, coins
    )


def points(name: str, mine: Holdings, *others: Holdings, misprint: bool = False) -> int:
    return building_points(building(name), 0, [mine, *others], misprint)


# --- contracts (5.2 step 2) --------------------------------------------------------------------
# C01..C05 are worth 2, C06..C16 3, C53..C61 7, C62..C68 8, C69..C73 9, C74..C77 10, C78 (the
# Peace of Westphalia) 14 and no location.
def test_five_highest_contracts_score_in_full_and_the_rest_half_exactly():
    # 8 + 7 + 7 + 3 + 3 in full = 28; then 3 and 2 halved = 2.5; total 30.5, stored doubled.
    held = [contract(c) for c in ("C06", "C62", "C07", "C01", "C53", "C08", "C54")]
    assert contract_points_x2(held) == 61


def test_five_contracts_or_fewer_all_score_in_full():
    assert contract_points_x2([contract(c) for c in ("C01", "C06", "C53", "C62", "C74")]) == 60
    assert contract_points_x2([]) == 0


# --- one building per scoring kind (2.6) ---------------------------------------------------------
def test_types_present_counts_goods_with_a_cube_not_cubes():
    mine = holdings(kontor(Muskets=1, Iron=3, Grain=5))
    assert points("Alsterhaus", mine) == 3
    assert points("Arsenal", mine) == 4  # Muskets and Iron count, Grain is not an Arsenal good


def test_the_alsterhaus_misprint_counts_every_cube():
    assert points("Alsterhaus", holdings(kontor(Muskets=1, Iron=3, Grain=5)), misprint=True) == 9


def test_cubes_per_n_round_down_over_the_named_goods_together():
    mine = holdings(kontor(Grain=2, Ham=1, Citrus=2, Wine=3))
    assert points("Kornhaus", mine) == 2  # 5 cubes of its goods (Wine is not one) // 2
    assert points("Ratsweinkeller", mine) == 3  # Wine or Plums, 1 each
    assert points("Brauerei", mine) == 2
    assert points("Speicher", mine) == 2  # 8 cubes of any goods // 3
    assert points("Gewuerzspeicher", holdings(kontor(Spices=3))) == 6


@pytest.mark.parametrize("fish_oil, expected", [(0, 0), (1, 0), (2, 2), (3, 2), (4, 5), (7, 5)])
def test_cube_thresholds_take_the_first_threshold_reached(fish_oil, expected):
    assert points("Trankocherei", holdings(kontor(Fish_oil=fish_oil))) == expected


def test_types_with_min_counts_goods_with_enough_cubes():
    assert points("Stapelhaus", holdings(kontor(Grain=3, Wine=2, Iron=5))) == 4


def test_markers_coins_buildings_and_bonus_cards():
    assert points("Boerse", holdings(markers=5)) == 2
    assert points("Zollhaus", holdings(coins=7)) == 3
    rathaus = holdings(buildings=(building("Rathaus"), building("Boerse")))
    assert points("Rathaus", rathaus) == 4  # itself included
    assert points("Admiralitaet", holdings(bonus_cards=(0, 1, 2))) == 6


def test_contracts_by_value():
    held = holdings(contracts=[contract(c) for c in ("C62", "C69", "C78", "C53", "C30", "C01")])
    assert points("St. Michaelis", held) == 9  # 8, 9 and the Peace (14): 3 each; 7 is too low
    assert points("Waisenhaus", held) == 2  # 5 and 2: values of 5 or less


def test_contract_locations_count_each_place_once_and_the_peace_never():
    # HAM (major) twice, ENG (major), SPA (major), NEW (minor) twice, the Peace (no place).
    held = holdings(
        contracts=[contract(c) for c in ("C06", "C62", "C02", "C64", "C61", "C68", "C78")]
    )
    assert points("Kontorhaus", held) == 6  # 3 majors
    assert points("Landungsbruecken", held) == 2  # 1 minor


@pytest.mark.parametrize(
    "name, measure",
    [
        ("Kaufmannsgilde", lambda n: holdings(contracts=[contract("C01")] * n)),
        ("Handelskammer", lambda n: holdings(contracts=[contract("C01")] * n)),  # value 2 each
        ("Bankhaus", lambda n: holdings(markers=n)),
        ("Baumeisterhaus", lambda n: holdings(buildings=(0,) * n)),
        ("Lagerhaus", lambda n: holdings(kontor(Grain=n))),
    ],
)
def test_sole_most_needs_strictly_more_than_every_other_player(name, measure):
    worth = data.BUILDING_SCORING[building(name)]["points"]
    assert points(name, measure(3), measure(2), measure(1)) == worth
    assert points(name, measure(3), measure(3), measure(1)) == 0  # a tie for most is not sole
    assert points(name, measure(2), measure(3)) == 0


# --- total, winner and ties (5.2 step 4, 5.3) ------------------------------------------------
def test_totals_add_contracts_and_buildings_and_markers_break_ties():
    boerse = building("Boerse")
    a = holdings(contracts=[contract("C53")], buildings=(boerse,), markers=4)  # 7 + 2 = 9
    b = holdings(contracts=[contract("C69")], markers=1)  # 9, fewer markers
    c = holdings(contracts=[contract("C69")], markers=1)  # 9, same markers as b
    d = holdings(contracts=[contract("C01")] * 6, markers=9)  # 10 + 1 = 11
    result = final_result([a, b, c, d], misprint=False)
    assert result.scores == (9.0, 9.0, 9.0, 11.0)
    assert result.ranks == (2, 3, 3, 1)


def test_coins_cubes_and_markers_score_nothing_by_themselves():
    rich = holdings(kontor(Grain=9), coins=15, markers=12)
    assert final_result([rich, holdings()], misprint=False).scores == (0.0, 0.0)


def test_the_misprint_option_reaches_the_final_result():
    # Alsterhaus with 9 cubes of 3 goods: 3 points as corrected, 9 as misprinted.
    mine = holdings(kontor(Muskets=1, Iron=3, Grain=5), buildings=(building("Alsterhaus"),))
    assert final_result([mine, holdings()], misprint=False).scores == (3.0, 0.0)
    assert final_result([mine, holdings()], misprint=True).scores == (9.0, 0.0)


def test_which_buildings_ask_final_place():
    # 2.6: type-dependent buildings ask; the misprinted Alsterhaus counts every cube: it does not.
    alsterhaus, arsenal, boerse = building("Alsterhaus"), building("Arsenal"), building("Boerse")
    assert is_type_dependent(alsterhaus, misprint=False)
    assert not is_type_dependent(alsterhaus, misprint=True)
    assert is_type_dependent(arsenal, misprint=True)
    assert not is_type_dependent(boerse, misprint=False)


def test_the_breakdown_counts_time_markers_in_words():
    one, two = holdings(markers=1), holdings(markers=2)
    assert score_x2(0, [one, two], misprint=False)[1].endswith("; 1 marker")
    assert score_x2(1, [one, two], misprint=False)[1].endswith("; 2 markers")
