"""The card data of ogallala.md section 2.4 (RECONSTRUCTED deck), loaded once from data.json.

Cards are identified by kind only (all copies of a kind are identical), so the engine stores a
card as its kind index: the position of the kind in the data's card list. The per-kind tables
below are tuples indexed by that number, for cheap lookups in the hot paths.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA: dict[str, Any] = json.loads((Path(__file__).with_name("data.json")).read_text())

_CARDS: list[dict[str, Any]] = DATA["cards"]

NO_CARD = -1  # in place of a kind index: no card
KIND_NAMES: tuple[str, ...] = tuple(card["kind"] for card in _CARDS)
KIND_INDEX: dict[str, int] = {name: index for index, name in enumerate(KIND_NAMES)}
NUM_KINDS = len(KIND_NAMES)

COUNT: tuple[int, ...] = tuple(card["count"] for card in _CARDS)
FIGHT: tuple[int, ...] = tuple(card["fight"] for card in _CARDS)
BOOTY_VALUE: tuple[int, ...] = tuple(card["booty_value"] for card in _CARDS)
IS_BOW: tuple[bool, ...] = tuple(card["is_bow"] for card in _CARDS)
IS_STERN: tuple[bool, ...] = tuple(card["is_stern"] for card in _CARDS)
# Bit masks over kind indices (display rows keep such masks of the kinds they hold).
BOW_MASK = sum(1 << kind for kind, bow in enumerate(IS_BOW) if bow)
STERN_MASK = sum(1 << kind for kind, stern in enumerate(IS_STERN) if stern)
IS_BOOTY: tuple[bool, ...] = tuple(card["category"] == "booty" for card in _CARDS)
EFFECT: tuple[str, ...] = tuple(card["effect"] for card in _CARDS)
IS_TOTEM: tuple[bool, ...] = tuple(effect == "totem" for effect in EFFECT)
# Indian figures: the archer's possible targets (section 2.1: Indian cards except the totem).
IS_FIGURE: tuple[bool, ...] = tuple(
    card["category"] == "indian" and card["effect"] != "totem" for card in _CARDS
)
# Lasso targets must be booty or a totem (R16).
IS_LASSO_PREY: tuple[bool, ...] = tuple(b or t for b, t in zip(IS_BOOTY, IS_TOTEM))

SET_IDS: tuple[str, ...] = tuple(entry["set_id"] for entry in DATA["sets"])
# Set number of each kind, or -1 for a card outside every set.
SET_OF: tuple[int, ...] = tuple(
    SET_IDS.index(card["set_id"]) if card["set_id"] is not None else -1 for card in _CARDS
)
# Per set: kind indices of its person, left half and right half.
SET_PIECES: tuple[tuple[int, int, int], ...] = tuple(
    (KIND_INDEX[entry["person"]], KIND_INDEX[entry["left"]], KIND_INDEX[entry["right"]])
    for entry in DATA["sets"]
)
# Per set: bit mask over kind indices of its pieces (rows keep kind masks, see display.py).
SET_MASK: tuple[int, ...] = tuple(sum(1 << kind for kind in pieces) for pieces in SET_PIECES)

LASSO = next(i for i, effect in enumerate(EFFECT) if effect == "lasso")
ARCHER = next(i for i, effect in enumerate(EFFECT) if effect == "archer")
CRAZY_AXE = next(i for i, effect in enumerate(EFFECT) if effect == "crazy_axe")

MAX_ROWS: int = DATA["display"]["max_rows"]
MAX_COLS: int = DATA["display"]["max_cols"]
NUM_STACKS: int = DATA["stacks"]["count"]
INITIAL_STACK_SIZES: tuple[int, ...] = tuple(DATA["stacks"]["initial_sizes"])
START_SEAT: int = DATA["start_player_seat"]
TURN_CAP: int = DATA["turn_cap"]
STALL_TURNS: int = DATA["stall_turns"]
DECLARE_WITH_BOATS: frozenset[int] = frozenset(DATA["end_game"]["declare_allowed_with_boats"])
ENDING_BOATS: int = DATA["end_game"]["automatic_with_boats"]

_SCORING = DATA["scoring"]
CARD_POINTS: int = _SCORING["card_points"]
LONG_BOAT_MIN_CARDS: int = _SCORING["long_boat_min_cards"]
LONG_BOAT_CARD_POINTS: int = _SCORING["long_boat_card_points"]
PAIR_MULTIPLIER: int = _SCORING["pair_multiplier"]
TRIPLE_MULTIPLIER: int = _SCORING["triple_multiplier"]


def full_deck() -> list[int]:
    """Every card of the deck once, as kind indices in data order (before shuffling)."""
    return [kind for kind, count in enumerate(COUNT) for _ in range(count)]


def _check_totals() -> None:
    totals = DATA["category_totals"]
    for category, expected in totals.items():
        counted = sum(
            card["count"] for card in _CARDS if category == "all" or card["category"] == category
        )
        if counted != expected:
            raise ValueError(f"data.json: {category} has {counted} cards, expected {expected}")
    if sum(INITIAL_STACK_SIZES) != totals["all"] or len(INITIAL_STACK_SIZES) != NUM_STACKS:
        raise ValueError("data.json: initial stack sizes do not split the deck")


_check_totals()
