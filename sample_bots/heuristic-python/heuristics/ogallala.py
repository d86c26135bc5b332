"""Heuristic strategy for Ogallala: one-decision look-ahead on the displays, no search.

Every option is tried on a copy of the displays it changes (the engine's own ``Display`` code does
the placing and removing) and scored with ``ogallala_value.display_value``: own gain plus the
damage done to opponents. On top of that the bot knows the end of the game: completing a third
(or later) boat while ahead wins at once, because it then declares the end; a fifth boat ends the
game even when behind, so it avoids that. It keeps drawing unless the crazy axe is likely enough
to cost more than a draw brings. ``rollout`` is the cheap version for the search bot's playouts
(``ogallala_rollout``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ogallala.actions import (
    Action,
    Attack,
    Discard,
    PlaceCell,
    PlaceShift,
    Side,
    SinkBoat,
    Stop,
    Target,
)
from engine.ogallala.cards import (
    ARCHER,
    CRAZY_AXE,
    DECLARE_WITH_BOATS,
    ENDING_BOATS,
    FIGHT,
    IS_BOOTY,
    IS_TOTEM,
    KIND_INDEX,
    LASSO,
)
from engine.ogallala.display import Display
from engine.ogallala.placement import placements
from engine.ogallala.scoring import boat_points, display_score
from engine.ogallala.views import Decision, OgallalaView
from heuristics.ogallala_rollout import rollout
from heuristics.ogallala_value import BOAT_BONUS, display_value

__all__ = ["choose", "rollout"]

WIN = 1000.0  # an option that wins (or loses) the game outright
# Expected gain of one more draw: what placing a card that lets the turn go on is worth on top
# of the card itself, and what the crazy axe's risk is weighed against before drawing.
DRAW_GAIN = 1.0
# Opponents' losses count this much more when the opponent leads the others (3+ players).
LEADER_WEIGHT = 1.5


class Table:
    """The displays of a view as engine ``Display`` objects, and the scores they give."""

    def __init__(self, view: OgallalaView) -> None:
        self.seat = view.seat
        self.displays = [
            Display.from_cards([(card.row, card.col, KIND_INDEX[card.kind]) for card in seat.cards])
            for seat in view.displays
        ]
        self.scores = [seat.score for seat in view.displays]
        self.opponents = [s for s in range(view.num_players) if s != view.seat]
        leader = max(self.opponents, key=lambda s: self.scores[s])
        self.weights = {
            s: LEADER_WEIGHT if s == leader and len(self.opponents) > 1 else 1.0
            for s in self.opponents
        }
        self.own = self.displays[self.seat]
        self.own_value = display_value(self.own)
        self._placement_gains: dict[int, float] = {}

    def leads_after(self, score: int, attack_fight: int | None) -> bool:
        """Whether ``score`` beats every opponent, after the best attack with a boat of fight
        ``attack_fight`` (None: no attack) on the one opponent that would still be level or ahead."""
        threats = [s for s in self.opponents if self.scores[s] >= score]
        if not threats:
            return True
        if attack_fight is None or len(threats) > 1:
            return False
        victim = self.displays[threats[0]]
        cut = 0
        for boat in victim.complete_boats():
            kinds = victim.segment_kinds(boat)
            if not any(IS_TOTEM[k] for k in kinds) and sum(FIGHT[k] for k in kinds) < attack_fight:
                cut = max(cut, boat_points(kinds))
        return self.scores[threats[0]] - cut < score

    def placement_value(self, kind: int, action: Action, can_attack: bool) -> tuple[float, bool]:
        """Own gain from placing ``kind`` by ``action`` (not Discard), and whether it completes a
        boat. The end of the game counts: a completion that leaves 3+ boats while ahead wins (the
        bot then declares), and one that makes 5 boats while behind loses."""
        display = self.own.copy()
        boats_before = len(display.complete_boats())
        cell = _place(display, kind, action)
        gain = display_value(display) - self.own_value
        if cell is None:  # a shift never completes a boat
            return gain, False
        boats = len(display.complete_boats())
        if boats <= boats_before:
            return gain, False
        if boats < min(DECLARE_WITH_BOATS):
            return gain, True
        fight = None
        if can_attack:
            fight = sum(FIGHT[k] for k in display.segment_kinds(display.segment_at(*cell)))
        if self.leads_after(display_score(display), fight):
            return gain + WIN, True
        return (gain - WIN if boats >= ENDING_BOATS else gain), True

    def best_placement_gain(self, kind: int) -> float:
        """The most a card of ``kind`` adds to the own display (0 when it is best discarded)."""
        if kind not in self._placement_gains:
            self._placement_gains[kind] = max(
                [0.0] + [self.placement_value(kind, a, False)[0] for a in placements(self.own, kind)]
            )
        return self._placement_gains[kind]

    def loss(self, seat: int, cells: list[tuple[int, int]]) -> tuple[float, list[int]]:
        """Worth lost by ``seat`` when the cards on ``cells`` leave its display, and their kinds."""
        display = self.displays[seat].copy()
        before = display_value(display)
        kinds = display.remove(cells)
        return before - display_value(display), kinds


def choose(view: OgallalaView, actions: Sequence[Action], rng: random.Random) -> int:
    """Index of the chosen action among ``actions`` (the legal actions of ``view``'s decision)."""
    table = Table(view)
    decision = view.decision
    if decision is Decision.CHOOSE_STACK:
        return _choose_stack(view, table, actions)
    if decision is Decision.DECLARE_END:
        return _best(actions, lambda a: a.declare == table.leads_after(table.scores[view.seat], None))
    kind = KIND_INDEX[view.card]
    if decision in (Decision.PLACE_CARD, Decision.PLACE_STOLEN, Decision.PLACE_CAPTURED):
        goes_on = decision is Decision.PLACE_CARD and not view.duplicate and kind not in (LASSO, ARCHER)
        attacks = decision is Decision.PLACE_CARD

        def placing(action: Action) -> float:
            if type(action) is Discard:
                return 0.0
            value, completes = table.placement_value(kind, action, attacks)
            return value + DRAW_GAIN if goes_on and not completes else value

        return _best(actions, placing)
    if decision is Decision.LASSO_TARGET:

        def stealing(target: Target) -> float:
            loss, (stolen,) = table.loss(target.seat, [(target.row, target.col)])
            return loss * table.weights[target.seat] + table.best_placement_gain(stolen)

        return _best(actions, stealing)
    if decision is Decision.ARCHER_TARGET:
        return _best(
            actions,
            lambda t: table.loss(t.seat, [(t.row, t.col)])[0] * table.weights[t.seat],
        )
    if decision is Decision.ATTACK:

        def attacking(action: Action) -> float:
            if type(action) is not Attack:
                return 0.0
            victim = table.displays[action.seat]
            row, first, last = victim.segment_at(action.row, action.col)
            loss, kinds = table.loss(action.seat, [(row, col) for col in range(first, last + 1)])
            booty = sum(table.best_placement_gain(k) for k in kinds if IS_BOOTY[k])
            return loss * table.weights[action.seat] + booty

        return _best(actions, attacking)
    if decision is Decision.AXE_BOAT:

        def sinking(action: SinkBoat) -> float:
            row, first, last = table.own.segment_at(action.row, action.col)
            return -table.loss(table.seat, [(row, col) for col in range(first, last + 1)])[0]

        return _best(actions, sinking)
    raise ValueError(f"ogallala heuristic: unknown decision {decision}")


def _choose_stack(view: OgallalaView, table: Table, actions: Sequence[Action]) -> int:
    """Draw from the stack least likely to hold the crazy axe on top; stop when even that risk
    (losing the cheapest own boat) outweighs what a draw brings."""
    own = table.own
    at_stake = min(
        (boat_points(own.segment_kinds(b)) + BOAT_BONUS for b in own.complete_boats()), default=0.0
    )
    unseen_total = sum(entry.count for entry in view.unseen)
    unseen_axes = sum(entry.count for entry in view.unseen if KIND_INDEX[entry.kind] == CRAZY_AXE)

    def drawing(action: Action) -> float:
        if type(action) is Stop:
            return 0.0
        stack = view.stacks[action.stack]
        if stack.refilled:
            axes = sum(e.count for e in stack.contents if KIND_INDEX[e.kind] == CRAZY_AXE)
            odds = axes / stack.size
        else:
            odds = unseen_axes / unseen_total if unseen_total else 0.0
        return DRAW_GAIN - odds * at_stake

    return _best(actions, drawing)


def _place(display: Display, kind: int, action: Action) -> tuple[int, int] | None:
    """Apply a placement to ``display``; the card's cell for a cell placement, None for a shift."""
    if type(action) is PlaceCell:
        return display.place(action.row, action.col, kind)
    assert type(action) is PlaceShift
    display.insert(action.row, action.col, action.side is Side.RIGHT, kind)
    return None


def _best(actions: Sequence, value) -> int:
    """Index of the first action with the highest ``value``."""
    best_index, best_value = 0, float("-inf")
    for index, action in enumerate(actions):
        v = value(action)
        if v > best_value:
            best_index, best_value = index, v
    return best_index
