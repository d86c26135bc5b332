"""An independent recount of the final scores (rules 5.2), written straight from the data file's
JSON and the rules text, to check the engine's scoring module against."""

from __future__ import annotations

import json
from pathlib import Path

import engine.merkator

_DATA = json.loads((Path(engine.merkator.__file__).with_name("data.json")).read_text())
_GOODS = [g["id"] for g in _DATA["goods"]]
_CONTRACTS = _DATA["contracts"]
_LOCATION_TYPE = {loc["id"]: loc["type"] for loc in _DATA["locations"]}


def _goods(rule: dict) -> list[int]:
    goods = rule.get("goods", "ALL")
    return list(range(len(_GOODS))) if goods == "ALL" else [_GOODS.index(g) for g in goods]


def _measure(state, seat: int, measure: str) -> int:
    held = [_CONTRACTS[c] for c in state.contracts[seat]]
    return {
        "contract_count": len(held),
        "contract_value": sum(c["value"] for c in held),
        "time_markers": state.markers[seat],
        "building_count": len(state.buildings[seat]),
        "kontor_cubes": sum(state.kontor[seat]),
    }[measure]


def _building(state, seat: int, building: int) -> int:
    rule = _DATA["buildings"][building]["scoring"]
    if state.misprint and _DATA["buildings"][building]["id"] == "K01":
        rule = {"kind": "cubes", "goods": "ALL", "per": 1, "points": 1}
    kontor = state.kontor[seat]
    held = [_CONTRACTS[c] for c in state.contracts[seat]]
    kind, points = rule["kind"], rule.get("points", 0)
    if kind == "types_present":
        return points * len([g for g in _goods(rule) if kontor[g] > 0])
    if kind == "types_with_min":
        return points * len([g for g in _goods(rule) if kontor[g] >= rule["min"]])
    if kind == "cubes":
        return points * (sum(kontor[g] for g in _goods(rule)) // rule["per"])
    if kind == "cube_thresholds":
        cubes = sum(kontor[g] for g in _goods(rule))
        return max([p for n, p in rule["thresholds"] if cubes >= n], default=0)
    if kind == "markers":
        return points * (state.markers[seat] // rule["per"])
    if kind == "coins":
        return points * (state.coins[seat] // rule["per"])
    if kind == "buildings":
        return points * len(state.buildings[seat])
    if kind == "contracts_min_value":
        return points * len([c for c in held if c["value"] >= rule["min"]])
    if kind == "contracts_max_value":
        return points * len([c for c in held if c["value"] <= rule["max"]])
    if kind == "bonus_cards":
        return points * len(state.bonus[seat])
    if kind == "contract_locations":
        places = {c["location"] for c in held if c["location"]}
        return points * len([p for p in places if _LOCATION_TYPE[p] == rule["location_type"]])
    if kind == "sole_most":
        mine = _measure(state, seat, rule["measure"])
        others = [
            _measure(state, q, rule["measure"]) for q in range(state.num_players) if q != seat
        ]
        return points if mine > max(others) else 0
    raise AssertionError(kind)


def recount(state) -> list[float]:
    """Final totals per seat, from a finished state (tile cubes already in the Kontors)."""
    totals = []
    for seat in range(state.num_players):
        values = sorted((_CONTRACTS[c]["value"] for c in state.contracts[seat]), reverse=True)
        total = sum(values[:5]) + sum(values[5:]) / 2
        total += sum(_building(state, seat, b) for b in state.buildings[seat])
        totals.append(total)
    return totals
