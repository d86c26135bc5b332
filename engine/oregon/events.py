"""What happened in an Oregon game, as each seat may see it (rules section 6): the event types of
``OregonState.event_log`` and the functions that build them from the state's raw entries.

Every action is public (the cards played and discarded go face up), so ``ActionTaken`` reaches
every seat; so do the start tiles dealt face up, dead cards leaving the game and decks rebuilt
from their discard piles. A drawn
card and a coal or gold tile's value are seen by their owner only: the other seats get the same
event with ``card`` / ``value`` unset. Draws (chosen or automatic, the deal included) are told by
``CardDrawn``, not by ``ActionTaken``."""

from __future__ import annotations

from dataclasses import dataclass

from engine.oregon import data
from engine.oregon.actions import DiscardWhenStuck, OregonAction, PlaceStartTile
from engine.oregon.enums import BUILDING_TYPES, CARDS, DECKS, Building, Card, Deck
from engine.oregon.play_options import Segment, to_action


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A seat's action at PLACE_START_TILE, PLAY, USE_EXTRA_TURN or DISCARD_WHEN_STUCK, chosen
    or applied by the engine as the only option (R24)."""

    seat: int
    action: OregonAction


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card drawn by ``seat``: at the deal (section 3) or in the draw step (4.6). ``card`` is
    set for the drawing seat only, and for everyone when the card is ``dead`` (R17: shown to all,
    out of the game at once; the next card is drawn in its place)."""

    seat: int
    deck: Deck
    card: Card | None
    dead: bool


@dataclass(frozen=True, slots=True)
class CardsLeftGame:
    """Dead building cards leave the game, shown to all (R17): from ``seat``'s hand at the end
    of its turn (4.6 step 1) or, with ``seat`` unset, from the building discard pile when the
    building deck is rebuilt (4.6 sub-step 5)."""

    seat: int | None
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class DeckRebuilt:
    """A deck ran out: its discard pile was shuffled into a new deck of ``size`` cards (R19)."""

    deck: Deck
    size: int


@dataclass(frozen=True, slots=True)
class TileTaken:
    """``seat`` took the top tile of the coal (``gold`` false) or gold stack (R16); ``value`` is
    set for that seat only."""

    seat: int
    gold: bool
    value: int | None


@dataclass(frozen=True, slots=True)
class StartTileDealt:
    """``seat`` was dealt its start tile, ``building``, face up at setup (section 3 step 7)."""

    seat: int
    building: Building


OregonEvent = ActionTaken | CardDrawn | CardsLeftGame | DeckRebuilt | TileTaken | StartTileDealt


# --- builders of the state's raw log entries (called only when a seat asks for its events) -----
def start_tile_dealt(seat: int, b: int) -> StartTileDealt:
    return StartTileDealt(seat, BUILDING_TYPES[b])


def start_tile_placed(seat: int, sp: int) -> ActionTaken:
    return ActionTaken(seat, PlaceStartTile(*data.row_col(sp)))


def played(seat: int, seg: Segment, sp: int) -> ActionTaken:
    return ActionTaken(seat, to_action(seg, sp))


def discarded(seat: int, pair: tuple[int, int]) -> ActionTaken:
    return ActionTaken(seat, DiscardWhenStuck((CARDS[pair[0]], CARDS[pair[1]])))


def drawn(seat: int, deck: int, card: int, dead: bool) -> CardDrawn:
    """``card`` is a card index, or -1 when hidden from the seat asking."""
    return CardDrawn(seat, DECKS[deck], CARDS[card] if card >= 0 else None, dead)


def left_game(seat: int, cards: list[int]) -> CardsLeftGame:
    """``seat`` -1: from the building discard pile."""
    return CardsLeftGame(seat if seat >= 0 else None, tuple(CARDS[c] for c in cards))


def deck_rebuilt(deck: int, size: int) -> DeckRebuilt:
    return DeckRebuilt(DECKS[deck], size)
