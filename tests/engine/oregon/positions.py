"""Build Oregon positions for the worked examples: only the named pieces on the board, named
hands, full stacks unless told otherwise, and decks holding the remaining cards in a known order."""

from __future__ import annotations

from engine.oregon import data
from engine.oregon.actions import DecisionKind, Play
from engine.oregon.enums import Building, Card, Piece
from engine.oregon.state import OregonState

RED, BLUE, GREEN = 0, 1, 2


def sp(r: int, c: int) -> int:
    return data.space(r, c)


def position(
    players: int = 3,
    hands: dict[int, list[Card]] | None = None,
    farmers: dict[int, list[tuple[int, int]]] | None = None,
    buildings: list[tuple[Building, int, int]] | None = None,
    empty_stacks: tuple[Building, ...] = (),
    tokens_active: bool = False,
    landscape_top: list[Card] = (),
    building_top: list[Card] = (),
    round_: int = 5,
) -> OregonState:
    """A mid-game position (round ``round_``) with nobody to move yet; see ``start_turn``.
    Seats not in ``hands`` hold no cards; the decks hold every other card, ``*_top`` on top."""
    state = OregonState(players, 0, {})
    state.round = round_
    state.start_placed = [True] * players
    state.joker = [tokens_active] * players
    state.extra = [tokens_active] * players
    for seat, cards in (hands or {}).items():
        for card in cards:
            state.hands[seat][card - 1] += 1
    for seat, spaces in (farmers or {}).items():
        for r, c in spaces:
            state.add_farmer(sp(r, c), seat)
            state.supply[seat] -= 1
    for building, r, c in buildings or []:
        state.add_building(sp(r, c), building - 1, start_tile=False)
    for building in empty_stacks:
        state.stacks[building - 1] = 0
    copies = data.LANDSCAPE_COPIES + data.BUILDING_CARD_COPIES
    held = [sum(h[c] for h in state.hands) for c in range(data.NUM_CARDS)]
    for deck, cards, top in (
        (0, range(data.NUM_SYMBOLS), landscape_top),
        (1, range(data.NUM_SYMBOLS, data.NUM_CARDS), building_top),
    ):
        rest = [c for c in cards for _ in range(copies[c] - held[c])]
        for card in top:
            rest.remove(card - 1)
        state.decks[deck] = rest + [card - 1 for card in reversed(top)]
    state.coal_stack, state.gold_stack = list(data.COAL_TILES), list(data.GOLD_TILES)
    return state


def start_turn(state: OregonState, seat: int) -> OregonState:
    """Begin ``seat``'s turn as the engine does (PLAY, or DISCARD_WHEN_STUCK if no play)."""
    state._begin_turn(seat)
    state._settle()
    return state


def play_at(state: OregonState, seat: int, hand: list[Card]) -> OregonState:
    """Give ``seat`` exactly ``hand`` and begin its turn."""
    state.hands[seat] = [0] * data.NUM_CARDS
    for card in hand:
        state.hands[seat][card - 1] += 1
    return start_turn(state, seat)


def farmer(cards: tuple[Card, ...], r: int, c: int, joker: bool = False) -> Play:
    return Play(Piece.FARMER, None, cards, joker, r, c)


def building(b: Building, cards: tuple[Card, ...], r: int, c: int, joker: bool = False) -> Play:
    return Play(Piece.BUILDING, b, cards, joker, r, c)


def plays(state: OregonState) -> list[Play]:
    assert state.decision_kind == DecisionKind.PLAY.name
    return list(state.legal_actions())


def spaces(actions, cards: tuple[Card, ...], joker: bool = False, b: Building | None = None):
    return [
        (a.row, a.col) for a in actions if a.cards == cards and a.joker == joker and a.building == b
    ]


def hand_of(state: OregonState, seat: int) -> list[Card]:
    return [Card(c + 1) for c in range(data.NUM_CARDS) for _ in range(state.hands[seat][c])]
