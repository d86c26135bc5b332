"""Terminal rendering of a Merkator state, drawn from a view (every seat sees the same): the
map, the time board (revealed letters only), the contract piles and displays, and every player's
Kontor, tile, contracts, coins, markers and cards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.merkator import data
from engine.merkator.enums import GOODS
from engine.merkator.observe import build_view
from engine.merkator.views import Contract, MerkatorView

if TYPE_CHECKING:
    from engine.merkator.state import MerkatorState


def _contract(card: Contract) -> str:
    where = card.location.name if card.location is not None else "Peace"
    goods = " ".join(f"{g.count}{g.good.name.title()}" for g in card.goods)
    return f"{card.id}({card.value} {where}{': ' + goods if goods else ''})"


def _time_board(view: MerkatorView) -> list[str]:
    occupied = {(m.row, m.space): m.letters or "?" for m in view.time_board}
    lines = []
    for row in range(1, data.BOARD_ROWS + 1):
        spaces = range(1, data.ROW_SPACES + 1)
        cells = [occupied.get((row, space), ".").ljust(2) for space in spaces]
        lines.append(f"  row {row}: " + " ".join(cells))
    return lines


def render(state: MerkatorState, seat: int | None = None) -> str:
    """The public state; the same for every seat (rules 6), so ``seat`` changes nothing."""
    return render_view(build_view(state, 0 if seat is None else seat))


def render_view(view: MerkatorView) -> str:
    figure = view.figure.name if view.figure is not None else "off the map"
    if view.decision is None:
        pending = "game over"
    else:
        pending = f"{view.decision.name} by seat {view.deciding_seat}"
    phase = " end triggered," if view.end_triggered else ""
    if view.final_phase:
        phase = " final phase,"
    out = [
        f"Merkator turn {view.turn} (round {view.round}),{phase} active seat {view.active_seat}; "
        f"{pending}",
        f"Figure: {figure}",
        "Map: " + "  ".join(f"{m.location.name}:{m.cubes}" for m in view.map),
        "Pools: " + "  ".join(f"{c}:{n}" for c, n in zip(data.COLOUR_IDS, view.pools)),
        f"Time board ({len(view.time_board)} markers; ? = face down):",
        *_time_board(view),
        "Piles: "
        + "  ".join(f"{p.value}:{p.count}" + (f"[{p.top.id}]" if p.top else "") for p in view.piles)
        + f"  discard:{view.discard_count}",
        f"Bonus slots (deck {view.bonus_deck_count}): "
        + "  ".join(
            f"{s.slot}:{s.card.id} {s.card.location.name} {s.card.good.name.title()} ${s.card.cost}"
            if s.card
            else f"{s.slot}:-"
            for s in view.bonus_slots
        ),
        f"Building slots (deck {view.building_deck_count}): "
        + "  ".join(
            f"{s.slot}:{s.card.id} {s.card.name} ${s.card.cost}" if s.card else f"{s.slot}:-"
            for s in view.building_slots
        ),
    ]
    for p in view.players:
        kontor = " ".join(f"{GOODS[g].name.title()}:{n}" for g, n in enumerate(p.kontor) if n)
        out += [
            f"Seat {p.seat}: {p.coins} coins, {p.markers} markers, tile "
            f"[{' '.join(c.name.lower() for c in p.tile)}]",
            f"  Kontor: {kontor or 'empty'}",
            "  Contracts: "
            + " ".join(
                _contract(h.contract) + ("*" if h.fulfilled_this_turn else "") for h in p.contracts
            ),
            "  Bonus: "
            + (" ".join(b.id for b in p.bonus_cards) or "-")
            + "  Buildings: "
            + (" ".join(f"{b.id} {b.name}" for b in p.buildings) or "-"),
        ]
    return "\n".join(out)
