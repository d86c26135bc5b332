"""Oregon's data (rules section 2.5, loaded from ``data.json``) and the board geometry derived
from it, precomputed once at import.

Spaces are numbered ``r * COLS + c`` (row-major). Sets of spaces are Python ints used as bit
masks (bit ``i`` = space ``i``), so legal-space sets are a few ANDs and their sizes a
``bit_count()``: this is what keeps option generation cheap.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

RULES: dict = json.loads((Path(__file__).with_name("data.json")).read_text())

_BOARD = RULES["board"]
ROWS: int = _BOARD["rows"]
COLS: int = _BOARD["cols"]
SPACES = ROWS * COLS
TERRAIN: tuple[str, ...] = tuple(_BOARD["terrain"])  # one string per row, terrain letters

SYMBOLS: tuple[str, ...] = tuple(_BOARD["symbols"])
BUILDINGS: tuple[str, ...] = tuple(b["id"] for b in RULES["buildings"])
NUM_SYMBOLS = len(SYMBOLS)
NUM_BUILDINGS = len(BUILDINGS)
# The 12 card types in canonical order (rules 4.3): landscape symbols, then building types.
# A building card of type b has card index NUM_SYMBOLS + b.
CARD_NAMES: tuple[str, ...] = SYMBOLS + BUILDINGS
NUM_CARDS = len(CARD_NAMES)

MIN_PLAYERS: int = RULES["players"]["min"]
MAX_PLAYERS: int = RULES["players"]["max"]
FARMERS_PER_PLAYER: int = RULES["farmers_per_player"]
HAND_SIZE: int = RULES["hand_size"]
INITIAL_LANDSCAPE: int = RULES["initial_hand"]["landscape"]
INITIAL_BUILDING: int = RULES["initial_hand"]["building"]
ROUND_CAP: int = RULES["round_cap"]
GROUP_MIN_SIZE: int = RULES["group_bonus"]["min_size"]
GROUP_POINTS: int = RULES["group_bonus"]["points"]
EMPTY_STACKS_TO_END: dict[int, int] = {
    int(p): n for p, n in RULES["end_trigger"]["empty_stacks_needed"].items()
}
LANDSCAPE_COPIES: tuple[int, ...] = tuple(RULES["landscape_cards"][s] for s in SYMBOLS)
BUILDING_CARD_COPIES: tuple[int, ...] = tuple(b["cards"] for b in RULES["buildings"])
STACK_TILES: tuple[int, ...] = tuple(b["tiles"] for b in RULES["buildings"])
COAL_TILES: tuple[int, ...] = tuple(
    int(v)
    for v, n in sorted(RULES["coal_tiles"].items(), key=lambda kv: int(kv[0]))
    for _ in range(n)
)
GOLD_TILES: tuple[int, ...] = tuple(
    int(v)
    for v, n in sorted(RULES["gold_tiles"].items(), key=lambda kv: int(kv[0]))
    for _ in range(n)
)


def space(r: int, c: int) -> int:
    return r * COLS + c


def row_col(sp: int) -> tuple[int, int]:
    return divmod(sp, COLS)


def mask_of(spaces) -> int:
    m = 0
    for sp in spaces:
        m |= 1 << sp
    return m


def spaces_of(mask: int) -> list[int]:
    """The spaces of a mask in row-major order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def nth_space(mask: int, n: int) -> int:
    """The ``n``-th space (0-based, row-major) of a mask."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _terrain_at(sp: int) -> str:
    r, c = row_col(sp)
    return TERRAIN[r][c]


def _neighbours(sp: int, diagonal: bool) -> tuple[int, ...]:
    r, c = row_col(sp)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) == (0, 0) or (not diagonal and dr and dc):
                continue
            rr, cc = r + dr, c + dc
            if 0 <= rr < ROWS and 0 <= cc < COLS:
                out.append(space(rr, cc))
    return tuple(out)


# Up to 8 touching spaces (scoring, harbor water rule) and up to 4 side-sharing ones (groups).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(sp, True) for sp in range(SPACES))
NEIGHBOUR_MASK: tuple[int, ...] = tuple(mask_of(n) for n in NEIGHBOURS)
ORTHOGONAL: tuple[tuple[int, ...], ...] = tuple(_neighbours(sp, False) for sp in range(SPACES))

_ROW_BAND_OF_ROW = {r: i for i, rows in enumerate(_BOARD["row_bands"]) for r in rows}
_COL_BAND_OF_COL = {c: j for j, cols in enumerate(_BOARD["col_bands"]) for c in cols}

WATER = mask_of(sp for sp in range(SPACES) if _terrain_at(sp) == "W")
FARMER_LEGAL = mask_of(sp for sp in range(SPACES) if _terrain_at(sp) in RULES["farmer_terrain"])
# AREA[i][j]: the 6 spaces where row band i meets column band j.
AREA: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        mask_of(
            sp
            for sp in range(SPACES)
            if _ROW_BAND_OF_ROW[row_col(sp)[0]] == i and _COL_BAND_OF_COL[row_col(sp)[1]] == j
        )
        for j in range(NUM_SYMBOLS)
    )
    for i in range(NUM_SYMBOLS)
)
# Row band s together with column band s (54 spaces).
BAND_UNION: tuple[int, ...] = tuple(
    mask_of(
        sp
        for sp in range(SPACES)
        if _ROW_BAND_OF_ROW[row_col(sp)[0]] == s or _COL_BAND_OF_COL[row_col(sp)[1]] == s
    )
    for s in range(NUM_SYMBOLS)
)


def _building_legal(spec: dict) -> int:
    return mask_of(
        sp
        for sp in range(SPACES)
        if _terrain_at(sp) in spec["terrain"]
        and (not spec["needs_adjacent_water"] or NEIGHBOUR_MASK[sp] & WATER)
    )


# Spaces each building type may take on an empty board (terrain and the harbor water rule).
BUILDING_LEGAL: tuple[int, ...] = tuple(_building_legal(b) for b in RULES["buildings"])

# Precomputed targets of the four PLAY families (rules 4.3), before removing occupied spaces.
# F2 with cards x, y: area (x, y) or (y, x), non-water.
FARMER_PAIR_TARGETS: tuple[tuple[int, ...], ...] = tuple(
    tuple((AREA[x][y] | AREA[y][x]) & FARMER_LEGAL for y in range(NUM_SYMBOLS))
    for x in range(NUM_SYMBOLS)
)
# FJ with card x: the band union of x, non-water.
FARMER_JOKER_TARGETS: tuple[int, ...] = tuple(b & FARMER_LEGAL for b in BAND_UNION)
# B2 with landscape x and building b: legal for b inside the band union of x.
BUILDING_PAIR_TARGETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(BAND_UNION[x] & legal for legal in BUILDING_LEGAL) for x in range(NUM_SYMBOLS)
)


@dataclass(frozen=True, slots=True)
class BuildingEffect:
    """What one adjacent farmer is worth for a building (rules 2.4)."""

    points_per_farmer: int  # 0 for the church and for coal/gold
    church: bool  # points are "all farmers around the church" instead
    activates_joker: bool
    activates_extra_turn: bool
    coal: bool
    gold: bool


def _effect(spec: dict) -> BuildingEffect:
    effect = spec["effect"]
    per_farmer = effect.get("points_per_farmer", 0)
    church = per_farmer == "ALL_ADJACENT_FARMERS"
    return BuildingEffect(
        points_per_farmer=0 if church else per_farmer,
        church=church,
        activates_joker=effect.get("activates") == "JOKER",
        activates_extra_turn=effect.get("activates") == "EXTRA_TURN",
        coal=effect.get("tiles_per_farmer") == "COAL",
        gold=effect.get("tiles_per_farmer") == "GOLD",
    )


EFFECTS: tuple[BuildingEffect, ...] = tuple(_effect(b) for b in RULES["buildings"])


def _check_published_facts() -> None:
    """The derived geometry must agree with the rules' own figures (2.2, 2.5)."""
    counts = {t: sum(row.count(t) for row in TERRAIN) for t in "GFMRW"}
    assert counts == _BOARD["terrain_counts"], counts
    harbors = mask_of(space(r, c) for r, c in _BOARD["harbor_spaces_derived"])
    assert harbors == BUILDING_LEGAL[BUILDINGS.index("HARBOR")]


_check_published_facts()
