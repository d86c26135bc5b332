"""Final scoring (rules 5.2-5.3): contract points with exact halves, building points, tie-break.

Points are kept doubled as integers (every total is a multiple of 0.5). Scoring reads a
``Holdings`` per player, taken after the supply-tile cubes have moved into the Kontor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Result, ranks_from_keys
from engine.merkator import data


@dataclass(frozen=True, slots=True)
class Holdings:
    """What one player owns at scoring."""

    kontor: tuple[int, ...]
    contracts: tuple[int, ...]
    bonus_cards: tuple[int, ...]
    buildings: tuple[int, ...]
    markers: int
    coins: int


def building_scoring(building: int, misprint: bool) -> dict[str, Any]:
    if misprint and building == data.ALSTERHAUS:
        return data.ALSTERHAUS_MISPRINT
    return data.BUILDING_SCORING[building]


def is_type_dependent(building: int, misprint: bool) -> bool:
    """Whether the good chosen for a cube can change this building's score (decides FINAL_PLACE)."""
    if misprint and building == data.ALSTERHAUS:
        return False
    return data.BUILDING_TYPE_DEPENDENT[building]


def contract_points_x2(contracts: Sequence[int]) -> int:
    """Twice the contract points: the five highest values in full, every other one halved."""
    values = sorted((data.CONTRACT_VALUE[c] for c in contracts), reverse=True)
    full = data.FULL_VALUE_CONTRACTS
    return 2 * sum(values[:full]) + sum(values[full:])


def _measure(holdings: Holdings, measure: str) -> int:
    if measure == "contract_count":
        return len(holdings.contracts)
    if measure == "contract_value":
        return sum(data.CONTRACT_VALUE[c] for c in holdings.contracts)
    if measure == "time_markers":
        return holdings.markers
    if measure == "building_count":
        return len(holdings.buildings)
    if measure == "kontor_cubes":
        return sum(holdings.kontor)
    raise ValueError(f"unknown measure {measure!r}")


def building_points(building: int, owner: int, players: Sequence[Holdings], misprint: bool) -> int:
    """The (whole) points building ``building`` scores for seat ``owner``."""
    rule = building_scoring(building, misprint)
    kind = rule["kind"]
    mine = players[owner]
    points = rule.get("points", 0)
    if kind in ("types_present", "types_with_min"):
        least = rule.get("min", 1)
        goods = data.scoring_goods(rule)
        return points * sum(1 for g in goods if mine.kontor[g] >= least)
    if kind == "cubes":
        cubes = sum(mine.kontor[g] for g in data.scoring_goods(rule))
        return points * (cubes // rule["per"])
    if kind == "cube_thresholds":
        cubes = sum(mine.kontor[g] for g in data.scoring_goods(rule))
        return next((p for count, p in rule["thresholds"] if cubes >= count), 0)
    if kind == "markers":
        return points * (mine.markers // rule["per"])
    if kind == "coins":
        return points * (mine.coins // rule["per"])
    if kind == "buildings":
        return points * len(mine.buildings)
    if kind == "contracts_min_value":
        return points * sum(1 for c in mine.contracts if data.CONTRACT_VALUE[c] >= rule["min"])
    if kind == "contracts_max_value":
        return points * sum(1 for c in mine.contracts if data.CONTRACT_VALUE[c] <= rule["max"])
    if kind == "bonus_cards":
        return points * len(mine.bonus_cards)
    if kind == "contract_locations":
        major = rule["location_type"] == "major"
        places = {data.CONTRACT_LOCATION[c] for c in mine.contracts} - {-1}
        return points * sum(1 for loc in places if data.IS_MAJOR[loc] == major)
    if kind == "sole_most":
        own = _measure(mine, rule["measure"])
        others = (_measure(p, rule["measure"]) for i, p in enumerate(players) if i != owner)
        return points if all(own > other for other in others) else 0
    raise ValueError(f"unknown building scoring kind {kind!r}")


def score_x2(owner: int, players: Sequence[Holdings], misprint: bool) -> tuple[int, str]:
    """Twice the player's total, and a human-readable breakdown."""
    mine = players[owner]
    contracts = contract_points_x2(mine.contracts)
    parts = [f"contracts {contracts / 2:g}"]
    total = contracts
    for building in mine.buildings:
        points = building_points(building, owner, players, misprint)
        total += 2 * points
        parts.append(f"{data.BUILDING_NAMES[building]} {points}")
    markers = f"{mine.markers} marker{'' if mine.markers == 1 else 's'}"
    return total, f"{total / 2:g} points: " + ", ".join(parts) + f"; {markers}"


def final_result(players: Sequence[Holdings], misprint: bool) -> Result:
    """Scores (exact halves) and ranks; equal totals are broken by time markers (5.3)."""
    scored = [score_x2(q, players, misprint) for q in range(len(players))]
    keys = [(total, players[q].markers) for q, (total, _) in enumerate(scored)]
    return Result(
        scores=tuple(total / 2 for total, _ in scored),
        ranks=ranks_from_keys(keys),
        details=tuple(text for _, text in scored),
    )
