"""What happened in a Merkator game (rules section 6: nothing is private to a seat, so every seat
sees every event in full): the event types of ``MerkatorState.event_log``. Cards are named by
their IDs ("C12", "B03", "K05") as in the views."""

from __future__ import annotations

from dataclasses import dataclass

from engine.merkator import data
from engine.merkator.actions import MerkatorAction


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """The deciding seat's action, chosen or applied by the engine as the only option."""

    seat: int
    action: MerkatorAction


@dataclass(frozen=True, slots=True)
class MarkerRevealed:
    """A time marker's letters became public: the marker ending a row of the time board as it is
    taken (its letters start a spoilage, rules 4.4), or the next marker turned face up by a
    SPOILAGE_REFLIP (R18). ``row`` and ``space`` count from 1, as in ``TimeMarker``."""

    row: int
    space: int
    letters: str


@dataclass(frozen=True, slots=True)
class SlotRefilled:
    """A display slot (1-4) was filled from the top of the bonus deck (``building`` false) or the
    building deck: each slot at setup (rules 3, steps 6-7), then a bought card's slot (4.3);
    ``card`` is "" when that deck was empty."""

    building: bool
    slot: int
    card: str


@dataclass(frozen=True, slots=True)
class ContractDrawn:
    """``seat`` drew contract ``contract`` as the reward for a fulfilled contract (rules 4.5)."""

    seat: int
    contract: str


@dataclass(frozen=True, slots=True)
class PileRebuilt:
    """The contract pile of ``value`` was empty at a reward draw: the discard pile's ``size``
    cards of that value were shuffled into a new pile (R23)."""

    value: int
    size: int


@dataclass(frozen=True, slots=True)
class HandDealt:
    """What ``seat`` was given at setup (rules 3, steps 4-6): its time ``markers``, its
    ``contracts`` (one of each value 2-5) and its ``bonus_cards`` (one 3-coin and one 4-coin card),
    all face up; IDs sorted."""

    seat: int
    markers: int
    contracts: tuple[str, ...]
    bonus_cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PileTopShown:
    """Contract pile ``value`` now holds ``size`` cards and shows ``contract`` face up on top
    ("" when it is empty): every pile once the setup's deal is done (rules 3, step 5), then the
    pile of each reward draw (4.5, R23) after the draw."""

    value: int
    size: int
    contract: str


MerkatorEvent = (
    ActionTaken
    | MarkerRevealed
    | SlotRefilled
    | ContractDrawn
    | PileRebuilt
    | HandDealt
    | PileTopShown
)


def marker_revealed(space: int, letters: str) -> MarkerRevealed:
    """``space``: the marker's index on the time board, in taking order."""
    return MarkerRevealed(space // data.ROW_SPACES + 1, space % data.ROW_SPACES + 1, letters)


def slot_refilled(building: bool, slot: int, card: int) -> SlotRefilled:
    """``slot`` 0-3; ``card`` an index, -1 for none."""
    ids = data.BUILDING_IDS if building else data.BONUS_IDS
    return SlotRefilled(building, slot + 1, ids[card] if card >= 0 else "")


def contract_drawn(seat: int, contract: int) -> ContractDrawn:
    return ContractDrawn(seat, data.CONTRACT_IDS[contract])


def hand_dealt(seat: int, markers: int, contracts: list[int], bonus: list[int]) -> HandDealt:
    return HandDealt(
        seat,
        markers,
        tuple(data.CONTRACT_IDS[c] for c in contracts),
        tuple(data.BONUS_IDS[b] for b in bonus),
    )


def pile_top_shown(value: int, size: int, top: int) -> PileTopShown:
    """``top``: a contract index, -1 for an empty pile."""
    return PileTopShown(value, size, data.CONTRACT_IDS[top] if top >= 0 else "")
