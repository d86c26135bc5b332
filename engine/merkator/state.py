"""The Merkator game state and its rules (rules sections 3-5) as a resumable state machine.

``stage`` is either a decision kind (the engine waits for a choice) or one of the automatic
steps below, which ``_settle`` runs until the next decision with at least two options. Every
variable a pending decision depends on is a plain field and appears in the view, so a state can
be rebuilt from a view (``engine.merkator.sampling``).
"""

from __future__ import annotations

import bisect
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
    Result,
)
from engine.merkator import catalog as cat
from engine.merkator import data, events
from engine.merkator.actions import (
    DecisionKind,
    FinalPlace,
    Fulfil,
    Invest,
    InvestOption,
    TradeInput,
)
from engine.merkator.describe import describe_action
from engine.merkator.observe import build_view, view_fields
from engine.merkator.render import render
from engine.merkator.scoring import Holdings, final_result, is_type_dependent
from engine.merkator.views import MerkatorView

# decision stages: the DecisionKind values as plain ints (enum attribute access is slow here)
(
    INVEST,
    TRAVEL,
    SPLIT_CUBES,
    SPOILAGE_REFLIP,
    SPOIL_CHOOSE,
    FULFIL,
    TRADE_INPUT,
    JOIN,
    PERMIT_JOIN,
    FINAL_PLACE,
) = (int(kind) for kind in DecisionKind)
# automatic steps (never visible at a decision point)
GAIN = 20  # take the travel gain's markers one by one (4.4 e)
SPOIL = 21  # find the next player who loses cubes to spoilage
JOIN_NEXT = 22  # find the next eligible joiner
END_TURN = 23  # 4.8
PLACE_NEXT = 24  # scoring step 1: move the next player's tile cubes into the Kontor
OVER = 0

_S = data.ROW_SPACES
_KIND_NAMES = {kind.value: kind.name for kind in DecisionKind}  # DecisionKind(n).name costs more
_LAST_ROW_START = data.BOARD_SPACES - _S
_GOOD_A = tuple(a for a, _ in data.COLOUR_GOODS)
_GOOD_B = tuple(b for _, b in data.COLOUR_GOODS)
_MAJORS = data.MAJORS
# TRAVEL options by the traveller's markers (capped at the highest time cost)
_MAX_TIME_COST = -min(data.LOCATION_TIME)
_TRAVEL_OPTIONS = tuple(
    tuple(
        cat.TRAVEL[loc]
        for loc in range(data.NUM_LOCATIONS)
        if markers + data.LOCATION_TIME[loc] >= 0
    )
    for markers in range(_MAX_TIME_COST + 1)
)


