"""The PLAY option list (rules 4.3) as a few segments of spaces instead of hundreds of objects.

Each segment is one (cards, joker, building) combination with the bit mask of its target spaces;
the options are the segments in the rules' order, each expanded over its spaces in row-major
order. Counting is a ``bit_count()`` per segment, and an option is decoded only when asked for,
so random play never builds the up-to-312 action objects of a turn.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from engine.oregon import data
from engine.oregon.actions import Play
from engine.oregon.enums import BUILDING_TYPES, CARDS, Piece
from engine.parts import PartCache

_S = data.NUM_SYMBOLS


class Segment(NamedTuple):
    mask: int  # target spaces
    size: int  # mask.bit_count(): how many plays the segment holds
    cards: tuple[int, ...]  # card indices spent, canonical order
    joker: bool
    building: int  # building type index, -1 for a farmer


def play_segments(
    hand: Sequence[int], joker: bool, has_farmer: bool, stacks: Sequence[int], free: int
) -> list[Segment]:
    """The non-empty segments of a seat's PLAY options, already in the rules' order (farmers,
    then buildings; by cards with prefixes first; joker false before true; space row-major).

    ``hand`` holds counts per card index; ``free`` is the mask of empty spaces."""
    segments: list[Segment] = []
    add = segments.append
    lands = [x for x in range(_S) if hand[x]]
    if has_farmer:
        for i, x in enumerate(lands):
            if joker:  # FJ (x) sorts before every F2 (x, y)
                mask = data.FARMER_JOKER_TARGETS[x] & free
                if mask:
                    add(Segment(mask, mask.bit_count(), (x,), True, -1))
            for y in lands[i:]:
                if y != x or hand[x] >= 2:
                    mask = data.FARMER_PAIR_TARGETS[x][y] & free
                    if mask:
                        add(Segment(mask, mask.bit_count(), (x, y), False, -1))
    live = [b for b in range(data.NUM_BUILDINGS) if hand[_S + b] and stacks[b]]
    for x in lands:
        targets = data.BUILDING_PAIR_TARGETS[x]
        for b in live:
            mask = targets[b] & free
            if mask:
                add(Segment(mask, mask.bit_count(), (x, _S + b), False, b))
    if joker:  # BJ (b) sorts after every B2 (x, b): building cards follow landscapes
        for b in live:
            mask = data.BUILDING_LEGAL[b] & free
            if mask:
                add(Segment(mask, mask.bit_count(), (_S + b,), True, b))
    return segments


def locate(segments: Sequence[Segment], index: int) -> tuple[Segment, int]:
    """The segment and space of option ``index`` (0 <= index < total)."""
    for seg in segments:
        if index < seg.size:
            return seg, data.nth_space(seg.mask, index)
        index -= seg.size
    raise IndexError(index)


# Every Play built so far, by (cards, joker, building, space). Building a frozen dataclass costs
# microseconds and a turn can list hundreds of plays, which the referee encodes and bots' searches
# walk at every decision; the key space is bounded by the rules' data (card combinations times
# board spaces: a few thousand plays in all), so the cache cannot grow without bound.
_PLAYS: dict[tuple[tuple[int, ...], bool, int, int], Play] = {}


def to_action(seg: Segment, sp: int) -> Play:
    key = (seg.cards, seg.joker, seg.building, sp)
    play = _PLAYS.get(key)
    if play is None:
        r, c = data.row_col(sp)
        play = _PLAYS[key] = Play(
            piece=Piece.FARMER if seg.building < 0 else Piece.BUILDING,
            building=None if seg.building < 0 else BUILDING_TYPES[seg.building],
            cards=tuple(CARDS[i] for i in seg.cards),
            joker=seg.joker,
            row=r,
            col=c,
        )
    return play


class _FamilyPlays(dict[int, Play]):
    """The plays of one (cards, joker, building) by space, each ``to_action``'s object."""

    __slots__ = ("_segment",)

    def __init__(self, segment: Segment) -> None:
        super().__init__()
        self._segment = segment

    def __missing__(self, sp: int) -> Play:
        play = self[sp] = to_action(self._segment, sp)
        return play


# Bounded by the rules' data like _PLAYS: a family per card combination, joker and building.
_families: dict[tuple[tuple[int, ...], bool, int], _FamilyPlays] = {}


# A segment's plays in order, by the segment (its mask, cards, joker and building): a segment
# whose mask changed picks its plays by a C-level map over its family's.
def _plays_of(seg: Segment) -> tuple[Play, ...]:
    family = (seg.cards, seg.joker, seg.building)
    plays = _families.get(family)
    if plays is None:
        plays = _families[family] = _FamilyPlays(seg)
    return tuple(map(plays.__getitem__, data.spaces_of(seg.mask)))


_segment_plays: PartCache[Segment, tuple[Play, ...]] = PartCache(_plays_of)


class PlayActions(Sequence[Play]):
    """The legal PLAY actions as a lazy, read-only sequence (equal to the tuple of its items)."""

    __slots__ = ("_segments", "_total")

    def __init__(self, segments: list[Segment], total: int) -> None:
        self._segments = segments
        self._total = total

    def __len__(self) -> int:
        return self._total

    @property
    def parts(self) -> tuple[tuple[Play, ...], ...]:
        """The plays as consecutive tuples, one per segment: the same tuple objects again for
        an unchanged segment, so a cache of encoded actions (the referee's) finds whole runs."""
        return tuple(map(_segment_plays, self._segments))

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self)[index]
        if index < 0:
            index += self._total
        if not 0 <= index < self._total:
            raise IndexError(index)
        return to_action(*locate(self._segments, index))

    def __iter__(self) -> Iterator[Play]:
        for seg in self._segments:
            yield from _segment_plays(seg)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))
