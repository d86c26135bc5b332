"""PLACEMENTS(p, x) of ogallala.md 4.3: every legal way to put a card of kind x into a display,
as actions in the spec's order (cells by row then column, then shifts by anchor, left first)."""

from __future__ import annotations

from engine.ogallala.actions import CELLS, PlaceCell, PlaceShift, Side
from engine.ogallala.data import MAX_COLS, MAX_ROWS, SET_MASK, SET_OF
from engine.ogallala.display import EMPTY, Display

_ORIGIN: list[PlaceCell | PlaceShift] = [CELLS[1][1]]  # the only cell of an empty display


def placements(display: Display, kind: int) -> list[PlaceCell | PlaceShift]:
    height = display.height
    if height == 0:
        return _ORIGIN[:]
    width = display.width
    occ = display.occ
    kinds = display.kinds
    bit = 1 << kind
    # Column masks are offset by one (bit c + 1 stands for column c) so that column -1 is bit 0.
    if width < MAX_COLS:
        allowed = (1 << (width + 2)) - 1  # columns -1..w
    else:
        allowed = ((1 << (width + 1)) - 1) & ~1  # columns 0..w-1
    padded = [0, *occ, 0, 0]  # padded[r + 1] is row r's occupancy for r in -1..MAX_ROWS
    options: list[PlaceCell | PlaceShift] = []
    first_row, last_row = (-1, height) if height < MAX_ROWS else (0, height - 1)
    for r in range(first_row, last_row + 1):
        if 0 <= r < height and kinds[r] & bit:
            continue  # R2: the row already holds this kind
        here = padded[r + 1]
        near = (padded[r] | here | padded[r + 2]) << 1
        free = (near | (near << 1) | (near >> 1)) & ~(here << 1) & allowed
        cells = CELLS[r + 1]
        while free:
            low = free & -free
            options.append(cells[low.bit_length() - 1])
            free ^= low
    if SET_OF[kind] >= 0:
        options.extend(_shifts(display, kind))
    return options


def _shifts(display: Display, kind: int) -> list[PlaceShift]:
    partners = SET_MASK[SET_OF[kind]] & ~(1 << kind)
    width = display.width
    shifts = []
    for r in range(display.height):
        row_kinds = display.kinds[r]
        if not row_kinds & partners or row_kinds & (1 << kind):
            continue
        cells = display.rows[r]
        for c in range(1, width - 1):
            anchor = cells[c]
            if anchor == EMPTY or not (partners >> anchor) & 1:
                continue
            if cells[c - 1] == EMPTY or cells[c + 1] == EMPTY:
                continue
            # A side widens the display when that side of the row reaches the frame's edge.
            if cells[0] == EMPTY or width < MAX_COLS:
                shifts.append(PlaceShift(r, c, Side.LEFT))
            if cells[width - 1] == EMPTY or width < MAX_COLS:
                shifts.append(PlaceShift(r, c, Side.RIGHT))
    return shifts
