"""Terminal rendering: every display as rows of short card names, complete boats in brackets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.ogallala.data import KIND_INDEX, KIND_NAMES
from engine.ogallala.display import EMPTY, Display
from engine.ogallala.scoring import display_score

if TYPE_CHECKING:
    from engine.ogallala.state import OgallalaState

# Two-letter names: those of ogallala.md section 9, plus the RECONSTRUCTED sets it does not name.
SHORT_NAMES: dict[str, str] = {
    "bow_plain": "Bp",
    "stern_plain": "Sp",
    "bow_indian": "Bi",
    "stern_indian": "Si",
    "warrior_1": "W1",
    "warrior_2": "W2",
    "warrior_3": "W3",
    "warrior_4": "W4",
    "warrior_5": "W5",
    "warrior_6": "W6",
    "warrior_7": "W7",
    "warrior_8": "W8",
    "medicine_man": "MM",
    "chief": "CH",
    "lasso": "LA",
    "archer": "AR",
    "crazy_axe": "AX",
    "totem": "TO",
    "cowboy": "CB",
    "horse_front": "HF",
    "horse_back": "HB",
    "gold_digger": "GD",
    "gold_left": "GL",
    "gold_right": "GR",
    "bear_hunter": "BH",
    "bear_front": "BF",
    "bear_back": "BB",
    "bison_hunter": "IH",
    "bison_front": "IF",
    "bison_back": "IB",
    "lumberjack": "LJ",
    "timber_left": "TL",
    "timber_right": "TR",
    "squaw": "SQ",
    "cauldron": "CA",
    "tepee": "TP",
    "cannon": "CN",
    "tobacco": "TB",
}
# Kind index of each short name (kinds missing from the table above keep their full name).
SHORT_KIND: dict[str, int] = {SHORT_NAMES.get(name, name): KIND_INDEX[name] for name in KIND_NAMES}


def short(kind: int) -> str:
    name = KIND_NAMES[kind]
    return SHORT_NAMES.get(name, name)


def render_display(display: Display) -> list[str]:
    """Grid lines: column numbers, then one line per row; '[' and ']' enclose complete boats."""
    starts: set[tuple[int, int]] = set()
    ends: set[tuple[int, int]] = set()
    for row, first, last in display.complete_boats():
        starts.add((row, first))
        ends.add((row, last))
    lines = ["     " + "".join(f"{c:>3} " for c in range(display.width))]
    for r in range(display.height):
        cells = []
        for c in range(display.width):
            kind = display.rows[r][c]
            name = " ." if kind == EMPTY else f"{short(kind):>2}"
            cells.append(
                ("[" if (r, c) in starts else " ") + name + ("]" if (r, c) in ends else " ")
            )
        lines.append(f"  r{r} " + "".join(cells))
    return lines


def render(state: OgallalaState, seat: int | None = None) -> str:
    """Every display and the public piles; the same for every seat (all of it is public)."""
    if state.decision is None:
        reason = state.end_reason.name.lower() if state.end_reason else ""
        head = f"Ogallala, turn {state.turn}: game over ({reason})"
    else:
        card = f", card {short(state.card)}" if state.card >= 0 else ""
        head = f"Ogallala, turn {state.turn}: seat {state.active} {state.decision.name}{card}"
    stacks = ", ".join(
        f"{len(stack)}{' (refilled)' if refilled else ''}"
        for stack, refilled in zip(state.stacks, state.refilled)
    )
    discard = " ".join(short(kind) for kind in state.discard)
    lines = [head, f"stacks: {stacks}; discard pile ({len(state.discard)}): {discard}"]
    for seat, display in enumerate(state.displays):
        boats = len(display.complete_boats())
        lines.append(f"seat {seat}: {boats} complete boats, {display_score(display)} points")
        if display.height:
            lines.extend(render_display(display))
    return "\n".join(lines)
