"""Random-play properties (issue 5): the game ends; the 112 cards are conserved; no row holds a
kind twice; every display fits 3 x 14 in normal form; complete boats are bow..stern without gap;
scores equal an independent recount; every applied action was legal; only real decisions reach
a seat. Determinism, replay, clones and bad input: tests/engine/test_contract.py."""

from collections import Counter

import pytest

from engine.ogallala import GAME
from engine.ogallala.actions import (
    Attack,
    DecisionKind,
    Declare,
    Discard,
    Draw,
    NoAttack,
    PlaceCell,
    PlaceShift,
    Side,
    SinkBoat,
    Stop,
    Target,
)
from engine.ogallala.data import (
    COUNT,
    CRAZY_AXE,
    FIGHT,
    IS_BOW,
    IS_STERN,
    KIND_INDEX,
    KIND_NAMES,
    MAX_COLS,
    MAX_ROWS,
    NUM_KINDS,
    SET_OF,
    TURN_CAP,
)
from engine.ogallala.display import EMPTY, Display
from engine.ogallala.state import OgallalaState
from engine.ogallala.views import EndReason, OgallalaView
from tests.engine.harness import play_random_game, property_game_count

PLAYER_COUNTS = (2, 3, 4, 5)
_IN_LIMBO = (
    DecisionKind.PLACE_CARD,
    DecisionKind.PLACE_STOLEN,
    DecisionKind.PLACE_CAPTURED,
    DecisionKind.AXE_BOAT,
)


def _check_conservation(state: OgallalaState) -> None:
    cards = Counter(state.discard)
    for stack in state.stacks:
        cards.update(stack)
    for display in state.displays:
        cards.update(kind for _, _, kind in display.cards())
    if state.decision in _IN_LIMBO:  # the card being placed (or the axe) is in no pile
        cards[state.card] += 1
    cards.update(state.captured)
    assert [cards[kind] for kind in range(NUM_KINDS)] == list(COUNT)


def _check_display(display: Display) -> None:
    h, w = display.height, display.width
    assert 0 <= h <= MAX_ROWS and 0 <= w <= MAX_COLS
    for r in range(MAX_ROWS):
        row = display.rows[r]
        placed = [kind for kind in row if kind != EMPTY]
        assert len(placed) == len(set(placed)), "a row holds two cards of one kind"
        assert display.occ[r] == sum(1 << c for c, kind in enumerate(row) if kind != EMPTY)
        assert display.kinds[r] == sum(1 << kind for kind in placed)
        if r >= h:
            assert not placed
    if h:  # normal form: the box starts at row 0 and column 0 and is tight
        assert display.occ[0] and display.occ[h - 1]
        used = 0
        for occ in display.occ:
            used |= occ
        assert used & 1 and used.bit_length() == w
    for row, first, last in display.complete_boats():
        cells = display.rows[row]
        assert all(cells[c] != EMPTY for c in range(first, last + 1)), "gap in a boat"
        assert IS_BOW[cells[first]] and IS_STERN[cells[last]]
        assert not any(IS_BOW[cells[c]] for c in range(first + 1, last + 1))
        assert not any(IS_STERN[cells[c]] for c in range(first, last))


def _on_step(state, before, index) -> None:
    _check_conservation(state)
    for display in state.displays:
        _check_display(display)
    if not state.is_over:
        assert len(state.legal_actions()) >= 2, "a single-option decision reached a seat"
    if before is not None:
        _check_action_is_legal(before, before.legal_actions()[index])


# --- every applied action checked against the rules' conditions, independently of the engine -----
_PLACING = (DecisionKind.PLACE_CARD, DecisionKind.PLACE_STOLEN, DecisionKind.PLACE_CAPTURED)


def _check_action_is_legal(state: OgallalaState, action) -> None:
    decision = state.decision
    own = state.displays[state.active]
    kind = type(action)
    if kind is Draw:
        assert decision is DecisionKind.CHOOSE_STACK and state.stacks[action.stack]
    elif kind is Stop:
        assert decision is DecisionKind.CHOOSE_STACK and state.draws > 0
    elif kind is PlaceCell:
        assert decision in _PLACING
        _check_cell(own, state.card, action.row, action.col)
    elif kind is PlaceShift:
        assert decision in _PLACING
        _check_shift(own, state.card, action)
    elif kind is Discard:
        assert decision in (DecisionKind.PLACE_CARD, DecisionKind.PLACE_CAPTURED)
    elif kind is Target:
        assert action.seat != state.active
        victim = state.displays[action.seat]
        target = victim.rows[action.row][action.col]
        assert not victim.is_complete(victim.segment_at(action.row, action.col))
        if decision is DecisionKind.LASSO_TARGET:
            assert KIND_NAMES[target] in _SINGLES | _SET_PIECES | {"totem"}
        else:
            assert decision is DecisionKind.ARCHER_TARGET
            assert KIND_NAMES[target] not in _SINGLES | _SET_PIECES | {"totem", "crazy_axe"}
            assert KIND_NAMES[target] not in {"bow_plain", "stern_plain"}
    elif kind is SinkBoat:
        assert decision is DecisionKind.AXE_BOAT and state.card == CRAZY_AXE
        assert (action.row, action.col) in [(r, c) for r, c, _ in own.complete_boats()]
    elif kind is NoAttack:
        assert decision is DecisionKind.ATTACK
    elif kind is Attack:
        assert decision is DecisionKind.ATTACK and action.seat != state.active
        victim = state.displays[action.seat]
        segment = victim.segment_at(action.row, action.col)
        assert segment[1] == action.col  # named by its leftmost card
        names = [KIND_NAMES[k] for k in victim.segment_kinds(segment)]
        attacker = [KIND_NAMES[k] for k in own.segment_kinds(state.attack_boat())]
        assert "totem" not in names and _fight(names) < _fight(attacker)
    else:
        assert kind is Declare and decision is DecisionKind.DECLARE_END


