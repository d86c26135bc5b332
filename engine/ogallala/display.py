"""One seat's display: the floating 3 x 14 frame of ogallala.md 4.1, kept in normal form.

Rows are fixed-length lists of kind indices (``EMPTY`` for a free cell) plus two bit masks per
row, kept in step with the lists: ``occ[r]`` has bit c set when cell (r, c) holds a card, and
``kinds[r]`` has bit k set when row r holds a card of kind k (a row never holds a kind twice, R2).
The masks make the hot questions (which cells touch a card, does a row hold kind x) a few integer
operations. Every mutation leaves the display in normal form (smallest used row and column 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ogallala.data import BOW_MASK, IS_BOW, IS_STERN, MAX_COLS, MAX_ROWS, STERN_MASK

EMPTY = -1

Segment = tuple[int, int, int]  # (row, first column, last column), both columns inclusive


class Display:
    __slots__ = ("rows", "occ", "kinds", "height", "width")

    def __init__(self) -> None:
        self.rows: list[list[int]] = [[EMPTY] * MAX_COLS for _ in range(MAX_ROWS)]
        self.occ: list[int] = [0] * MAX_ROWS
        self.kinds: list[int] = [0] * MAX_ROWS
        self.height = 0
        self.width = 0

    @classmethod
    def from_cards(cls, cards: list[tuple[int, int, int]]) -> Display:
        """A display holding ``(row, col, kind)`` cards, given in normal form."""
        display = cls()
        for row, col, kind in cards:
            display._put(row, col, kind)
        return display

    def copy(self) -> Display:
        other = Display.__new__(Display)
        other.rows = [row[:] for row in self.rows]
        other.occ = self.occ[:]
        other.kinds = self.kinds[:]
        other.height = self.height
        other.width = self.width
        return other

    # --- questions ------------------------------------------------------------------------------
    def holds_kind(self, kind: int) -> bool:
        bit = 1 << kind
        return any(mask & bit for mask in self.kinds)

    def cards(self) -> list[tuple[int, int, int]]:
        """Every card as ``(row, col, kind)``, by row, then column."""
        return [
            (r, c, kind)
            for r in range(self.height)
            for c, kind in enumerate(self.rows[r][: self.width])
            if kind != EMPTY
        ]

    def card_count(self) -> int:
        return sum(occ.bit_count() for occ in self.occ)

    def segment_at(self, row: int, col: int) -> Segment:
        """The segment (4.2) holding the card on (row, col)."""
        cells = self.rows[row]
        first = col
        while (
            not IS_BOW[cells[first]]
            and first > 0
            and cells[first - 1] != EMPTY
            and not IS_STERN[cells[first - 1]]
        ):
            first -= 1
        last = col
        end = self.width - 1
        while (
            not IS_STERN[cells[last]]
            and last < end
            and cells[last + 1] != EMPTY
            and not IS_BOW[cells[last + 1]]
        ):
            last += 1
        return row, first, last

    def is_complete(self, segment: Segment) -> bool:
        row, first, last = segment
        cells = self.rows[row]
        return IS_BOW[cells[first]] and IS_STERN[cells[last]]

    def segments(self) -> list[Segment]:
        """All segments: runs of adjacent cards cut before every bow and after every stern."""
        found: list[Segment] = []
        for r in range(self.height):
            found.extend(self._row_segments(r))
        return found

    def complete_boats(self) -> list[Segment]:
        boats: list[Segment] = []
        for r in range(self.height):
            row_kinds = self.kinds[r]
            if row_kinds & BOW_MASK and row_kinds & STERN_MASK:  # else no boat can be complete
                boats.extend(seg for seg in self._row_segments(r) if self.is_complete(seg))
        return boats

    def _row_segments(self, r: int) -> list[Segment]:
        return row_segments(r, self.rows[r], self.width)

    def segment_kinds(self, segment: Segment) -> list[int]:
        row, first, last = segment
        return self.rows[row][first : last + 1]

    # --- changes (each leaves the display in normal form) ---------------------------------------
    def place(self, row: int, col: int, kind: int) -> tuple[int, int]:
        """Put ``kind`` on cell (row, col), which may be row -1 or column -1 (a new row above or
        column to the left). Returns the card's cell after renormalisation."""
        if row < 0:  # a new top row: every row index rises by 1 (the last row is free, h <= 2)
            self.rows.insert(0, self.rows.pop())
            self.occ.insert(0, self.occ.pop())
            self.kinds.insert(0, self.kinds.pop())
            self.height += 1
            row = 0
        if col < 0:  # a new left column: every column index rises by 1
            for r in range(max(self.height, row + 1)):
                self.rows[r] = [EMPTY] + self.rows[r][:-1]
                self.occ[r] <<= 1
            self.width += 1
            col = 0
        self._put(row, col, kind)
        return row, col

    def insert(self, row: int, col: int, right: bool, kind: int) -> None:
        """The shift of 4.3: open a gap next to the anchor (row, col) on one side by moving that
        side of the row outward by one column, and put ``kind`` into the gap."""
        cells = self.rows[row]
        occ = self.occ[row]
        low = (1 << col) - 1  # bits of the columns left of the anchor
        if right:
            keep = low | (1 << col)
            self.rows[row] = cells[: col + 1] + [kind] + cells[col + 1 : -1]
            self.occ[row] = (occ & keep) | ((occ & ~keep) << 1) | (1 << (col + 1))
        elif cells[0] == EMPTY:  # the left part moves into the free column 0: no widening
            self.rows[row] = cells[1:col] + [kind] + cells[col:]
            self.occ[row] = ((occ & low) >> 1) | (occ & ~low) | (1 << (col - 1))
        else:  # the left part moves to column -1; renormalising moves everything right by one
            self.rows[row] = cells[:col] + [kind] + cells[col:-1]
            self.occ[row] = (occ & low) | ((occ & ~low) << 1) | (1 << col)
            for r in range(self.height):
                if r != row:
                    self.rows[r] = [EMPTY] + self.rows[r][:-1]
                    self.occ[r] <<= 1
            self.width += 1
        self.kinds[row] |= 1 << kind
        self.width = max(self.width, self.occ[row].bit_length())

    def remove(self, cells: list[tuple[int, int]]) -> list[int]:
        """Take the cards off ``cells`` and renormalise; returns their kinds in the given order."""
        taken = []
        for row, col in cells:
            kind = self.rows[row][col]
            taken.append(kind)
            self.rows[row][col] = EMPTY
            self.occ[row] &= ~(1 << col)
            self.kinds[row] &= ~(1 << kind)
        self._renormalise()
        return taken

    def _put(self, row: int, col: int, kind: int) -> None:
        self.rows[row][col] = kind
        self.occ[row] |= 1 << col
        self.kinds[row] |= 1 << kind
        if row >= self.height:
            self.height = row + 1
        if col >= self.width:
            self.width = col + 1

    def _renormalise(self) -> None:
        occ = self.occ
        while self.height and not occ[0]:  # empty top rows leave; the rows below move up
            self.rows.append(self.rows.pop(0))
            occ.append(occ.pop(0))
            self.kinds.append(self.kinds.pop(0))
            self.height -= 1
        while self.height and not occ[self.height - 1]:
            self.height -= 1
        used = 0
        for r in range(self.height):
            used |= occ[r]
        shift = (used & -used).bit_length() - 1
        if shift > 0:  # empty left columns leave
            for r in range(self.height):
                self.rows[r] = self.rows[r][shift:] + [EMPTY] * shift
                occ[r] >>= shift
            used >>= shift
        self.width = used.bit_length()


def row_segments(r: int, cells: Sequence[int], width: int) -> list[Segment]:
    """The segments of row ``r``, whose cells are ``cells[:width]``."""
    found: list[Segment] = []
    first = -1
    for c in range(width):
        kind = cells[c]
        if kind == EMPTY:
            if first >= 0:
                found.append((r, first, c - 1))
                first = -1
            continue
        if first < 0:
            first = c
        elif IS_BOW[kind]:
            found.append((r, first, c - 1))
            first = c
        if IS_STERN[kind]:
            found.append((r, first, c))
            first = -1
    if first >= 0:
        found.append((r, first, width - 1))
    return found
