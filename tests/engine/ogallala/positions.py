"""Build Ogallala positions from the grids of ogallala.md section 9 (short card names)."""

from __future__ import annotations

from engine.ogallala.display import EMPTY, Display
from engine.ogallala.render import SHORT_KIND, short
from engine.ogallala.state import OgallalaState


def kinds(names: str) -> list[int]:
    """'Bi W5 CH' -> kind indices."""
    return [SHORT_KIND[name] for name in names.split()]


def display(*rows: str) -> Display:
    """A display from grid rows such as 'Bp W3 .' ('.' is an empty cell)."""
    return Display.from_cards(
        [
            (r, c, SHORT_KIND[name])
            for r, row in enumerate(rows)
            for c, name in enumerate(row.split())
            if name != "."
        ]
    )


def grid(d: Display) -> list[str]:
    """The inverse of ``display``: rows of short names, '.' for empty cells."""
    return [
        " ".join("." if k == EMPTY else short(k) for k in d.rows[r][: d.width])
        for r in range(d.height)
    ]


def start_of_turn(
    players: int,
    displays: dict[int, tuple[str, ...]],
    stacks: tuple[str, str, str] = ("W1 W1 W1", "W1 W1 W1", "W1 W1 W1"),
    discard: str = "",
    active: int = 0,
    turn: int = 0,
) -> OgallalaState:
    """The position at the start of ``active``'s turn: the given displays (others empty), the
    stacks top card first, the discard pile oldest first. Only the cards shown are in play."""
    state = OgallalaState(players, 0, {})
    for seat, rows in displays.items():
        state.displays[seat] = display(*rows)
    state.stacks = [kinds(stack)[::-1] for stack in stacks]
    state.discard = kinds(discard)
    state.active = active
    state.turn = turn
    state._begin_draw()  # the refill step, then CHOOSE_STACK
    return state


def options(state: OgallalaState) -> list:
    return list(state.legal_actions())
