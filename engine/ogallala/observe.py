"""Build a seat's view of a state (ogallala.md section 6): every display, the stacks' sizes and
known contents, the never-shown cards as a multiset, and the pending decision's context."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from itertools import chain, compress, count
from operator import not_
from typing import TYPE_CHECKING, NamedTuple

from engine.ogallala.data import FIGHT, IS_BOW, IS_STERN, IS_TOTEM, KIND_NAMES, NO_CARD
from engine.ogallala.display import EMPTY, Display, row_segments
from engine.ogallala.scoring import boat_points
from engine.ogallala.views import (
    CardView,
    Cell,
    DisplayView,
    KindCount,
    OgallalaView,
    SegmentView,
    StackView,
)
from engine.parts import PartCache, field_values, interned

if TYPE_CHECKING:
    from engine.ogallala.state import OgallalaState


_view_fields = field_values(OgallalaView)


def build_view(state: OgallalaState, seat: int) -> OgallalaView:
    return OgallalaView(*view_fields(state, seat))


def view_fields(state: OgallalaState, seat: int) -> tuple:
    """``build_view``'s fields in order (``engine.core.GameState.view_fields``)."""
    active = state.displays[state.active]
    attack_card = None
    if state.attack_row >= 0:
        attack_card = Cell(state.attack_row, active.rows[state.attack_row].index(state.attack_kind))
    stacks, unseen = _stacks_and_unseen((tuple(map(tuple, state.stacks)), tuple(state.refilled)))
    return _view_fields(
        seat=seat,
        num_players=state.num_players,
        turn=state.turn,
        stall_turns=state.stall,
        active_seat=state.active,
        decision=state.decision,
        card="" if state.card == NO_CARD else KIND_NAMES[state.card],
        duplicate=state.duplicate,
        draws=state.draws,
        completed=state.completed,
        display_changed=state.changed,
        attack_card=attack_card,
        captured=tuple([KIND_NAMES[kind] for kind in state.captured]),
        displays=tuple(map(display_view, count(), state.displays)),
        stacks=stacks,
        unseen=unseen,
        discard=_discard(tuple(state.discard)),
        end_reason=state.end_reason,
    )


def _build_stacks_and_unseen(
    piles: tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]],
) -> tuple[tuple[StackView, ...], tuple[KindCount, ...]]:
    """The stacks' views and the never-shown cards, from each stack's cards and refilled flag."""
    stacks, refilled = piles
    views = tuple(
        StackView(
            index=index,
            size=len(stack),
            refilled=again,
            contents=kind_counts(stack) if again else (),
        )
        for index, (stack, again) in enumerate(zip(stacks, refilled))
    )
    originals = chain.from_iterable(compress(stacks, map(not_, refilled)))
    return views, kind_counts(originals)


# Parts by the state content they show (engine.parts).
_stacks_and_unseen = PartCache(_build_stacks_and_unseen)
_discard: PartCache[tuple[int, ...], tuple[str, ...]] = PartCache(
    lambda kinds: tuple(KIND_NAMES[kind] for kind in kinds)
)


def kind_counts(kinds: Iterable[int]) -> tuple[KindCount, ...]:
    """A multiset of kinds, in data order (counted and looked up by C-level maps: the stacks'
    contents change at every draw)."""
    counts = Counter(kinds)
    present = sorted(counts)
    return tuple(
        map(
            _kind_count, zip(map(KIND_NAMES.__getitem__, present), map(counts.__getitem__, present))
        )
    )


# Display views by content. A view shows every seat's display and a turn changes at most two of
# them, so most are rebuilt unchanged at every decision the referee encodes or a search samples;
# cleared when it grows past the limit, so memory stays bounded.
_DISPLAY_VIEW_LIMIT = 50_000
_display_views: dict[tuple, DisplayView] = {}


def display_view(seat: int, display: Display) -> DisplayView:
    rows = tuple(map(tuple, display.rows[: display.height]))
    key = (seat, display.width, rows)
    view = _display_views.get(key)
    if view is None:
        if len(_display_views) >= _DISPLAY_VIEW_LIMIT:
            _display_views.clear()
        view = _display_views[key] = _build_display_view(seat, display.width, rows)
    return view


class _Row(NamedTuple):
    """One row's share of a display view: a changed display is rebuilt from its rows' parts, of
    which a turn changes one (engine.parts)."""

    cards: tuple[CardView, ...]
    segments: tuple[SegmentView, ...]
    complete_boats: int
    score: int


def _build_row(key: tuple[int, int, tuple[int, ...]]) -> _Row:
    row, width, kinds = key
    segments = []
    boats = score = 0
    for segment in row_segments(row, kinds, width):
        _, first, last = segment
        segment_kinds = list(kinds[first : last + 1])
        complete = IS_BOW[kinds[first]] and IS_STERN[kinds[last]]
        points = boat_points(segment_kinds) if complete else 0
        boats += complete
        score += points
        segments.append(
            _segment_view(
                (
                    row,
                    first,
                    last - first + 1,
                    complete,
                    sum([FIGHT[k] for k in segment_kinds]),
                    any([IS_TOTEM[k] for k in segment_kinds]),
                    points,
                )
            )
        )
    return _Row(
        tuple(
            [
                _card_view((row, col, KIND_NAMES[kind]))
                for col, kind in enumerate(kinds[:width])
                if kind != EMPTY
            ]
        ),
        tuple(segments),
        boats,
        score,
    )


_row = PartCache(_build_row)
_card_view = interned(CardView)
_segment_view = interned(SegmentView)  # in field order: row, col, length, complete, fight, ...
_kind_count = interned(KindCount)


def _build_display_view(seat: int, width: int, rows: tuple[tuple[int, ...], ...]) -> DisplayView:
    parts = [_row((r, width, kinds)) for r, kinds in enumerate(rows)]
    return DisplayView(
        seat=seat,
        height=len(rows),
        width=width,
        cards=tuple([card for part in parts for card in part.cards]),
        segments=tuple([segment for part in parts for segment in part.segments]),
        complete_boats=sum([part.complete_boats for part in parts]),
        score=sum([part.score for part in parts]),
    )
