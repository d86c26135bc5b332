"""Merkator's static data: the JSON block of the rules (section 2.8), loaded once from data.json and
turned into flat index tables for the engine's hot paths.

Goods, colours, locations, contracts, bonus cards and buildings are addressed by their 0-based
position in the data file's lists (the canonical orders of rules 4.1); the public enums are those
positions plus 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA: dict[str, Any] = json.loads((Path(__file__).with_name("data.json")).read_text())

# --- goods, colours, Kontor columns -------------------------------------------------------------
GOOD_IDS: tuple[str, ...] = tuple(g["id"] for g in DATA["goods"])
GOOD_NAMES: tuple[str, ...] = tuple(g["name"] for g in DATA["goods"])
COLOUR_IDS: tuple[str, ...] = tuple(c["id"] for c in DATA["colours"])
NUM_GOODS = len(GOOD_IDS)
NUM_COLOURS = len(COLOUR_IDS)
_GOOD_INDEX = {g: i for i, g in enumerate(GOOD_IDS)}
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOUR_IDS)}

GOOD_COLOUR: tuple[int, ...] = tuple(_COLOUR_INDEX[g["colour"]] for g in DATA["goods"])
# (good A, good B) of each colour
COLOUR_GOODS: tuple[tuple[int, int], ...] = tuple(
    (_GOOD_INDEX[c["goods"][0]], _GOOD_INDEX[c["goods"][1]]) for c in DATA["colours"]
)
CUBES_PER_COLOUR: tuple[int, ...] = tuple(c["cubes_total"] for c in DATA["colours"])

COLUMN_LETTERS: tuple[str, ...] = tuple(DATA["kontor_columns"])
# goods of each column, in column order (the order of SPOIL_CHOOSE's GOOD options)
COLUMN_GOODS: dict[str, tuple[int, ...]] = {
    letter: tuple(_GOOD_INDEX[g] for g in goods) for letter, goods in DATA["kontor_columns"].items()
}
# colours with a good in each column, in colour order (the order of SPOIL_CHOOSE's TILE options)
COLUMN_COLOURS: dict[str, tuple[int, ...]] = {
    letter: tuple(sorted(GOOD_COLOUR[g] for g in goods)) for letter, goods in COLUMN_GOODS.items()
}

# --- map ----------------------------------------------------------------------------------------
LOCATION_IDS: tuple[str, ...] = tuple(loc["id"] for loc in DATA["locations"])
LOCATION_NAMES: tuple[str, ...] = tuple(loc["name"] for loc in DATA["locations"])
NUM_LOCATIONS = len(LOCATION_IDS)
_LOCATION_INDEX = {loc: i for i, loc in enumerate(LOCATION_IDS)}
IS_MAJOR: tuple[bool, ...] = tuple(loc["type"] == "major" for loc in DATA["locations"])
MAJORS: tuple[int, ...] = tuple(i for i in range(NUM_LOCATIONS) if IS_MAJOR[i])
MINORS: tuple[int, ...] = tuple(i for i in range(NUM_LOCATIONS) if not IS_MAJOR[i])
# colour of the cubes a major holds; -1 for a minor
LOCATION_COLOUR: tuple[int, ...] = tuple(
    _COLOUR_INDEX[loc["colour"]] if loc["colour"] else -1 for loc in DATA["locations"]
)
LOCATION_TIME: tuple[int, ...] = tuple(loc["time"] for loc in DATA["locations"])
RESTOCK_THRESHOLD: tuple[int, ...] = tuple(
    loc["restock_threshold"] or 0 for loc in DATA["locations"]
)
JOIN_COST: tuple[int, ...] = tuple(loc["join_cost"] for loc in DATA["locations"])
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(_LOCATION_INDEX[b if a == loc else a] for a, b in DATA["lines"] if loc in (a, b)))
    for loc in LOCATION_IDS
)

# --- contracts ----------------------------------------------------------------------------------
CONTRACT_IDS: tuple[str, ...] = tuple(c["id"] for c in DATA["contracts"])
NUM_CONTRACTS = len(CONTRACT_IDS)
CONTRACT_INDEX: dict[str, int] = {c: i for i, c in enumerate(CONTRACT_IDS)}
CONTRACT_VALUE: tuple[int, ...] = tuple(c["value"] for c in DATA["contracts"])
# location index; -1 for the Peace of Westphalia, which names none
CONTRACT_LOCATION: tuple[int, ...] = tuple(
    _LOCATION_INDEX[c["location"]] if c["location"] else -1 for c in DATA["contracts"]
)
# ((good, count), ...) in the card's printed order
CONTRACT_GOODS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((_GOOD_INDEX[g], n) for g, n in c["goods"].items()) for c in DATA["contracts"]
)
PEACE = next(i for i, c in enumerate(DATA["contracts"]) if c["location"] is None)
PILE_VALUES: tuple[int, ...] = tuple(sorted({2, *DATA["contract_piles"]["face_up_values"]}))
REWARD_TARGET: dict[int, int] = {int(v): w for v, w in DATA["reward_target"].items()}
# contracts per location: bounds the FULFIL list
CONTRACTS_AT: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(NUM_CONTRACTS) if CONTRACT_LOCATION[c] == loc)
    for loc in range(NUM_LOCATIONS)
)

# --- bonus cards and buildings ------------------------------------------------------------------
BONUS_IDS: tuple[str, ...] = tuple(b["id"] for b in DATA["bonus_cards"])
NUM_BONUS = len(BONUS_IDS)
BONUS_LOCATION: tuple[int, ...] = tuple(_LOCATION_INDEX[b["location"]] for b in DATA["bonus_cards"])
BONUS_GOOD: tuple[int, ...] = tuple(_GOOD_INDEX[b["good"]] for b in DATA["bonus_cards"])
BONUS_COST: tuple[int, ...] = tuple(b["cost"] for b in DATA["bonus_cards"])
BONUS_TRAVEL: tuple[int, ...] = tuple(b["travel_bonus"] for b in DATA["bonus_cards"])
BONUS_JOIN: tuple[int, ...] = tuple(b["join_bonus"] for b in DATA["bonus_cards"])

BUILDING_IDS: tuple[str, ...] = tuple(b["id"] for b in DATA["buildings"])
NUM_BUILDINGS = len(BUILDING_IDS)
BUILDING_NAMES: tuple[str, ...] = tuple(b["name"] for b in DATA["buildings"])
BUILDING_COST: tuple[int, ...] = tuple(b["cost"] for b in DATA["buildings"])
BUILDING_SCORING: tuple[dict[str, Any], ...] = tuple(b["scoring"] for b in DATA["buildings"])
BUILDING_TYPE_DEPENDENT: tuple[bool, ...] = tuple(b["type_dependent"] for b in DATA["buildings"])
ALSTERHAUS = BUILDING_IDS.index("K01")
# Alsterhaus as first printed (option alsterhaus_misprint, R34): 1 point per cube
ALSTERHAUS_MISPRINT: dict[str, Any] = {"kind": "cubes", "goods": "ALL", "per": 1, "points": 1}


def scoring_goods(scoring: dict[str, Any]) -> tuple[int, ...]:
    """The goods a building rule looks at, as indices ("ALL" means all 16)."""
    goods = scoring.get("goods", "ALL")
    return tuple(range(NUM_GOODS)) if goods == "ALL" else tuple(_GOOD_INDEX[g] for g in goods)


def building_rule_text(scoring: dict[str, Any]) -> str:
    """A one-line English statement of a building's scoring rule, for views and renderings."""
    kind, points = scoring["kind"], scoring.get("points", 0)
    goods = scoring.get("goods", "ALL")
    listed = "/".join(GOOD_NAMES[g] for g in scoring_goods(scoring))
    names = "any goods" if goods == "ALL" else listed
    per = scoring.get("per", 1)
    each = "" if per == 1 else f" {per}"
    if kind == "types_present":
        return f"{points} per good among {names} with at least 1 cube"
    if kind == "cubes":
        return f"{points} per{each} cube{'s' if per > 1 else ''} of {names}"
    if kind == "cube_thresholds":
        steps = "; ".join(f"{p} with at least {n}" for n, p in scoring["thresholds"])
        return f"{names} cubes: {steps}"
    if kind == "types_with_min":
        return f"{points} per good with at least {scoring['min']} cubes"
    if kind == "markers":
        return f"{points} per{each} time markers held"
    if kind == "coins":
        return f"{points} per{each} coins held"
    if kind == "buildings":
        return f"{points} per building owned"
    if kind == "contracts_min_value":
        return f"{points} per held contract of value {scoring['min']} or more"
    if kind == "contracts_max_value":
        return f"{points} per held contract of value {scoring['max']} or less"
    if kind == "bonus_cards":
        return f"{points} per bonus card owned"
    if kind == "contract_locations":
        return f"{points} per {scoring['location_type']} named on a held contract"
    if kind == "sole_most":
        return f"{points} if alone with the most {scoring['measure'].replace('_', ' ')}"
    raise ValueError(f"unknown building scoring kind {kind!r}")


