"""Oregon's scoring (rules section 5): what a placement scores, for the placing seat (5.1) and for
every seat around a new building (5.2), the group bonus (5.3), and the final result with coal and
gold (5.6) and the tie-break (R23). The placement functions update the state's scores, tokens and
coal/gold tiles; the state calls them from its turn flow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import Result, ranks_from_keys
from engine.oregon import data
from engine.oregon.events import TileTaken

if TYPE_CHECKING:
    from engine.oregon.state import OregonState


def score_farmer(state: OregonState, sp: int, seat: int) -> None:
    """5.1: the seat scores every building around its new farmer on ``sp``, then 5.3."""
    around = data.NEIGHBOUR_MASK[sp]
    gained = 0
    for b, effect in enumerate(data.EFFECTS):
        near = around & state.building_mask[b]
        if not near:
            continue
        count = near.bit_count()
        if effect.church:
            farmers = state.all_farmers()
            for church in data.spaces_of(near):
                gained += (data.NEIGHBOUR_MASK[church] & farmers).bit_count()
        else:
            gained += effect.points_per_farmer * count
        _gain_effect(state, seat, effect, count)
    state.score[seat] += gained + group_bonus(state.join_groups(sp, seat))


def score_building(state: OregonState, sp: int, b: int, active: int) -> None:
    """5.2: every seat with own farmers around the new building scores, active seat first."""
    around = data.NEIGHBOUR_MASK[sp]
    effect = data.EFFECTS[b]
    everyone = (around & state.all_farmers()).bit_count() if effect.church else 0
    for i in range(state.num_players):
        seat = (active + i) % state.num_players
        k = (around & state.farmer_mask[seat]).bit_count()
        if k:
            state.score[seat] += k * (everyone if effect.church else effect.points_per_farmer)
            _gain_effect(state, seat, effect, k)


def _gain_effect(state: OregonState, seat: int, effect: data.BuildingEffect, count: int) -> None:
    """Token activation (R11) and coal/gold tiles while the stack lasts (R16)."""
    if effect.activates_joker:
        state.joker[seat] = True
    if effect.activates_extra_turn:
        state.extra[seat] = True
    if effect.coal or effect.gold:
        stack = state.coal_stack if effect.coal else state.gold_stack
        owned = state.coal[seat] if effect.coal else state.gold[seat]
        for _ in range(min(count, len(stack))):
            value = stack.pop()
            owned.append(value)
            state.event_log.append(
                (seat, TileTaken, (seat, effect.gold, value), (seat, effect.gold, None))
            )


def group_bonus(parts: list[int]) -> int:
    """5.3, from the sizes of the groups a new farmer joined. A group has scored exactly when its
    size is at least GROUP_MIN_SIZE: it can only reach that size by a placement, which either
    scores it or merges in a part that had scored. So the flag is the size test and needs no
    storage: the bonus is paid when the joined group is big enough and no part had scored."""
    if 1 + sum(parts) >= data.GROUP_MIN_SIZE and all(p < data.GROUP_MIN_SIZE for p in parts):
        return data.GROUP_POINTS
    return 0


def final_total(state: OregonState, seat: int) -> int:
    """Track points plus the values of the seat's coal and gold tiles (5.6)."""
    return state.score[seat] + sum(state.coal[seat]) + sum(state.gold[seat])


def final_result(state: OregonState) -> Result:
    """Final totals; ties are broken by the farmers on the board (R23)."""
    seats = range(state.num_players)
    totals = [final_total(state, seat) for seat in seats]
    on_board = [state.farmer_mask[seat].bit_count() for seat in seats]
    return Result(
        scores=tuple(float(t) for t in totals),
        ranks=ranks_from_keys([(t, f) for t, f in zip(totals, on_board)]),
        details=tuple(
            f"{state.score[s]} points + {sum(state.coal[s])} coal + {sum(state.gold[s])} gold"
            f", {on_board[s]} farmer{'' if on_board[s] == 1 else 's'} on the board"
            for s in seats
        ),
    )
