"""Text rendering of an Oregon state for terminals and logs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.oregon import data

if TYPE_CHECKING:
    from engine.oregon.state import OregonState

# Two-letter codes of the buildings on the board, in canonical order.
_BUILDING_CODES = ("PO", "HA", "CH", "WH", "TS", "CP", "GM")
_TERRAIN_CODES = {"G": " .", "F": " f", "M": " ^", "R": " =", "W": " ~"}
_SEAT_CODES = "ABCD"


def render(state: OregonState, seat: int | None = None) -> str:
    """The board, then one line per seat. With ``seat``, only that seat's hand and tile values are
    shown; without, everything (for replays and referees)."""
    header = "     " + "".join(f"{c:>3}" for c in range(data.COLS))
    lines = [_status(state), header]
    for r in range(data.ROWS):
        cells = []
        for c in range(data.COLS):
            sp = data.space(r, c)
            if state.owner[sp] >= 0:
                cells.append(f" {_SEAT_CODES[state.owner[sp]]}{state.owner[sp]}")
            elif state.building_at[sp] >= 0:
                cells.append(" " + _BUILDING_CODES[state.building_at[sp]])
            else:
                cells.append(" " + _TERRAIN_CODES[data.TERRAIN[r][c]])
        lines.append(f"r{r:<2}  " + "".join(cells))
    lines.append(
        "legend: A0..D3 farmer of seat 0..3, PO post office, HA harbor, CH church,"
        " WH warehouse, TS train station, CP coal pit, GM gold mine;"
        " . grass f forest ^ mountain = railroad ~ water"
    )
    lines.append(
        "stacks: " + " ".join(f"{code}:{n}" for code, n in zip(_BUILDING_CODES, state.stacks))
    )
    lines.append(
        f"decks: landscape {len(state.decks[0])}, building {len(state.decks[1])};"
        f" discards {len(state.discards[0])}/{len(state.discards[1])};"
        f" out of game {len(state.out_of_game)};"
        f" coal {len(state.coal_stack)}, gold {len(state.gold_stack)}"
    )
    for s in range(state.num_players):
        lines.append(_seat_line(state, s, reveal=seat is None or seat == s or state.is_over))
    return "\n".join(lines)


def _status(state: OregonState) -> str:
    if state.is_over:
        return f"round {state.round}: game over"
    trigger = ", end triggered" if state.end_triggered else ""
    extra = " (extra play)" if state.in_extra else ""
    return (
        f"round {state.round}: seat {state.active} to decide {state.decision_kind}{extra}{trigger}"
    )


def _seat_line(state: OregonState, s: int, reveal: bool) -> str:
    hand = state.hands[s]
    if reveal:
        cards = ",".join(data.CARD_NAMES[c] for c in range(data.NUM_CARDS) for _ in range(hand[c]))
        tiles = f"coal {sorted(state.coal[s])} gold {sorted(state.gold[s])}"
    else:
        cards = (
            f"{sum(hand[: data.NUM_SYMBOLS])} landscape + "
            f"{sum(hand[data.NUM_SYMBOLS :])} building cards"
        )
        tiles = f"{len(state.coal[s])} coal, {len(state.gold[s])} gold tiles"
    tokens = ("joker" if state.joker[s] else "-") + "/" + ("extra" if state.extra[s] else "-")
    return (
        f"seat {s} ({_SEAT_CODES[s]}): {state.score[s]} points, "
        f"{state.supply[s]} farmers left, tokens {tokens}, "
        f"start {data.BUILDINGS[state.start_tile[s]]}, hand [{cards}], {tiles}"
    )
