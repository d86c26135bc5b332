// Ogallala: every seat's display of canoe cards (complete boats outlined), the draw stacks, and
// the card being placed. All of it is public; only the order of the stacks is hidden.
"use strict";
(function (Arena) {
  const W = 62, H = 40;
  function cardColour(kind) {
    if (kind.startsWith("bow") || kind.startsWith("stern")) return "#c8a97e";
    if (kind.startsWith("warrior")) return "#e8b4a0";
    if (["lasso", "archer", "crazy_axe", "cannon"].includes(kind)) return "#f2d27c";
    if (kind === "totem") return "#c5a3d9";
    if (["chief", "medicine_man", "squaw", "tepee", "cauldron", "tobacco"].includes(kind)) return "#b8d8c8";
    return "#cfe0f3";
  }
  const short = (kind) => kind.replace("warrior_", "warrior ").replace("medicine_man", "medicine").replaceAll("_", " ");

  function display(view, d, frame) {
    const {h, s} = Arena;
    // One spare cell on every side: a card may be placed left of or above the display (-1).
    const cols = Math.max(d.width, 1) + 2, rows = Math.max(d.height, 1) + 2;
    const width = Math.max(cols * (W + 4) + 36, 340), height = rows * (H + 4) + 18;
    const X = (col) => 26 + (col + 1) * (W + 4), Y = (row) => 14 + (row + 1) * (H + 4);
    const svg = Arena.svg(width, height);
    svg.setAttribute("aria-label", `display of seat ${d.seat}`);
    // Row and column numbers: the actions name a cell as "place on (row,col)".
    for (let col = -1; col < cols - 1; col++) {
      svg.append(s("text", {x: X(col) + W / 2, y: 10, "text-anchor": "middle", class: "label col-number", text: col}));
    }
    for (let row = -1; row < rows - 1; row++) {
      svg.append(s("text", {x: 14, y: Y(row) + H / 2 + 3, "text-anchor": "middle", class: "label row-number", text: row}));
    }
    for (const seg of d.segments) {
      const x = X(seg.col) - 2, y = Y(seg.row) - 2;
      svg.append(s("rect", {x, y, width: seg.length * (W + 4), height: H + 4, rx: 5, fill: "none",
        stroke: seg.complete ? "#2f855a" : "#c9c6bd", "stroke-width": seg.complete ? 3 : 1},
        [s("title", {text: `${seg.complete ? "complete boat" : "segment"}: fight ${seg.fight}${seg.protected ? ", protected by a totem" : ""}${seg.points ? `, ${Arena.count(seg.points, "point")}` : ""}`})]));
    }
    for (const card of d.cards) {
      const x = X(card.col), y = Y(card.row);
      svg.append(s("rect", {x, y, width: W, height: H, rx: 4, fill: cardColour(card.kind), stroke: "#7a6a55"}, [s("title", {text: card.kind})]));
      svg.append(s("text", {x: x + W / 2, y: y + H / 2 + 3, "text-anchor": "middle", class: "label-small", text: short(card.kind)}));
    }
    // The chosen cell: on the display of the seat the action names (a target, an attack), else
    // on the decider's own.
    const action = frame.action;
    if (action && "row" in action && ("seat" in action ? action.seat : frame.seat) === d.seat) {
      svg.append(s("rect", {x: X(action.col), y: Y(action.row), width: W, height: H, class: "target"}));
    }
    // The heading is HTML, not SVG text: a long bot name wraps instead of hiding the points.
    const heading = h("h4", {class: `display-title seat-${d.seat}`}, [h("span", {class: "swatch"}),
      `${Arena.seatLabel(d.seat)} · ${Arena.count(d.score, "point")} · ${Arena.count(d.complete_boats, "boat")}`]);
    return h("div", {class: "display"}, [heading, svg]);
  }

  Arena.boards.ogallala = function ({board, players, frame}) {
    const {h} = Arena;
    const views = frame.views;
    const view = views[Object.keys(views)[0]];
    const status = view.decision
      ? `turn ${view.turn} · seat ${view.active_seat} to play${view.card ? ` · card: ${short(view.card)}` : ""}${view.captured.length ? ` · captured to place: ${view.captured.map(short).join(", ")}` : ""}`
      : `game over (${Arena.words(view.end_reason)})`;
    board.append(h("div", {class: "info", text: status}));
    board.append(h("div", {class: "displays"}, view.displays.map((d) => display(view, d, frame))));
    const stacks = view.stacks.map((stack) => `stack ${stack.index}: ${stack.size}${stack.refilled ? " (refilled)" : ""}`);
    board.append(h("div", {class: "info", text: `${stacks.join(" · ")} · discard pile ${view.discard.length} · stall ${view.stall_turns}`}));
    const unseen = view.unseen.map((k) => `${short(k.kind)} ×${k.count}`).join(", ");
    players.append(h("div", {class: "player"}, [h("h4", {text: "Cards not yet seen"}), h("div", {class: "small", text: unseen || "none"})]));
  };
})(window.Arena);
