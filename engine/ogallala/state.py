"""The rules of play: the turn of ogallala.md 4.4 as a state machine of decisions (4.5), the
automatic steps (4.6) and the end of the game (5.1, 5.2).

The state always rests at a decision with two or more options (or at the end): every transition
asks for the next decision through ``_ask``, and ``_settle`` applies single-option decisions
without logging them (R31).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from engine.core import (
    EVERYONE,
    EngineError,
    EventEntry,
    GameOverError,
    GameState,
    IllegalActionError,
    OptionValue,
    Result,
)
from engine.ogallala import events
from engine.ogallala.actions import (
    DECLARE_CHOICES,
    DISCARD,
    DRAWS,
    NO_ATTACK,
    STOP,
    Attack,
    DecisionKind,
    Declare,
    Discard,
    Draw,
    NoAttack,
    OgallalaAction,
    PlaceCell,
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
    INITIAL_STACK_SIZES,
    IS_BOOTY,
    IS_FIGURE,
    IS_LASSO_PREY,
    IS_TOTEM,
    LASSO,
    NO_CARD,
    STALL_TURNS,
    START_SEAT,
    TURN_CAP,
    full_deck,
)
from engine.ogallala.describe import describe_action, describe_decision
from engine.ogallala.display import Display
from engine.ogallala.observe import build_view, view_fields
from engine.ogallala.placement import placements
from engine.ogallala.render import render
from engine.ogallala.scoring import final_result
from engine.ogallala.views import EndReason, OgallalaView


class OgallalaState(GameState):
    copied_fields = ("refilled", "discard", "captured")
    deep_copied_fields = ("stacks", "displays")

    def __init__(self, num_players: int, seed: int, options: Mapping[str, OptionValue]) -> None:
        """An empty table: no cards anywhere, no decision. ``new`` deals a real game; sampling
        (and test positions) set the fields directly and then call ``resume``."""
        self.num_players = num_players
        self.seed = seed
        self.options = options
        self.history: list[int] = []
        self.event_log: list[EventEntry] = []
        self.rng = random.Random(seed)
        # Stacks hold kind indices with the top card LAST (drawing pops it).
        self.stacks: list[list[int]] = [[] for _ in INITIAL_STACK_SIZES]
        self.refilled: list[bool] = [False] * len(INITIAL_STACK_SIZES)
        self.discard: list[int] = []
        self.displays: list[Display] = [Display() for _ in range(num_players)]
        self.turn = 0
        self.stall = 0
        self.active = START_SEAT
        # The active seat's turn so far.
        self.draws = 0
        self.card = NO_CARD  # the card the pending decision is about
        self.duplicate = False
        self.completed = False
        self.changed = False  # a card entered or left a display this turn
        self.attack_row = -1  # the attack card: its row on the active display (-1: none) ...
        self.attack_kind = NO_CARD  # ... and its kind, unique in that row (R2)
        self.captured: list[int] = []  # captured cards still to place after ``card``
        self.decision: DecisionKind | None = None
        self.end_reason: EndReason | None = None
        self.legal: tuple[OgallalaAction, ...] = ()

    # --- setting up ---------------------------------------------------------------------------
    @classmethod
    def new(cls, num_players: int, seed: int, options: Mapping[str, OptionValue]) -> OgallalaState:
        """Setup (section 3): shuffle the deck into the three stacks; the first turn begins."""
        state = cls(num_players, seed, options)
        deck = full_deck()
        state.rng.shuffle(deck)
        start = 0
        for index, size in enumerate(INITIAL_STACK_SIZES):
            state.stacks[index] = deck[start : start + size][::-1]
            start += size
        state._begin_draw()
        state._settle()
        return state

    def resume(self, decision: DecisionKind | None) -> None:
        """Put the pending ``decision`` (None: the game is over) in place after the fields were
        set directly (sampling, prepared positions). Its option list must not be empty."""
        self.decision = decision
        self.legal = () if decision is None else self._options(decision)
        if decision is not None and not self.legal:
            raise EngineError(f"ogallala: {decision.name} has no option in this position")

    # --- contract -------------------------------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        return None if self.decision is None else self.active

    @property
    def decision_kind(self) -> str:
        return "" if self.decision is None else self.decision.name

    @property
    def is_over(self) -> bool:
        return self.decision is None

    def legal_actions(self) -> Sequence[OgallalaAction]:
        return self.legal

    def apply_index(self, index: int) -> None:
        if self.decision is None:
            raise GameOverError("ogallala: the game is over; no action can be applied")
        legal = self.legal
        if not 0 <= index < len(legal):
            raise IllegalActionError(
                f"ogallala: {self.decision.name} has {len(legal)} options, not index {index}"
            )
        self.history.append(index)
        self.event_log.append((EVERYONE, events.ActionTaken, (self.active, legal[index]), None))
        self._HANDLERS[self.decision](self, legal[index])
        self._settle()

    def result(self) -> Result:
        if self.decision is not None:
            raise EngineError("ogallala: the game is not over yet")
        return final_result(self.displays, self.end_reason)

    def view(self, seat: int) -> OgallalaView:
        return build_view(self, seat)

    def view_fields(self, seat: int) -> tuple[Any, ...]:
        return view_fields(self, seat)

    def digest_fields(self) -> dict[str, Any]:
        fields = super().digest_fields()
        fields["displays"] = [(d.rows, d.occ, d.kinds, d.height, d.width) for d in self.displays]
        return fields

    def render(self, seat: int | None = None) -> str:
        return render(self, seat)

    def describe_action(self, action: Any) -> str:
        return describe_action(action)

    def describe_decision(self) -> str:
        return describe_decision(self)

    # --- automatic steps and transitions ----------------------------------------------------------
    def _settle(self) -> None:
        while self.decision is not None and len(self.legal) == 1:
            only = self.legal[0]
            self.event_log.append((EVERYONE, events.ActionTaken, (self.active, only), None))
            self._HANDLERS[self.decision](self, only)

    def _ask(self, decision: DecisionKind) -> bool:
        """Make ``decision`` pending; False (nothing changes) when it has no option."""
        options = self._options(decision)
        if not options:
            return False
        self.decision = decision
        self.legal = options
        return True

    def _options(self, decision: DecisionKind) -> tuple[OgallalaAction, ...]:
        own = self.displays[self.active]
        if decision is DecisionKind.CHOOSE_STACK:
            draws = [DRAWS[i] for i, stack in enumerate(self.stacks) if stack]
            return (*draws, STOP) if self.draws else tuple(draws)
        if decision is DecisionKind.PLACE_CARD or decision is DecisionKind.PLACE_CAPTURED:
            return (*placements(own, self.card), DISCARD)
        if decision is DecisionKind.PLACE_STOLEN:
            return tuple(placements(own, self.card))
        if decision is DecisionKind.LASSO_TARGET:
            return self._targets(IS_LASSO_PREY, placeable=True)
        if decision is DecisionKind.ARCHER_TARGET:
            return self._targets(IS_FIGURE, placeable=False)
        if decision is DecisionKind.AXE_BOAT:
            return tuple(SinkBoat(row, first) for row, first, _ in own.complete_boats())
        if decision is DecisionKind.ATTACK:
            return (NO_ATTACK, *self._attack_targets())
        return DECLARE_CHOICES

    def _opponents(self) -> list[int]:
        """Other seats clockwise, starting after the active seat."""
        return [(self.active + i) % self.num_players for i in range(1, self.num_players)]

    def _targets(self, eligible: Sequence[bool], placeable: bool) -> tuple[Target, ...]:
        """Opponents' ``eligible`` cards in unfinished boats; for the lasso only those the
        active seat can place (R16)."""
        own = self.displays[self.active]
        can_place: dict[int, bool] = {}
        targets = []
        for seat in self._opponents():
            display = self.displays[seat]
            for segment in display.segments():
                if display.is_complete(segment):
                    continue
                row, first, last = segment
                for col in range(first, last + 1):
                    kind = display.rows[row][col]
                    if not eligible[kind]:
                        continue
                    if placeable:
                        if kind not in can_place:
                            can_place[kind] = bool(placements(own, kind))
                        if not can_place[kind]:
                            continue
                    targets.append(Target(seat, row, col))
        return tuple(targets)

    def attack_boat(self) -> tuple[int, int, int]:
        """The complete boat holding the attack card (it stays complete: the active display only
        gains cards after the completion, and shifts never break a boat)."""
        own = self.displays[self.active]
        return own.segment_at(self.attack_row, own.rows[self.attack_row].index(self.attack_kind))

    def _attack_targets(self) -> list[Attack]:
        own = self.displays[self.active]
        strength = sum(FIGHT[kind] for kind in own.segment_kinds(self.attack_boat()))
        targets = []
        for seat in self._opponents():
            display = self.displays[seat]
            for segment in display.segments():
                kinds = display.segment_kinds(segment)
                if any(IS_TOTEM[kind] for kind in kinds):
                    continue
                if sum(FIGHT[kind] for kind in kinds) < strength:
                    targets.append(Attack(seat, segment[0], segment[1]))
        return targets

    def _begin_draw(self) -> None:
        """Refill step (4.6), then CHOOSE_STACK; the game ends at once when every stack stays
        empty (5.1c), even in the middle of a turn."""
        for index, stack in enumerate(self.stacks):
            if not stack and self.discard:
                pile = self.discard
                self.rng.shuffle(pile)
                self.stacks[index] = pile
                self.refilled[index] = True
                self.discard = []
                self.event_log.append((EVERYONE, events.StackRefilled, (index, len(pile)), None))
        self.card = NO_CARD
        if not any(self.stacks):  # 5.1c: at once, even after a draw (no STOP, no end of turn)
            self._finish(EndReason.CARDS_EXHAUSTED)
            return
        self._ask(DecisionKind.CHOOSE_STACK)

    def _put(self, action: PlaceCell | PlaceShift) -> int:
        """Place ``self.card`` on the active display. Returns the card's row when a cell placement
        completed a boat with it, else -1 (a shift never completes one, 4.3)."""
        own = self.displays[self.active]
        self.changed = True
        if type(action) is PlaceCell:
            row, col = own.place(action.row, action.col, self.card)
            if action.row < 0 and self.attack_row >= 0:
                self.attack_row += 1  # a new top row moved the attack card down
            return row if own.is_complete(own.segment_at(row, col)) else -1
        own.insert(action.row, action.col, action.side is Side.RIGHT, self.card)
        return -1

    def _end_turn(self) -> None:
        """Step 8 of 4.4: attack, end check, turn counter, next seat."""
        if self.attack_row >= 0:
            self.card = self.attack_kind
            self._ask(DecisionKind.ATTACK)
            return
        self._end_check()

    def _end_check(self) -> None:
        if self.completed:
            boats = len(self.displays[self.active].complete_boats())
            if boats >= ENDING_BOATS:
                self._finish(EndReason.FIVE_BOATS)
                return
            if boats in DECLARE_WITH_BOATS:
                self.card = NO_CARD
                self._ask(DecisionKind.DECLARE_END)
                return
        self._next_turn()

    def _next_turn(self) -> None:
        self.turn += 1
        self.stall = 0 if self.changed else self.stall + 1
        if self.turn >= TURN_CAP:
            self._finish(EndReason.TURN_CAP)
            return
        if self.stall >= STALL_TURNS:
            self._finish(EndReason.STALL)
            return
        self.active = (self.active + 1) % self.num_players
        self.draws = 0
        self.duplicate = False
        self.completed = False
        self.changed = False
        self._begin_draw()

    def _finish(self, reason: EndReason) -> None:
        self.end_reason = reason
        self.decision = None
        self.legal = ()
        self.card = NO_CARD

    # --- decision handlers ----------------------------------------------------------------------
    def _on_choose_stack(self, action: Draw | Stop) -> None:
        if type(action) is Stop:
            self._end_turn()
            return
        kind = self.stacks[action.stack].pop()
        self.event_log.append((EVERYONE, events.drawn, (self.active, action.stack, kind), None))
        self.draws += 1
        self.card = kind
        own = self.displays[self.active]
        if kind == CRAZY_AXE:
            self._crazy_axe()
            return
        self.duplicate = own.holds_kind(kind)
        self._ask(DecisionKind.PLACE_CARD)

    def _on_place_card(self, action: PlaceCell | PlaceShift | Discard) -> None:
        kind = self.card
        discarded = completed = False
        if type(action) is Discard:
            discarded = True
            self.discard.append(kind)
        else:
            row = self._put(action)
            if row >= 0:
                completed = self.completed = True
                self.attack_row, self.attack_kind = row, kind
        if kind == LASSO:
            if not self._ask(DecisionKind.LASSO_TARGET):
                self._end_turn()
        elif kind == ARCHER:
            if not self._ask(DecisionKind.ARCHER_TARGET):
                self._end_turn()
        elif discarded or completed or self.duplicate:
            self._end_turn()
        else:
            self._begin_draw()

    def _on_lasso_target(self, action: Target) -> None:
        victim = self.displays[action.seat]
        (self.card,) = victim.remove([(action.row, action.col)])
        self.changed = True
        self._ask(DecisionKind.PLACE_STOLEN)  # never empty: only placeable cards are targets

    def _on_place_stolen(self, action: PlaceCell | PlaceShift) -> None:
        if self._put(action) >= 0:
            self.completed = True  # R23: counts for the end check, gives no attack
        self._end_turn()

    def _on_archer_target(self, action: Target) -> None:
        victim = self.displays[action.seat]
        self.discard.extend(victim.remove([(action.row, action.col)]))
        self.changed = True
        self._end_turn()

    def _crazy_axe(self) -> None:
        if not self._ask(DecisionKind.AXE_BOAT):  # no complete boat: the axe is simply discarded
            self.discard.append(CRAZY_AXE)
            self._end_turn()

    def _on_axe_boat(self, action: SinkBoat) -> None:
        own = self.displays[self.active]
        row, first, last = own.segment_at(action.row, action.col)
        self.discard.extend(own.remove([(row, col) for col in range(first, last + 1)]))
        self.discard.append(CRAZY_AXE)
        self.changed = True
        self._end_turn()

    def _on_attack(self, action: NoAttack | Attack) -> None:
        self.attack_row = -1
        self.attack_kind = NO_CARD
        if type(action) is NoAttack:
            self._end_check()
            return
        victim = self.displays[action.seat]
        row, first, last = victim.segment_at(action.row, action.col)
        taken = victim.remove([(row, col) for col in range(first, last + 1)])
        self.changed = True
        self.discard.extend(kind for kind in taken if not IS_BOOTY[kind])
        self.captured = [kind for kind in taken if IS_BOOTY[kind]]
        self._next_captured()

    def _next_captured(self) -> None:
        if not self.captured:
            self._end_check()
            return
        self.card = self.captured.pop(0)
        self._ask(DecisionKind.PLACE_CAPTURED)

    def _on_place_captured(self, action: PlaceCell | PlaceShift | Discard) -> None:
        if type(action) is Discard:
            self.discard.append(self.card)
        elif self._put(action) >= 0:
            self.completed = True  # R23
        self._next_captured()

    def _on_declare_end(self, action: Declare) -> None:
        if action.declare:
            self._finish(EndReason.DECLARED)
        else:
            self._next_turn()

    # Each handler receives an action of its decision's option list.
    _HANDLERS: ClassVar[dict[DecisionKind, Callable[..., None]]] = {
        DecisionKind.CHOOSE_STACK: _on_choose_stack,
        DecisionKind.PLACE_CARD: _on_place_card,
        DecisionKind.LASSO_TARGET: _on_lasso_target,
        DecisionKind.PLACE_STOLEN: _on_place_stolen,
        DecisionKind.ARCHER_TARGET: _on_archer_target,
        DecisionKind.AXE_BOAT: _on_axe_boat,
        DecisionKind.ATTACK: _on_attack,
        DecisionKind.PLACE_CAPTURED: _on_place_captured,
        DecisionKind.DECLARE_END: _on_declare_end,
    }
