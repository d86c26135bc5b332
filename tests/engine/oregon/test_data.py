"""The board data and derived geometry agree with the figures printed in oregon.md (2.2, 2.3,
4.2)."""

from itertools import combinations_with_replacement

from engine.oregon import data
from engine.oregon.enums import Building
from engine.oregon.play_options import play_segments

HARBOR = Building.HARBOR - 1


def _terrain_mask(letter: str) -> int:
    return data.mask_of(
        sp for sp in range(data.SPACES) if data.TERRAIN[sp // 15][sp % 15] == letter
    )


def test_band_union_table_of_section_2_3():
    expected = {  # symbol: non-water, G, F, M, R, harbor spaces
        "WAGON": (51, 18, 15, 13, 5, 8),
        "BISON": (49, 20, 10, 8, 11, 7),
        "SETTLER": (54, 21, 11, 9, 13, 8),
        "EAGLE": (48, 24, 10, 8, 6, 12),
        "CAMPFIRE": (51, 17, 13, 13, 8, 10),
    }
    for s, name in enumerate(data.SYMBOLS):
        band = data.BAND_UNION[s]
        assert band.bit_count() == 54
        got = (
            (band & data.FARMER_LEGAL).bit_count(),
            *((band & _terrain_mask(t)).bit_count() for t in "GFMR"),
            (band & data.BUILDING_LEGAL[HARBOR]).bit_count(),
        )
        assert got == expected[name], name


def test_start_tile_option_maxima_of_section_4_2():
    sizes = {Building(b + 1).name: legal.bit_count() for b, legal in enumerate(data.BUILDING_LEGAL)}
    assert sizes == {
        "POST_OFFICE": 54,
        "HARBOR": 26,
        "CHURCH": 54,
        "WAREHOUSE": 34,
        "TRAIN_STATION": 24,
        "COAL_PIT": 26,
        "GOLD_MINE": 26,
    }


def test_map_features_of_section_2_2():
    lakes = {
        (1, 2),
        (1, 3),
        (2, 2),
        (2, 3),
        (2, 4),
        (3, 3),
        (6, 11),
        (7, 10),
        (7, 11),
        (7, 12),
        (8, 9),
        (8, 10),
    }
    assert set(map(data.row_col, data.spaces_of(data.WATER))) == lakes
    rail = set(data.spaces_of(_terrain_mask("R")))
    seen, todo = set(), [min(rail)]
    while todo:
        sp = todo.pop()
        if sp not in seen:
            seen.add(sp)
            todo.extend(n for n in data.ORTHOGONAL[sp] if n in rail)
    assert len(rail) == 24 and seen == rail
    assert all((area & data.FARMER_LEGAL).bit_count() >= 3 for row in data.AREA for area in row)


def test_neighbourhoods():
    assert len(data.NEIGHBOURS[data.space(0, 0)]) == 3
    assert len(data.NEIGHBOURS[data.space(5, 5)]) == 8
    assert len(data.ORTHOGONAL[data.space(5, 5)]) == 4
    assert data.nth_space(data.AREA[0][0], 4) == data.space(1, 1)


def _max_options(hand_size: int, joker: bool) -> int:
    """The largest PLAY option list over all hands of this size, on an empty board."""
    best = 0
    for cards in combinations_with_replacement(range(data.NUM_CARDS), hand_size):
        hand = [cards.count(c) for c in range(data.NUM_CARDS)]
        if any(
            n > copies for n, copies in zip(hand, data.LANDSCAPE_COPIES + data.BUILDING_CARD_COPIES)
        ):
            continue
        segments = play_segments(hand, joker, True, data.STACK_TILES, data.FARMER_LEGAL)
        best = max(best, sum(seg.size for seg in segments))
    return best


def test_play_option_maxima_of_section_4_3():
    assert _max_options(4, joker=True) == 312
    assert _max_options(4, joker=False) == 102
    assert max(_max_options(2, joker=True), _max_options(3, joker=True)) == 213