def _fight(names: list[str]) -> int:
    return sum(FIGHT[KIND_INDEX[name]] for name in names)


def _check_cell(display: Display, card: int, row: int, col: int) -> None:
    cards = {(r, c): k for r, c, k in display.cards()}
    if not cards:
        assert (row, col) == (0, 0)
        return
    assert (row, col) not in cards
    assert any((row + dr, col + dc) in cards for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    rows = [r for r, _ in cards] + [row]
    cols = [c for _, c in cards] + [col]
    assert max(rows) - min(rows) < MAX_ROWS and max(cols) - min(cols) < MAX_COLS
    assert all(k != card for (r, _), k in cards.items() if r == row)


def _check_shift(display: Display, card: int, action: PlaceShift) -> None:
    row, col = action.row, action.col
    cells = display.rows[row]
    assert SET_OF[card] >= 0 and SET_OF[cells[col]] == SET_OF[card]
    assert col > 0 and cells[col - 1] != EMPTY and cells[col + 1] != EMPTY
    assert card not in cells
    widens = cells[0] != EMPTY if action.side is Side.LEFT else cells[display.width - 1] != EMPTY
    assert display.width + widens <= MAX_COLS


# --- an independent recount of the final scores, from the view alone (5.3) ------------------------
_SETS = {
    "horse": ("cowboy", "horse_front", "horse_back"),
    "gold": ("gold_digger", "gold_left", "gold_right"),
    "bear": ("bear_hunter", "bear_front", "bear_back"),
    "bison": ("bison_hunter", "bison_front", "bison_back"),
    "timber": ("lumberjack", "timber_left", "timber_right"),
}
_SINGLES = {"squaw", "cauldron", "tepee", "cannon", "tobacco"}
_SET_PIECES = {piece for pieces in _SETS.values() for piece in pieces}
_BOWS = {"bow_plain", "bow_indian"}
_STERNS = {"stern_plain", "stern_indian"}


def _recount(view: OgallalaView, seat: int) -> int:
    grid = {(card.row, card.col): card.kind for card in view.displays[seat].cards}
    total = 0
    for row in {r for r, _ in grid}:
        run: list[str] = []
        for col in range(-1, MAX_COLS + 1):
            kind = grid.get((row, col))
            if run and (kind is None or kind in _BOWS):
                total += _boat_value(run)
                run = []
            if kind is not None:
                run.append(kind)
                if kind in _STERNS:
                    total += _boat_value(run)
                    run = []
    return total


def _boat_value(boat: list[str]) -> int:
    if boat[0] not in _BOWS or boat[-1] not in _STERNS:
        return 0
    points = len(boat) * (2 if len(boat) > 7 else 1)
    points += 10 * sum(1 for kind in boat if kind in _SINGLES)
    for person, left, right in _SETS.values():
        pieces = {kind: boat.index(kind) for kind in (person, left, right) if kind in boat}
        pair = left in pieces and right in pieces and pieces[right] == pieces[left] + 1
        triple = (
            pair and person in pieces and pieces[person] in (pieces[left] - 1, pieces[right] + 1)
        )
        if triple:
            points += 90
        elif pair:
            points += 40 + 10 * (person in pieces)
        else:
            points += 10 * len(pieces)
    return points


def _check_end(state: OgallalaState) -> None:
    assert state.end_reason is not None and state.turn <= TURN_CAP
    view = state.view(0)
    assert state.result().scores == tuple(
        float(_recount(view, s)) for s in range(state.num_players)
    )
    boats = len(state.displays[state.active].complete_boats())
    if state.end_reason is EndReason.FIVE_BOATS:
        assert boats >= 5
    elif state.end_reason is EndReason.DECLARED:
        assert boats in (3, 4)
    elif state.end_reason is EndReason.TURN_CAP:
        assert state.turn == TURN_CAP


@pytest.mark.slow  # many random games
@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_games_keep_the_invariants(players):
    reasons = Counter()
    for seed in range(property_game_count(default=15)):
        state = play_random_game(GAME, players, seed, on_step=_on_step)
        _check_end(state)
        reasons[state.end_reason] += 1
    assert reasons  # every game ended (play_random_game guards against endless games)
