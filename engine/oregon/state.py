"""The Oregon game state and its rules: setup (section 3), turn flow and decisions (section 4),
the board. Scoring (section 5), views, sampling and rendering live in their own modules."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

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
from engine.oregon import data, events
from engine.oregon.actions import (
    DecisionKind,
    DiscardWhenStuck,
    Draw,
    PlaceStartTile,
    UseExtraTurn,
)
from engine.oregon.describe import describe_action
from engine.oregon.enums import CARDS, DECKS
from engine.oregon.observe import build_view, view_fields
from engine.oregon.play_options import PlayActions, Segment, locate, play_segments
from engine.oregon.render import render
from engine.oregon.scoring import final_result, score_building, score_farmer
from engine.oregon.views import OregonView

_S = data.NUM_SYMBOLS
_LANDSCAPE = 0  # deck indices, as in Deck - 1
_BUILDING = 1
_PLAY = DecisionKind.PLAY
# Allowed decks of a draw, by (landscape allowed, building allowed); at least one always is.
_DECK_CHOICES = {
    (True, False): (_LANDSCAPE,),
    (False, True): (_BUILDING,),
    (True, True): (_LANDSCAPE, _BUILDING),
}
_DRAW_ACTIONS = {
    choice: tuple(Draw(DECKS[deck]) for deck in choice) for choice in _DECK_CHOICES.values()
}
_EXTRA_TURN_OPTIONS = (False, True)
_EXTRA_TURN_ACTIONS = (UseExtraTurn(False), UseExtraTurn(True))


class OregonState(GameState):
    """One game of Oregon. Seats' data is kept in parallel lists indexed by seat; sets of spaces
    are bit masks (see ``engine.oregon.data``); cards are card indices 0..11 (``Card`` - 1)."""

    copied_fields = (
        "owner",
        "building_at",
        "building_mask",
        "parent",
        "size",
        "farmer_mask",
        "score",
        "supply",
        "joker",
        "extra",
        "start_tile",
        "start_placed",
        "turns",
        "stacks",
        "out_of_game",
        "coal_stack",
        "gold_stack",
    )
    deep_copied_fields = ("hands", "coal", "gold", "decks", "discards")
    # The bit masks and the union-find follow from ``owner`` and ``building_at``; the option
    # cache from the rest.
    derived_fields = frozenset(
        ("building_mask", "free", "parent", "size", "farmer_mask", "_options", "_count")
    )

    # --- setup ------------------------------------------------------------------------------
    def __init__(self, num_players: int, seed: int, options: Mapping[str, OptionValue]) -> None:
        """Empty board, empty piles, full supplies, no cards dealt: ``new`` deals a real game,
        sampling and test positions fill the fields in directly."""
        p = num_players
        self.num_players, self.seed, self.options = p, seed, options
        self.history: list[int] = []
        self.event_log: list[EventEntry] = []
        self.rng = random.Random(seed)
        self.owner = [-1] * data.SPACES  # seat of the farmer on each space, -1 if none
        self.building_at = [-1] * data.SPACES  # building type on each space, -1 if none
        self.building_mask = [0] * data.NUM_BUILDINGS
        self.start_mask = 0  # spaces holding start tiles
        self.free = data.FARMER_LEGAL  # empty non-water spaces
        self.parent = list(range(data.SPACES))  # union-find over each seat's farmers
        self.size = [1] * data.SPACES
        self.farmer_mask = [0] * p
        self.hands = [[0] * data.NUM_CARDS for _ in range(p)]  # count per card index
        self.score = [0] * p
        self.supply = [data.FARMERS_PER_PLAYER] * p
        self.joker = [True] * p
        self.extra = [True] * p
        self.coal: list[list[int]] = [[] for _ in range(p)]
        self.gold: list[list[int]] = [[] for _ in range(p)]
        self.start_tile = [0] * p
        self.start_placed = [False] * p
        self.turns = [0] * p
        self.stacks = list(data.STACK_TILES)
        self.decks: list[list[int]] = [[], []]  # landscape, building; top of deck = end of list
        self.discards: list[list[int]] = [[], []]  # bottom first
        self.out_of_game: list[int] = []
        self.coal_stack: list[int] = []
        self.gold_stack: list[int] = []
        self.round, self.active = 1, 0
        self.phase: DecisionKind | None = DecisionKind.PLACE_START_TILE
        self.in_extra = False
        self.end_triggered = False
        # Raw options of the pending decision (None: not computed yet) and how many actions they
        # make. Their type depends on the phase (see _current_options), hence Any.
        self._options: Any = None
        self._count = 0

    @classmethod
    def new(cls, num_players: int, seed: int, options: Mapping[str, OptionValue]) -> OregonState:
        """Setup (section 3), advanced to the first real decision."""
        s = cls(num_players, seed, options)
        rng = s.rng
        landscape = [x for x in range(_S) for _ in range(data.LANDSCAPE_COPIES[x])]
        buildings = [
            _S + b for b in range(data.NUM_BUILDINGS) for _ in range(data.BUILDING_CARD_COPIES[b])
        ]
        s.decks = [landscape, buildings]
        for deck, count in enumerate((data.INITIAL_LANDSCAPE, data.INITIAL_BUILDING)):
            pile = s.decks[deck]  # _LANDSCAPE, then _BUILDING
            rng.shuffle(pile)
            for seat in range(num_players):
                for _ in range(count):
                    card = pile.pop()
                    s.hands[seat][card] += 1
                    s.event_log.append(
                        (seat, events.drawn, (seat, deck, card, False), (seat, deck, -1, False))
                    )
        s.coal_stack, s.gold_stack = list(data.COAL_TILES), list(data.GOLD_TILES)
        rng.shuffle(s.coal_stack)
        rng.shuffle(s.gold_stack)
        start_tiles = list(range(data.NUM_BUILDINGS))
        rng.shuffle(start_tiles)
        # The 7 - P undrawn start tiles leave the game unseen: they are simply not kept.
        s.start_tile = start_tiles[:num_players]
        for seat, b in enumerate(s.start_tile):
            s.event_log.append((EVERYONE, events.start_tile_dealt, (seat, b), None))
        s._settle()
        return s

    # --- the contract -------------------------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        return None if self.phase is None else self.active

    @property
    def decision_kind(self) -> str:
        return "" if self.phase is None else self.phase.name

    @property
    def is_over(self) -> bool:
        return self.phase is None

    def legal_actions(self) -> Sequence[Any]:
        if self.phase is None:
            return ()
        options = self._current_options()
        if self.phase is _PLAY:
            return PlayActions(options, self._count)
        if self.phase is DecisionKind.PLACE_START_TILE:
            return tuple(PlaceStartTile(*data.row_col(sp)) for sp in options)
        if self.phase is DecisionKind.USE_EXTRA_TURN:
            return _EXTRA_TURN_ACTIONS
        if self.phase is DecisionKind.DISCARD_WHEN_STUCK:
            return tuple(DiscardWhenStuck((CARDS[a], CARDS[b])) for a, b in options)
        return _DRAW_ACTIONS[options]

    def apply_index(self, index: int) -> None:
        if self.phase is None:
            raise GameOverError("oregon: the game is over; no action can be applied")
        count = self._option_count()
        if type(index) is not int or not 0 <= index < count:
            raise IllegalActionError(
                f"oregon: {index!r} is not a legal {self.phase.name} option index (0..{count - 1})"
            )
        self.history.append(index)
        self._apply_option(index)
        self._settle()

    def result(self) -> Result:
        if self.phase is not None:
            raise EngineError("oregon: the game is not over yet")
        return final_result(self)

    def view(self, seat: int) -> OregonView:
        if not 0 <= seat < self.num_players:
            raise EngineError(f"oregon: no seat {seat} in a {self.num_players}-player game")
        return build_view(self, seat)

    def view_fields(self, seat: int) -> tuple[Any, ...]:
        if not 0 <= seat < self.num_players:
            raise EngineError(f"oregon: no seat {seat} in a {self.num_players}-player game")
        return view_fields(self, seat)

    def render(self, seat: int | None = None) -> str:
        return render(self, seat)

    def describe_action(self, action: Any) -> str:
        return describe_action(action)

    # --- options of the pending decision --------------------------------------------------------
    def _current_options(self) -> Any:
        """Raw options of the pending decision, cached until the state changes: a list of PLAY
        segments, spaces, bools, card-index pairs, or a tuple of deck indices."""
        if self._options is None:
            self._set_options(self._compute_options())
        return self._options

    def _set_options(self, options: Sequence[Any]) -> None:
        self._options = options
        self._count = sum(seg.size for seg in options) if self.phase is _PLAY else len(options)

    def _option_count(self) -> int:
        if self._options is None:
            self._set_options(self._compute_options())
        return self._count

    def _compute_options(self) -> Sequence[Any]:
        phase, a = self.phase, self.active
        if phase is _PLAY:
            return self._play_segments(a)
        if phase is DecisionKind.PLACE_START_TILE:
            return data.spaces_of(data.BUILDING_LEGAL[self.start_tile[a]] & self.free)
        if phase is DecisionKind.USE_EXTRA_TURN:
            return _EXTRA_TURN_OPTIONS
        if phase is DecisionKind.DISCARD_WHEN_STUCK:
            hand = self.hands[a]
            held = [c for c in range(data.NUM_CARDS) if hand[c]]
            return [(x, y) for i, x in enumerate(held) for y in held[i:] if x != y or hand[x] >= 2]
        return self._allowed_decks(a)

    def _play_segments(self, seat: int) -> list[Segment]:
        return play_segments(
            self.hands[seat], self.joker[seat], self.supply[seat] > 0, self.stacks, self.free
        )

    def _settle(self) -> None:
        """Apply every decision that has a single option (R24)."""
        while self.phase is not None and self._option_count() == 1:
            self._apply_option(0)

    def _apply_option(self, index: int) -> None:
        phase, options = self.phase, self._current_options()
        self._options = None
        if phase is _PLAY:
            self._play(*locate(options, index))
        elif phase is DecisionKind.PLACE_START_TILE:
            self._place_start_tile(options[index])
        elif phase is DecisionKind.USE_EXTRA_TURN:
            self._use_extra_turn(options[index])
        elif phase is DecisionKind.DISCARD_WHEN_STUCK:
            self._discard_when_stuck(options[index])
        else:
            self._draw(options[index])

    # --- turn flow (4.1) -----------------------------------------------------------------------
    def _place_start_tile(self, sp: int) -> None:
        a = self.active
        self.event_log.append((EVERYONE, events.start_tile_placed, (a, sp), None))
        self.add_building(sp, self.start_tile[a], start_tile=True)
        self.start_placed[a] = True
        if a + 1 < self.num_players:
            self.active = a + 1
        else:
            self.round = 2
            self._begin_turn(0)

    def _begin_turn(self, seat: int) -> None:
        self.active = seat
        self.turns[seat] += 1
        self.in_extra = False
        segments = self._play_segments(seat)
        if segments:
            self.phase = _PLAY
            self._set_options(segments)
        else:
            self.phase = DecisionKind.DISCARD_WHEN_STUCK

    def _play(self, seg: Segment, sp: int) -> None:
        a = self.active
        self.event_log.append((EVERYONE, events.played, (a, seg, sp), None))
        hand = self.hands[a]
        for card in seg.cards:
            hand[card] -= 1
            self.discards[_LANDSCAPE if card < _S else _BUILDING].append(card)
        if seg.joker:
            self.joker[a] = False
        if seg.building < 0:
            self.supply[a] -= 1
            self._put_farmer(sp, a)
            score_farmer(self, sp, a)
        else:
            self.stacks[seg.building] -= 1
            self._put_building(sp, seg.building)
            score_building(self, sp, seg.building, a)
        self._check_end(a)
        if not self.in_extra and self.extra[a] and self._play_segments(a):
            self.phase = DecisionKind.USE_EXTRA_TURN
        else:
            self._end_turn()

    def _use_extra_turn(self, use: bool) -> None:
        self.event_log.append(
            (EVERYONE, events.ActionTaken, (self.active, _EXTRA_TURN_ACTIONS[use]), None)
        )
        if use:
            self.extra[self.active] = False
            self.in_extra = True
            self.phase = _PLAY
        else:
            self._end_turn()

    def _discard_when_stuck(self, pair: tuple[int, int]) -> None:
        self.event_log.append((EVERYONE, events.discarded, (self.active, pair), None))
        hand = self.hands[self.active]
        for card in pair:
            hand[card] -= 1
            if card < _S:
                self.discards[_LANDSCAPE].append(card)
            elif self.stacks[card - _S]:
                self.discards[_BUILDING].append(card)
            else:
                self.out_of_game.append(card)
        self._end_turn()

    def _check_end(self, seat: int) -> None:
        empty = sum(1 for tiles in self.stacks if tiles == 0)
        if self.supply[seat] == 0 or empty >= data.EMPTY_STACKS_TO_END[self.num_players]:
            self.end_triggered = True

    def _end_turn(self) -> None:
        a = self.active
        self.in_extra = False  # it marks the pending PLAY only, not the draws after it
        if a == self.num_players - 1 and (self.end_triggered or self.round >= data.ROUND_CAP):
            self.phase = None  # R22: the final turn has no draw step
            return
        hand = self.hands[a]
        for b in range(data.NUM_BUILDINGS):  # 4.6 step 1: dead cards leave the game
            card = _S + b
            if hand[card] and not self.stacks[b]:
                dead = [card] * hand[card]
                self.out_of_game.extend(dead)
                hand[card] = 0
                self.event_log.append((EVERYONE, events.left_game, (a, dead), None))
        self._refill()

    def _refill(self) -> None:
        if sum(self.hands[self.active]) < data.HAND_SIZE:
            self.phase = DecisionKind.DRAW
            return
        if self.active + 1 < self.num_players:
            self._begin_turn(self.active + 1)
        else:
            self.round += 1
            self._begin_turn(0)

    # --- draw step (4.6) -------------------------------------------------------------------------
    def building_available(self) -> bool:
        return bool(self.decks[_BUILDING]) or any(
            self.stacks[card - _S] for card in self.discards[_BUILDING]
        )

    def _allowed_decks(self, seat: int) -> tuple[int, ...]:
        hand = self.hands[seat]
        needs_landscape = not any(hand[:_S])
        available = self.building_available()
        needs_building = available
        if available:
            for b, tiles in enumerate(self.stacks):
                if tiles and hand[_S + b]:
                    needs_building = False
                    break
        missing = needs_landscape + needs_building
        draws_left = data.HAND_SIZE - sum(hand)
        landscape_ok = missing - needs_landscape <= draws_left - 1
        building_ok = available and missing - needs_building <= draws_left - 1
        return _DECK_CHOICES[landscape_ok, building_ok]

    def _draw(self, deck: int) -> None:
        a = self.active
        card = self._take_top(_LANDSCAPE) if deck == _LANDSCAPE else self._draw_live_building()
        if card is not None:
            self.hands[a][card] += 1
            self.event_log.append((a, events.drawn, (a, deck, card, False), (a, deck, -1, False)))
        self._refill()

    def _take_top(self, deck: int) -> int:
        """The top card of a deck, rebuilding it from its discard pile first if empty (R19)."""
        if not self.decks[deck]:
            pile = self.discards[deck]
            self.discards[deck] = []
            self.rng.shuffle(pile)
            self.decks[deck] = pile
            self.event_log.append((EVERYONE, events.deck_rebuilt, (deck, len(pile)), None))
        return self.decks[deck].pop()

    def _draw_live_building(self) -> int | None:
        """Draw building cards until a live one comes (dead ones leave the game, R17); None if
        the building deck and its discard pile run out of cards."""
        while True:
            if not self.decks[_BUILDING]:
                pile = self.discards[_BUILDING]
                dead = [c for c in pile if not self.stacks[c - _S]]
                if dead:
                    self.out_of_game.extend(dead)
                    self.event_log.append((EVERYONE, events.left_game, (-1, dead), None))
                self.discards[_BUILDING] = [c for c in pile if self.stacks[c - _S]]
                if not self.discards[_BUILDING]:
                    return None
            card = self._take_top(_BUILDING)
            if self.stacks[card - _S]:
                return card
            self.out_of_game.append(card)
            self.event_log.append(
                (EVERYONE, events.drawn, (self.active, _BUILDING, card, True), None)
            )

    # --- the board: pieces and farmer groups (scoring is in scoring.py) ---------------------------
    def _put_building(self, sp: int, b: int) -> None:
        self.building_at[sp] = b
        self.building_mask[b] |= 1 << sp
        self.free &= ~(1 << sp)

    def _put_farmer(self, sp: int, seat: int) -> None:
        self.owner[sp] = seat
        self.farmer_mask[seat] |= 1 << sp
        self.free &= ~(1 << sp)

    def add_farmer(self, sp: int, seat: int) -> None:
        """Rebuild a position: put a farmer and join it to its seat's orthogonal groups, without
        scoring or touching the supply. Group sizes do not depend on the order of calls."""
        self._put_farmer(sp, seat)
        for n in data.ORTHOGONAL[sp]:
            if self.owner[n] == seat:
                a, b = self.group_root(sp), self.group_root(n)
                if a != b:
                    self.parent[b] = a
                    self.size[a] += self.size[b]

    def add_building(self, sp: int, b: int, start_tile: bool) -> None:
        """Rebuild a position: put a building without scoring or touching the stacks."""
        self._put_building(sp, b)
        if start_tile:
            self.start_mask |= 1 << sp

    def all_farmers(self) -> int:
        mask = 0
        for m in self.farmer_mask:
            mask |= m
        return mask

    def group_root(self, sp: int) -> int:
        """The root of the union-find group of the farmer on ``sp`` (with path halving)."""
        parent = self.parent
        while parent[sp] != sp:
            parent[sp] = parent[parent[sp]]
            sp = parent[sp]
        return sp

    def join_groups(self, sp: int, seat: int) -> list[int]:
        """Join the seat's orthogonal groups around its new farmer on ``sp`` into one, rooted at
        ``sp``; returns the sizes the joined groups had (the group bonus, 5.3, depends on them)."""
        roots = {self.group_root(n) for n in data.ORTHOGONAL[sp] if self.owner[n] == seat}
        parts = [self.size[r] for r in roots]
        for r in roots:
            self.parent[r] = sp
        self.size[sp] = 1 + sum(parts)
        return parts
