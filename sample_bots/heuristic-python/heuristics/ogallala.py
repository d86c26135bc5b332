"""Heuristic strategy for Ogallala: one-decision look-ahead on the displays, no search.

Every option is tried on a copy of the displays it changes (the engine's own ``Display`` code does
the placing and removing) and scored with ``ogallala_value.display_value``: own gain plus the
damage done to opponents. On top of that the bot knows the end of the game: completing a third
(or later) boat while ahead wins at once, because it then declares the end; a fifth boat ends the
game even when behind, so it avoids that. It keeps drawing unless the crazy axe is likely enough
to cost more than a draw brings. ``rollout`` is the cheap version for the search bot's playouts
(``ogallala_rollout``); ``ranking`` and ``position_value`` give the search bot its candidates and
the static evaluation where its playouts stop.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.ogallala.actions import (
    Attack,
    DecisionKind,
    Discard,
    Draw,
    OgallalaAction,
    PlaceShift,
    Side,
    SinkBoat,
    Stop,
    Target,
)
from engine.ogallala.data import (
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
from engine.ogallala.state import OgallalaState
from engine.ogallala.views import KindCount, OgallalaView
from heuristics.ogallala_rollout import promising, rollout
from heuristics.ogallala_value import (
    BOAT_BONUS,
    DRAW_GAIN,
    display_value,
    placement_gain,
    row_values,
)

__all__ = ["alike", "choose", "position_value", "ranking", "rollout"]

WIN = 1000.0  # an option that wins (or loses) the game outright
END_BONUS = 20.0  # the search's static evaluation: what winning an ended game adds to its margin
# Below this expected loss to the crazy axe a draw from an original stack is taken without
# weighing what the card could bring.
NEGLIGIBLE_RISK = 0.2
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
        self.own_rows = row_values(self.own)
        self.own_value = sum(self.own_rows)
        self.own_boats = len(self.own.complete_boats())
        self._placement_gains: dict[tuple[int, bool], float] = {}
        self._attack_targets: list[tuple[Attack, int, float]] | None = None

    def leads_after(self, score: int, attack_fight: int | None) -> bool:
        """Whether ``score`` beats every opponent, after the best attack with a boat of fight
        ``attack_fight`` (None: no attack) on the one opponent that would still be level or
        ahead."""
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

    def placement_value(
        self, kind: int, action: OgallalaAction, can_attack: bool
    ) -> tuple[float, bool]:
        """Own gain from placing ``kind`` by ``action`` (not Discard), and whether it completes a
        boat. A completion by the drawn card (``can_attack``) adds the best attack it allows. The
        end of the game counts: a completion that leaves 3+ boats while ahead wins (the bot then
        declares), and one that makes 5 boats while behind loses."""
        display = self.own.copy()
        if type(action) is PlaceShift:  # a shift never completes a boat
            display.insert(action.row, action.col, action.side is Side.RIGHT, kind)
            return display_value(display) - self.own_value, False
        row, col = display.place(action.row, action.col, kind)
        gain = placement_gain(self.own_rows, self.own.width, display, row)
        boat = display.segment_at(row, col)
        if not display.is_complete(boat):
            return gain, False
        boats = self.own_boats + 1
        fight = sum(FIGHT[k] for k in display.segment_kinds(boat)) if can_attack else None
        if boats >= min(DECLARE_WITH_BOATS) and self.leads_after(display_score(display), fight):
            return gain + WIN, True
        if boats >= ENDING_BOATS:
            return gain - WIN, True
        return gain + (self.best_attack(fight) if fight is not None else 0.0), True

    def attack_targets(self) -> list[tuple[Attack, int, float]]:
        """Every unprotected opponent segment as (its Attack action, fight value, worth of the
        attack: the owner's loss, weighted, plus the captured booty's gain for this seat)."""
        if self._attack_targets is None:
            self._attack_targets = []
            for seat in self.opponents:
                display = self.displays[seat]
                for segment in display.segments():
                    kinds = display.segment_kinds(segment)
                    if any(IS_TOTEM[k] for k in kinds):
                        continue
                    row, first, last = segment
                    loss, _ = self.loss(seat, [(row, col) for col in range(first, last + 1)])
                    booty = sum(self.best_placement_gain(k) for k in kinds if IS_BOOTY[k])
                    self._attack_targets.append(
                        (
                            Attack(seat, row, first),
                            sum(FIGHT[k] for k in kinds),
                            loss * self.weights[seat] + booty,
                        )
                    )
        return self._attack_targets

    def best_attack(self, fight: int) -> float:
        """Worth of the best attack a boat of fight value ``fight`` can make (0: none)."""
        return max((worth for _, f, worth in self.attack_targets() if f < fight), default=0.0)

    def best_placement_gain(self, kind: int, drawn: bool = False) -> float:
        """About the most a card of ``kind`` adds to the own display (0 when it is best
        discarded), weighing only the promising placements; a ``drawn`` card may attack when it
        completes a boat, a stolen or captured one not."""
        key = (kind, drawn)
        if key not in self._placement_gains:
            options = placements(self.own, kind)
            self._placement_gains[key] = max(
                [0.0]
                + [self.placement_value(kind, a, drawn)[0] for _, a in promising(self.own, options)]
            )
        return self._placement_gains[key]

    def loss(self, seat: int, cells: list[tuple[int, int]]) -> tuple[float, list[int]]:
        """Worth lost by ``seat`` when the cards on ``cells`` leave its display, and their kinds."""
        display = self.displays[seat].copy()
        before = display_value(display)
        kinds = display.remove(cells)
        return before - display_value(display), kinds


def choose(view: OgallalaView, actions: Sequence[OgallalaAction], rng: random.Random) -> int:
    """Index of the chosen action among ``actions`` (the legal actions of ``view``'s decision):
    the first of the highest value. Deterministic: ``rng`` is part of the strategy interface but
    not needed here."""
    values = option_values(view, actions)
    return values.index(max(values))


def ranking(
    view: OgallalaView, actions: Sequence[OgallalaAction], rng: random.Random, k: int
) -> list[int]:
    """The ``k`` options valued most, best first (the search bot's candidates)."""
    values = option_values(view, actions)
    return sorted(range(len(actions)), key=lambda i: -values[i])[:k]


def alike(view: OgallalaView, actions: Sequence[OgallalaAction]) -> list[int]:
    """For every option, the first option that is alike to it for this seat (the search bot
    searches each group once): draws from original stacks are alike, because the unseen cards
    split among them at random, so each top card is a uniform draw from the same pool (only when
    each stack runs out differs). Every other option is its own group."""
    first_original = None
    groups = []
    for index, action in enumerate(actions):
        if type(action) is Draw and not view.stacks[action.stack].refilled:
            if first_original is None:
                first_original = index
            groups.append(first_original)
        else:
            groups.append(index)
    return groups


def position_value(state: OgallalaState, seat: int) -> float:
    """The search bot's static evaluation: the seat's display value minus the best opponent's
    (``display_value``: complete boats plus the likely worth of unfinished ones); once the game is
    over, the score margin plus ``END_BONUS`` for a win (minus for a loss)."""
    if state.is_over:
        scores = [display_score(display) for display in state.displays]
        mine = scores.pop(seat)
        best_other = max(scores)
        return mine - best_other + END_BONUS * ((mine > best_other) - (mine < best_other))
    values = [display_value(display) for display in state.displays]
    mine = values.pop(seat)
    return mine - max(values)


def option_values(view: OgallalaView, actions: Sequence[OgallalaAction]) -> list[float]:
    """The heuristic's value of every option of ``view``'s decision."""
    table = Table(view)
    decision = view.decision
    if decision is DecisionKind.CHOOSE_STACK:
        return _stack_values(view, table, actions)
    if decision is DecisionKind.DECLARE_END:
        leads = table.leads_after(table.scores[view.seat], None)
        return _values(actions, lambda a: float(a.declare == leads))
    kind = KIND_INDEX[view.card]
    if decision in (
        DecisionKind.PLACE_CARD,
        DecisionKind.PLACE_STOLEN,
        DecisionKind.PLACE_CAPTURED,
    ):
        goes_on = (
            decision is DecisionKind.PLACE_CARD
            and not view.duplicate
            and kind not in (LASSO, ARCHER)
        )
        attacks = decision is DecisionKind.PLACE_CARD

        def placing(action: OgallalaAction) -> float:
            if type(action) is Discard:
                return 0.0
            value, completes = table.placement_value(kind, action, attacks)
            return value + DRAW_GAIN if goes_on and not completes else value

        return _values(actions, placing)
    if decision is DecisionKind.LASSO_TARGET:

        def stealing(target: Target) -> float:
            loss, (stolen,) = table.loss(target.seat, [(target.row, target.col)])
            return loss * table.weights[target.seat] + table.best_placement_gain(stolen)

        return _values(actions, stealing)
    if decision is DecisionKind.ARCHER_TARGET:
        return _values(
            actions,
            lambda t: table.loss(t.seat, [(t.row, t.col)])[0] * table.weights[t.seat],
        )
    if decision is DecisionKind.ATTACK:
        worth = {attack: value for attack, _, value in table.attack_targets()}
        return _values(actions, lambda action: worth.get(action, 0.0))
    if decision is DecisionKind.AXE_BOAT:

        def sinking(action: SinkBoat) -> float:
            row, first, last = table.own.segment_at(action.row, action.col)
            return -table.loss(table.seat, [(row, col) for col in range(first, last + 1)])[0]

        return _values(actions, sinking)
    raise ValueError(f"ogallala heuristic: unknown decision {decision}")


def _stack_values(
    view: OgallalaView, table: Table, actions: Sequence[OgallalaAction]
) -> list[float]:
    """Draw from the stack whose top card is worth most on average (a refilled stack's contents
    are known; the original stacks share the unseen cards), net of the risk that it is the crazy
    axe and sinks the cheapest own boat; stop when no draw is worth that risk."""
    own = table.own
    at_stake = min(
        (boat_points(own.segment_kinds(b)) + BOAT_BONUS for b in own.complete_boats()), default=0.0
    )
    unseen = _counts(view.unseen)
    refilled = {stack.index: _counts(stack.contents) for stack in view.stacks if stack.refilled}
    if not refilled and _axe_odds(unseen) * at_stake < NEGLIGIBLE_RISK:
        # every stack is alike and safe enough: draw, without weighing each card
        return [1.0] + [0.0] * (len(actions) - 1)

    def drawing(action: OgallalaAction) -> float:
        if type(action) is Stop:
            return 0.0
        pool = refilled.get(action.stack, unseen)
        total = sum(pool.values())
        worth = sum(
            n * table.best_placement_gain(k, drawn=True) for k, n in pool.items() if k != CRAZY_AXE
        )
        return worth / total - _axe_odds(pool) * at_stake

    return _values(actions, drawing)


def _counts(entries: Sequence[KindCount]) -> dict[int, int]:
    return {KIND_INDEX[entry.kind]: entry.count for entry in entries}


def _axe_odds(pool: dict[int, int]) -> float:
    total = sum(pool.values())
    return pool.get(CRAZY_AXE, 0) / total if total else 0.0


def _values(actions: Sequence[OgallalaAction], value: Callable[[Any], float]) -> list[float]:
    return [value(action) for action in actions]