class MerkatorState(GameState):
    """One Merkator game. Indices (goods, colours, locations, cards) follow ``data``."""

    copied_fields = (
        "pools",
        "map_cubes",
        "board_letters",
        "board_face_up",
        "coins",
        "markers",
        "discard",
        "bonus_deck",
        "bonus_slots",
        "building_deck",
        "building_slots",
    )
    deep_copied_fields = ("kontor", "tile", "contracts", "fulfilled", "bonus", "buildings")
    derived_fields = frozenset(("_legal",))  # the pending decision's options

    def __init__(self, num_players: int, seed: int, options: Mapping[str, Any]) -> None:
        """An empty table before setup: ``new`` sets up a real game, sampling fills the fields
        in directly."""
        self.num_players = num_players
        self.seed = seed
        self.options = dict(options)
        self.history: list[int] = []
        self.event_log: list[EventEntry] = []
        self.permission: bool = bool(options["join_needs_permission"])
        self.misprint: bool = bool(options["alsterhaus_misprint"])
        self.max_rounds: int = int(options["max_rounds"])
        self.rng = random.Random(seed)
        n = num_players
        # cubes
        self.pools = list(data.CUBES_PER_COLOUR)
        self.map_cubes = [0] * data.NUM_LOCATIONS  # minors stay at 0
        self.kontor = [[0] * data.NUM_GOODS for _ in range(n)]
        self.tile = [[0] * data.NUM_COLOURS for _ in range(n)]
        # time board: spaces in taking order; those from board_next on hold markers
        self.board_letters = [""] * data.BOARD_SPACES
        self.board_face_up = [False] * data.BOARD_SPACES
        self.board_next = data.BOARD_SPACES
        # players
        self.coins = [0] * n
        self.markers = [0] * n
        self.contracts: list[list[int]] = [[] for _ in range(n)]  # sorted by ID
        self.fulfilled: list[set[int]] = [set() for _ in range(n)]  # this turn
        self.bonus: list[list[int]] = [[] for _ in range(n)]  # sorted by ID
        self.buildings: list[list[int]] = [[] for _ in range(n)]  # sorted by ID
        # cards; the top of a pile or deck is its last element
        self.piles: dict[int, list[int]] = {v: [] for v in data.PILE_VALUES}
        self.discard: list[int] = []
        self.bonus_deck: list[int] = []
        self.bonus_slots = [-1] * data.DISPLAY_SIZE
        self.building_deck: list[int] = []
        self.building_slots = [-1] * data.DISPLAY_SIZE
        # turn and end
        self.figure = -1
        self.active = 0
        self.turn = 1
        self.end_triggered = False
        self.final_phase = False
        self.final_turns_left = 0
        # the pending step and its context
        self.stage = INVEST
        self.deciding = 0
        self.gain_left = 0
        self.spoil_letters = ""
        self.spoil_loss_left = 0
        self.trade_contract = -1
        self.trades_left = 0
        self.trade_inputs = 0
        self.joiner = -1
        self.final_place_colour = -1
        self._legal: tuple[Any, ...] = ()
        self._result: Result | None = None

    # --- setup (rules 3) ----------------------------------------------------------------------
    @classmethod
    def new(cls, num_players: int, seed: int, options: Mapping[str, Any]) -> MerkatorState:
        """Setup (rules 3), advanced to the first real decision."""
        state = cls(num_players, seed, options)
        state._set_up()
        return state

    def _set_up(self) -> None:
        n, rng = self.num_players, self.rng
        for loc in _MAJORS:
            self._cube_to_map(loc)
        for tile in self.tile:
            for colour in range(data.NUM_COLOURS):
                tile[colour] = 1
                self.pools[colour] -= 1
        letters = list(data.MARKER_LETTERS)
        rng.shuffle(letters)
        first = (data.FILLED_ROWS[n][0] - 1) * _S
        self.board_next = first
        for i in range(first, data.BOARD_SPACES):
            self.board_letters[i] = letters[i - first]
        start = data.SETUP["start_markers"]
        self.markers = [start["others"]] * n
        self.markers[0] = start["start_player"]
        self.markers[n - 1] = start["player_right_of_start"]
        for c in range(data.NUM_CONTRACTS):
            self.piles[data.CONTRACT_VALUE[c]].append(c)
        for pile in self.piles.values():
            rng.shuffle(pile)
        for seat in range(n):
            for value in data.START_CONTRACT_VALUES:
                self.contracts[seat].append(self.piles[value].pop())
            self.contracts[seat].sort()
        low = min(data.PILE_VALUES)
        self.discard, self.piles[low] = self.piles[low], []
        by_price: dict[int, list[int]] = {}
        for b in range(data.NUM_BONUS):
            by_price.setdefault(data.BONUS_COST[b], []).append(b)
        for price in sorted(by_price):
            rng.shuffle(by_price[price])
        for seat in range(n):
            for price in sorted(by_price):
                self.bonus[seat].append(by_price[price].pop())
            self.bonus[seat].sort()
        self.bonus_deck = [b for price in sorted(by_price) for b in by_price[price]]
        rng.shuffle(self.bonus_deck)
        self.bonus_slots = [self.bonus_deck.pop() for _ in range(data.DISPLAY_SIZE)]
        self.building_deck = list(range(data.NUM_BUILDINGS))
        rng.shuffle(self.building_deck)
        self.building_slots = [self.building_deck.pop() for _ in range(data.DISPLAY_SIZE)]
        self._tell_setup()
        self.stage = INVEST
        self.deciding = 0
        self._settle()

    def _tell_setup(self) -> None:
        """The public result of the setup as events (section 6: every dealt card is face up);
        the lists are copied, since the raw entries are read only when a seat asks."""
        log = self.event_log
        for seat in range(self.num_players):
            hand = (seat, self.markers[seat], list(self.contracts[seat]), list(self.bonus[seat]))
            log.append((EVERYONE, events.hand_dealt, hand, None))
        for value, pile in self.piles.items():
            log.append((EVERYONE, events.pile_top_shown, self._pile_top(value, pile), None))
        for building, slots in ((False, self.bonus_slots), (True, self.building_slots)):
            for k, card in enumerate(slots):
                log.append((EVERYONE, events.slot_refilled, (building, k, card), None))

    @staticmethod
    def _pile_top(value: int, pile: list[int]) -> tuple[int, int, int]:
        return value, len(pile), pile[-1] if pile else -1

    # --- contract ------------------------------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        return None if self.stage == OVER else self.deciding

    @property
    def decision_kind(self) -> str:
        return "" if self.stage == OVER else _KIND_NAMES[self.stage]

    @property
    def is_over(self) -> bool:
        return self.stage == OVER

    def legal_actions(self) -> Sequence[Any]:
        return self._legal

    def apply_index(self, index: int) -> None:
        if self.stage == OVER:
            raise GameOverError("merkator: the game is over; no action can be applied")
        if type(index) is not int or not 0 <= index < len(self._legal):
            raise IllegalActionError(
                f"merkator: {index!r} is not a legal {self.decision_kind} option index "
                f"(0..{len(self._legal) - 1})"
            )
        self.history.append(index)
        self._handle(self._legal[index])
        self._settle()

    def default_action_index(self) -> int:
        """The option rules 8.17 name for a seat whose answer is missing or invalid: INVEST ->
        DONE, else DISCARD_COIN, else SELL of the lowest-value contract; FULFIL -> DONE;
        JOIN -> PASS; every other kind -> the first option (KEEP, ALLOW, good A, ...)."""
        if self.stage == OVER:
            raise GameOverError("merkator: the game is over; no action can be applied")
        legal = self._legal
        if self.stage == INVEST:
            for fallback in (cat.INVEST_DONE, cat.DISCARD_COIN):
                if fallback in legal:
                    return legal.index(fallback)
            # SELL options come in ID order, so min() keeps the lowest ID among equal values
            sells = [i for i, a in enumerate(legal) if a.option == InvestOption.SELL]
            return min(sells, key=lambda i: _value_of(legal[i].contract))
        if self.stage == FULFIL:
            return legal.index(cat.FULFIL_DONE)
        if self.stage == JOIN:
            return legal.index(cat.PASS)
        return 0

    def result(self) -> Result:
        if self._result is None:
            raise EngineError("merkator: the game is not over")
        return self._result

    # --- the driver -----------------------------------------------------------------------------
    def _settle(self) -> None:
        """Run automatic steps and single-option decisions up to the next real decision."""
        while True:
            stage = self.stage
            if stage < GAIN:
                if stage == OVER:
                    self._legal = ()
                    return
                legal = self._LEGAL[stage](self)
                if len(legal) > 1:
                    self._legal = legal
                    return
                self._handle(legal[0])
            else:
                self._STEP[stage](self)

    def _handle(self, action: Any) -> None:
        self.event_log.append((EVERYONE, events.ActionTaken, (self.deciding, action), None))
        self._HANDLE[self.stage](self, action)

    # --- step 1: invest --------------------------------------------------------------------------
    def _legal_invest(self) -> tuple[Any, ...]:
        p = self.active
        hand = self.contracts[p]
        coins = self.coins[p]
        options: list[Any] = []
        if len(hand) >= 2:
            options = [cat.SELL[c] for c in hand]
        for k, b in enumerate(self.bonus_slots):
            if b >= 0 and data.BONUS_COST[b] <= coins:
                options.append(cat.BUY_BONUS[k])
        for k, b in enumerate(self.building_slots):
            if b >= 0 and data.BUILDING_COST[b] <= coins:
                options.append(cat.BUY_BUILDING[k])
        if coins > data.COIN_CAP:
            options.append(cat.DISCARD_COIN)
        elif len(hand) <= data.CONTRACT_LIMIT or self.final_phase:
            options.append(cat.INVEST_DONE)
        return tuple(options)

    def _on_invest(self, action: Invest) -> None:
        p = self.active
        option = action.option
        if option == InvestOption.DONE:
            self.stage = TRAVEL
        elif option == InvestOption.SELL:
            c = data.CONTRACT_INDEX[action.contract]
            self.contracts[p].remove(c)
            self.discard.append(c)
            self.coins[p] += data.CONTRACT_VALUE[c]
        elif option == InvestOption.BUY_BONUS:
            k = action.slot - 1
            b = self.bonus_slots[k]
            self.coins[p] -= data.BONUS_COST[b]
            bisect.insort(self.bonus[p], b)
            self.bonus_slots[k] = self.bonus_deck.pop() if self.bonus_deck else -1
            self.event_log.append(
                (EVERYONE, events.slot_refilled, (False, k, self.bonus_slots[k]), None)
            )
        elif option == InvestOption.BUY_BUILDING:
            k = action.slot - 1
            b = self.building_slots[k]
            self.coins[p] -= data.BUILDING_COST[b]
            bisect.insort(self.buildings[p], b)
            self.building_slots[k] = self.building_deck.pop() if self.building_deck else -1
            self.event_log.append(
                (EVERYONE, events.slot_refilled, (True, k, self.building_slots[k]), None)
            )
        else:
            self.coins[p] -= 1

    # --- step 2: travel ---------------------------------------------------------------------------
    def _legal_travel(self) -> tuple[Any, ...]:
        return _TRAVEL_OPTIONS[min(self.markers[self.active], _MAX_TIME_COST)]

    def _on_travel(self, action: Any) -> None:
        loc = action.location - 1
        self.figure = loc
        if self.map_cubes[loc] > 0:
            self.stage = SPLIT_CUBES
        else:
            self._after_map_cubes()

    def _legal_split(self) -> tuple[Any, ...]:
        k = self.map_cubes[self.figure]
        return (cat.SPLIT[0], cat.SPLIT[1]) if k == 1 else cat.SPLIT[1:k]

    def _on_split(self, action: Any) -> None:
        loc = self.figure
        k = self.map_cubes[loc]
        colour = data.LOCATION_COLOUR[loc]
        kontor = self.kontor[self.active]
        kontor[_GOOD_A[colour]] += action.good_a
        kontor[_GOOD_B[colour]] += k - action.good_a
        self.map_cubes[loc] = 0
        self._after_map_cubes()

    def _after_map_cubes(self) -> None:
        """Travel sub-steps (c) bonus goods, (d) restock and (e) time (rules 4.4, R12)."""
        p, loc = self.active, self.figure
        for b in self.bonus[p]:
            if data.BONUS_LOCATION[b] == loc:
                self._bonus_goods(p, b, data.BONUS_TRAVEL[b])
        if data.IS_MAJOR[loc]:
            for neighbour in data.NEIGHBOURS[loc]:
                self._cube_to_map(neighbour)
        else:
            threshold = data.RESTOCK_THRESHOLD[loc]
            for major in [m for m in _MAJORS if self.map_cubes[m] >= threshold]:
                self._cube_to_map(major)
        time = data.LOCATION_TIME[loc]
        if time < 0:
            self.markers[p] += time
        self.gain_left = max(time, 0)
        self.stage = GAIN

    def _bonus_goods(self, seat: int, card: int, count: int) -> None:
        good = data.BONUS_GOOD[card]
        colour = data.GOOD_COLOUR[good]
        taken = min(count, self.pools[colour])
        self.pools[colour] -= taken
        self.kontor[seat][good] += taken

    def _cube_to_map(self, major: int) -> None:
        colour = data.LOCATION_COLOUR[major]
        if self.pools[colour]:
            self.pools[colour] -= 1
            self.map_cubes[major] += 1

    # --- time gain and spoilage -------------------------------------------------------------------
    def _step_gain(self) -> None:
        if self.gain_left == 0:
            self.stage = FULFIL
            self.deciding = self.active
            return
        self.gain_left -= 1
        self.markers[self.active] += 1
        i = self.board_next
        if self.final_phase or i == data.BOARD_SPACES:
            return  # from the general supply
        self.board_next = i + 1
        letters = self.board_letters[i]
        self.board_letters[i] = ""
        self.board_face_up[i] = False
        if (i + 1) % _S:
            return
        if i + 1 == data.BOARD_SPACES:
            self._trigger_end()
        self.event_log.append((EVERYONE, events.marker_revealed, (i, letters), None))
        if len(letters) == 1 and i < _LAST_ROW_START:
            self.spoil_letters = letters
            self.stage = SPOILAGE_REFLIP
            self.deciding = self.active
        else:
            self._begin_spoilage(letters)

    def _on_reflip(self, action: Any) -> None:
        letters = self.spoil_letters
        if action.reflip:
            self.board_face_up[self.board_next] = True
            letters = self.board_letters[self.board_next]
            self.event_log.append(
                (EVERYONE, events.marker_revealed, (self.board_next, letters), None)
            )
        self._begin_spoilage(letters)

    def _begin_spoilage(self, letters: str) -> None:
        self.spoil_letters = letters
        self.spoil_loss_left = len(letters)
        self.deciding = self.active
        self.stage = SPOIL

    def _step_spoil(self) -> None:
        column = data.COLUMN_GOODS[self.spoil_letters[0]]
        q = self.deciding
        kontor = self.kontor[q]
        if self.spoil_loss_left and any(kontor[g] for g in column):
            self.stage = SPOIL_CHOOSE
            return
        q = (q + 1) % self.num_players
        if q == self.active:
            self.spoil_letters = ""
            self.spoil_loss_left = 0
            self.stage = GAIN
        else:
            self.spoil_loss_left = len(self.spoil_letters)
        self.deciding = q

    def _legal_spoil(self) -> tuple[Any, ...]:
        letter = self.spoil_letters[0]
        kontor = self.kontor[self.deciding]
        tile = self.tile[self.deciding]
        return tuple(cat.SPOIL_GOOD[g] for g in data.COLUMN_GOODS[letter] if kontor[g]) + tuple(
            cat.SPOIL_TILE[c] for c in data.COLUMN_COLOURS[letter] if tile[c]
        )

    def _on_spoil(self, action: Any) -> None:
        q = self.deciding
        if action.good is not None:
            good = action.good - 1
            self.kontor[q][good] -= 1
            self.pools[data.GOOD_COLOUR[good]] += 1
        else:
            colour = action.tile - 1
            self.tile[q][colour] = 0
            self.pools[colour] += 1
        self.spoil_loss_left -= 1
        self.stage = SPOIL

    # --- step 3: fulfil ---------------------------------------------------------------------------
    def _legal_fulfil(self) -> tuple[Any, ...]:
        q, loc = self.deciding, self.figure
        done = self.fulfilled[q]
        options = [
            cat.FULFIL[c]
            for c in self.contracts[q]
            if data.CONTRACT_LOCATION[c] == loc and c not in done and self._payable(q, c)
        ]
        options.append(cat.FULFIL_DONE)
        return tuple(options)

    def _payable(self, q: int, c: int) -> bool:
        """The payment test of rules 4.5."""
        kontor, tile = self.kontor[q], self.tile[q]
        used = 0
        missing = 0
        tiles_left = list(tile)
        for good, need in data.CONTRACT_GOODS[c]:
            have = kontor[good]
            if have >= need:
                used += need
                continue
            used += have
            short = need - have
            colour = data.GOOD_COLOUR[good]
            if tiles_left[colour]:
                tiles_left[colour] = 0
                used += 1
                short -= 1
            missing += short
        if not missing:
            return True
        free = sum(kontor) + sum(tile) - used
        return self.markers[q] // data.TRADE_MARKERS + free // data.TRADE_CUBES >= missing

    def _on_fulfil(self, action: Fulfil) -> None:
        if action.done:
            self.stage = JOIN_NEXT
            return
        q = self.deciding
        c = data.CONTRACT_INDEX[action.contract]
        kontor, tile, pools = self.kontor[q], self.tile[q], self.pools
        missing = 0
        for good, need in data.CONTRACT_GOODS[c]:
            colour = data.GOOD_COLOUR[good]
            paid = min(need, kontor[good])
            kontor[good] -= paid
            pools[colour] += paid
            short = need - paid
            if short and tile[colour]:
                tile[colour] = 0
                pools[colour] += 1
                short -= 1
            missing += short
        self.trade_contract = c
        self.trades_left = missing
        self.trade_inputs = 0
        if missing:
            self.stage = TRADE_INPUT
        else:
            self._contract_fulfilled()

    def _legal_trade(self) -> tuple[Any, ...]:
        q = self.deciding
        kontor, tile = self.kontor[q], self.tile[q]
        first = self.trade_inputs == 0
        options: list[Any] = []
        if first and self.markers[q] >= data.TRADE_MARKERS:
            options.append(cat.TRADE_MARKERS)
        if not first or sum(kontor) + sum(tile) >= data.TRADE_CUBES:
            options.extend(cat.TRADE_GOOD[g] for g in range(data.NUM_GOODS) if kontor[g])
            options.extend(cat.TRADE_TILE[c] for c in range(data.NUM_COLOURS) if tile[c])
        return tuple(options)

    def _on_trade(self, action: TradeInput) -> None:
        q = self.deciding
        if action.markers:
            self.markers[q] -= data.TRADE_MARKERS
        else:
            if action.good is not None:
                good = action.good - 1
                self.kontor[q][good] -= 1
                self.pools[data.GOOD_COLOUR[good]] += 1
            else:
                assert action.tile is not None  # a TradeInput holds markers, a good or a tile
                colour = action.tile - 1
                self.tile[q][colour] = 0
                self.pools[colour] += 1
            self.trade_inputs += 1
            if self.trade_inputs < data.TRADE_CUBES:
                return
        self.trade_inputs = 0
        self.trades_left -= 1
        if not self.trades_left:
            self._contract_fulfilled()

    def _contract_fulfilled(self) -> None:
        q, c = self.deciding, self.trade_contract
        self.fulfilled[q].add(c)
        self.trade_contract = -1
        self._draw_reward(q, data.CONTRACT_VALUE[c])
        self.stage = FULFIL

    def _draw_reward(self, q: int, value: int) -> None:
        """Reward draw with its fallbacks (rules 4.5, R23)."""
        for w in (data.REWARD_TARGET[value], value):
            pile = self.piles[w]
            if not pile:
                found = [c for c in self.discard if data.CONTRACT_VALUE[c] == w]
                if found:
                    self.discard = [c for c in self.discard if data.CONTRACT_VALUE[c] != w]
                    self.rng.shuffle(found)
                    self.piles[w] = pile = found
                    self.event_log.append((EVERYONE, events.PileRebuilt, (w, len(found)), None))
            if pile:
                card = pile.pop()
                bisect.insort(self.contracts[q], card)
                self.event_log.append((EVERYONE, events.contract_drawn, (q, card), None))
                self.event_log.append(
                    (EVERYONE, events.pile_top_shown, self._pile_top(w, pile), None)
                )
                if card == data.PEACE:
                    self._trigger_end()
                return

    # --- step 4: join -----------------------------------------------------------------------------
    def _step_join_next(self) -> None:
        q, n, loc = self.deciding, self.num_players, self.figure
        cost = data.JOIN_COST[loc]
        while True:
            q = (q + 1) % n
            if q == self.active:
                self.stage = END_TURN
                return
            if self.markers[q] >= cost and (
                any(data.CONTRACT_LOCATION[c] == loc for c in self.contracts[q])
                or any(data.BONUS_LOCATION[b] == loc for b in self.bonus[q])
            ):
                self.deciding = q
                self.stage = JOIN
                return

    def _legal_join(self) -> tuple[Any, ...]:
        return (cat.JOIN, cat.PASS)

    def _on_join(self, action: Any) -> None:
        if not action.join:
            self.stage = JOIN_NEXT
        elif self.permission:
            self.joiner = self.deciding
            self.deciding = self.active
            self.stage = PERMIT_JOIN
        else:
            self._join(self.deciding)

    def _legal_permit(self) -> tuple[Any, ...]:
        return (cat.ALLOW, cat.REFUSE)

    def _on_permit(self, action: Any) -> None:
        joiner, self.joiner = self.joiner, -1
        if action.allow:
            self._join(joiner)
        else:
            self.deciding = joiner
            self.stage = JOIN_NEXT

    def _join(self, q: int) -> None:
        loc = self.figure
        cost = data.JOIN_COST[loc]
        self.markers[q] -= cost
        self.markers[self.active] += cost
        for b in self.bonus[q]:
            if data.BONUS_LOCATION[b] == loc:
                self._bonus_goods(q, b, data.BONUS_JOIN[b])
        self.deciding = q
        self.stage = FULFIL

    # --- end of turn and game end (4.8, 5.1) ------------------------------------------------------
    def _trigger_end(self) -> None:
        self.end_triggered = True

    def _step_end_turn(self) -> None:
        for marks in self.fulfilled:
            marks.clear()
        n = self.num_players
        if self.final_phase:
            self.final_turns_left -= 1
            if not self.final_turns_left:
                self.deciding = 0
                self.stage = PLACE_NEXT
                return
        elif self.end_triggered or self.turn == self.max_rounds * n:
            self.end_triggered = True
            self.final_phase = True
            self.final_turns_left = n
        self.active = (self.active + 1) % n
        self.turn += 1
        self.deciding = self.active
        self.stage = INVEST

    # --- scoring (5.2) ----------------------------------------------------------------------------
    def _step_place_next(self) -> None:
        q = self.deciding
        tile, kontor = self.tile[q], self.kontor[q]
        # 5.2 step 1: an owner of a type-dependent building is asked for every tile cube, in
        # colour order (table 4.9, "once per tile cube"); anyone else's cubes become good A.
        asks = any(is_type_dependent(b, self.misprint) for b in self.buildings[q])
        for colour in range(data.NUM_COLOURS):
            if not tile[colour]:
                continue
            if asks:
                self.final_place_colour = colour
                self.stage = FINAL_PLACE
                return
            tile[colour] = 0
            kontor[_GOOD_A[colour]] += 1
        if q + 1 < self.num_players:
            self.deciding = q + 1
        else:
            self._finish()

    def _legal_final_place(self) -> tuple[Any, ...]:
        return cat.FINAL_PLACE_OPTIONS[self.final_place_colour]

    def _on_final_place(self, action: FinalPlace) -> None:
        q = self.deciding
        self.tile[q][self.final_place_colour] = 0
        self.kontor[q][action.good - 1] += 1
        self.final_place_colour = -1
        self.stage = PLACE_NEXT

    def _finish(self) -> None:
        self.stage = OVER
        self._result = final_result(self.holdings(), self.misprint)

    def holdings(self) -> list[Holdings]:
        return [
            Holdings(
                kontor=tuple(self.kontor[q]),
                contracts=tuple(self.contracts[q]),
                bonus_cards=tuple(self.bonus[q]),
                buildings=tuple(self.buildings[q]),
                markers=self.markers[q],
                coins=self.coins[q],
            )
            for q in range(self.num_players)
        ]

    _LEGAL = {
        INVEST: _legal_invest,
        TRAVEL: _legal_travel,
        SPLIT_CUBES: _legal_split,
        SPOILAGE_REFLIP: lambda self: (cat.KEEP, cat.REFLIP),
        SPOIL_CHOOSE: _legal_spoil,
        FULFIL: _legal_fulfil,
        TRADE_INPUT: _legal_trade,
        JOIN: _legal_join,
        PERMIT_JOIN: _legal_permit,
        FINAL_PLACE: _legal_final_place,
    }
    _HANDLE = {
        INVEST: _on_invest,
        TRAVEL: _on_travel,
        SPLIT_CUBES: _on_split,
        SPOILAGE_REFLIP: _on_reflip,
        SPOIL_CHOOSE: _on_spoil,
        FULFIL: _on_fulfil,
        TRADE_INPUT: _on_trade,
        JOIN: _on_join,
        PERMIT_JOIN: _on_permit,
        FINAL_PLACE: _on_final_place,
    }
    _STEP = {
        GAIN: _step_gain,
        SPOIL: _step_spoil,
        JOIN_NEXT: _step_join_next,
        END_TURN: _step_end_turn,
        PLACE_NEXT: _step_place_next,
    }

    # --- copies, digest, views, rendering ---------------------------------------------------------
    def clone(self) -> MerkatorState:
        other = super().clone()
        other.piles = {value: pile.copy() for value, pile in self.piles.items()}
        return other

    def digest_fields(self) -> dict[str, Any]:
        fields = super().digest_fields()
        fields["fulfilled"] = [
            sorted(marks) for marks in self.fulfilled
        ]  # sets: order not canonical
        return fields

    def view(self, seat: int) -> MerkatorView:
        return build_view(self, seat)

    def view_fields(self, seat: int) -> tuple[Any, ...]:
        return view_fields(self, seat)

    def render(self, seat: int | None = None) -> str:
        return render(self, seat)

    def describe_action(self, action: Any) -> str:
        return describe_action(action)


def _value_of(contract_id: str) -> int:
    return data.CONTRACT_VALUE[data.CONTRACT_INDEX[contract_id]]