# --- time board, setup, limits, options ---------------------------------------------------------
BOARD_ROWS: int = DATA["time_board"]["rows"]
ROW_SPACES: int = DATA["time_board"]["spaces_per_row"]
BOARD_SPACES = BOARD_ROWS * ROW_SPACES
FILLED_ROWS: dict[int, tuple[int, ...]] = {
    int(n): tuple(rows) for n, rows in DATA["time_board"]["filled_rows"].items()
}
MARKER_LETTERS: tuple[str, ...] = tuple(
    letters for letters, count in DATA["time_markers"]["back_letters"].items() for _ in range(count)
)
SETUP: dict[str, Any] = DATA["setup"]
START_CONTRACT_VALUES: tuple[int, ...] = tuple(SETUP["start_contract_values"])
DISPLAY_SIZE: int = SETUP["display_size"]
LIMITS: dict[str, Any] = DATA["limits"]
COIN_CAP: int = LIMITS["coin_cap"]
CONTRACT_LIMIT: int = LIMITS["contracts_after_invest"]
FULL_VALUE_CONTRACTS: int = LIMITS["full_value_contracts"]
TRADE_CUBES: int = LIMITS["trade_rate_cubes"]
TRADE_MARKERS: int = LIMITS["trade_rate_markers"]
DEFAULT_OPTIONS: dict[str, bool | int] = dict(DATA["options"])

assert len(MARKER_LETTERS) == DATA["time_markers"]["total"]
