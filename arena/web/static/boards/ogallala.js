// Ogallala: every seat's display of canoe cards (complete boats outlined), the draw stacks, and
// the card being placed. All of it is public; only the order of the stacks is hidden.
"use strict";
(function (Arena) {
  const {count} = Arena;
  const W = 64, H = 46;
  // The card list (rules 2.2): each kind's name, fight value and what it does.
  const NAMES = {bow_plain: "plain bow", stern_plain: "plain stern", bow_indian: "bow with Indian",
    stern_indian: "stern with Indian", medicine_man: "medicine man", chief: "chief", lasso: "lasso thrower",
    archer: "archer", crazy_axe: "crazy axe", totem: "Indian totem", cowboy: "cowboy", horse_front: "horse, front half",
    horse_back: "horse, back half", gold_digger: "gold digger", gold_left: "gold haul, left half",
    gold_right: "gold haul, right half", bear_hunter: "bear hunter", bear_front: "bear, front half",
    bear_back: "bear, back half", bison_hunter: "bison hunter", bison_front: "bison, front half",
    bison_back: "bison, back half", lumberjack: "lumberjack", timber_left: "log, left half",
    timber_right: "log, right half", squaw: "squaw", cauldron: "cauldron", tepee: "tepee", cannon: "cannon", tobacco: "tobacco"};
  const FIGHT = {bow_indian: 1, stern_indian: 1, medicine_man: 9, chief: 10, lasso: 2, archer: 2};
  const EFFECTS = {lasso: "when drawn, steals a booty card or totem from an opponent's unfinished boat",
    archer: "when drawn, shoots an Indian figure off an opponent's unfinished boat",
    crazy_axe: "never placed: sinks one of its drawer's complete boats (with 2 or more)",
    totem: "protects its segment from attacks"};
  // Booty sets (rules 2.3): a person and an object's two halves, worth more side by side.
  const SETS = {horse: "cowboy", gold: "gold digger", bear: "bear hunter", bison: "bison hunter", timber: "lumberjack"};
  const fight = (kind) => (kind.startsWith("warrior_") ? Number(kind.slice(8)) : FIGHT[kind] || 0);
  const isEnd = (kind) => kind.startsWith("bow") || kind.startsWith("stern");
  const isBooty = (kind) => !isEnd(kind) && !kind.startsWith("warrior_") && !(kind in FIGHT) && !(kind in EFFECTS);
  const setOf = (kind) => Object.keys(SETS).find((set) => kind.startsWith(`${set}_`) || SETS[set] === NAMES[kind]);
  const name = (kind) => NAMES[kind] || kind.replaceAll("_", " ");
  const short = (kind) => name(kind).replace(/, (\w+) half/, " $1").replace(" with Indian", " + Indian")
    .replace("lasso thrower", "lasso").replace("Indian totem", "totem");

  function cardColour(kind) {
    if (isEnd(kind)) return kind.endsWith("_indian") ? "#d9b98e" : "#c8a97e";
    if (kind.startsWith("warrior")) return "#e8b4a0";
    if (kind in EFFECTS || kind === "lasso" || kind === "archer") return kind === "totem" ? "#c5a3d9" : "#f2d27c";
    if (kind === "chief" || kind === "medicine_man") return "#e39a86";
    return setOf(kind) ? "#cde3c0" : "#cfe0f3";
  }

  function explanation(kind) {
    const parts = [name(kind)];
    if (isEnd(kind)) parts.push(kind.startsWith("bow") ? "a bow: the left end of a boat" : "a stern: the right end of a boat");
    if (fight(kind)) parts.push(`fight ${fight(kind)}`);
    if (EFFECTS[kind]) parts.push(EFFECTS[kind]);
    if (isBooty(kind)) {
      const set = setOf(kind);
      parts.push(set ? `booty worth 10, of the ${set} set (${SETS[set]} and two halves: more side by side)` : "booty worth 10");
    }
    return parts.join("; ");
  }

  // The card's picture: a hull for bows and sterns, a figure for Indians, a sign for the rest.
  function icon(kind, x, y) {
    const {s} = Arena;
    const g = s("g", {"data-piece": "symbol", class: "icon-g"});
    const cx = x + W / 2, cy = y + H / 2 - 3;
    const figure = (fx, fy) => [s("circle", {cx: fx, cy: fy - 6, r: 3, class: "icon-fill"}),
      s("path", {d: `M${fx} ${fy - 3} v8 M${fx - 4} ${fy} h8 M${fx} ${fy + 5} l-3 5 M${fx} ${fy + 5} l3 5`, class: "icon"})];
    if (isEnd(kind)) {
      const bow = kind.startsWith("bow");
      const d = bow ? `M${x + 8} ${cy - 4} Q${x + 16} ${cy + 10} ${x + W - 8} ${cy + 8} L${x + W - 8} ${cy + 2} Z`
        : `M${x + W - 8} ${cy - 4} Q${x + W - 16} ${cy + 10} ${x + 8} ${cy + 8} L${x + 8} ${cy + 2} Z`;
      g.append(s("path", {d, class: "hull"}));
      if (kind.endsWith("_indian")) g.append(...figure(cx, cy - 4));
    } else if (kind === "totem") {
      for (let i = 0; i < 3; i++) g.append(s("rect", {x: cx - 5, y: cy - 11 + i * 7, width: 10, height: 6, rx: 1.5, class: "icon"}));
    } else if (kind === "lasso") {
      g.append(...figure(cx - 8, cy), s("ellipse", {cx: cx + 9, cy: cy - 6, rx: 6, ry: 4, class: "icon"}), s("path", {d: `M${cx - 4} ${cy - 1} L${cx + 4} ${cy - 4}`, class: "icon"}));
    } else if (kind === "archer") {
      g.append(s("path", {d: `M${cx - 4} ${cy - 11} Q${cx + 8} ${cy - 1} ${cx - 4} ${cy + 9} M${cx - 10} ${cy - 1} h18 l-4 -3 m4 3 l-4 3`, class: "icon"}));
    } else if (kind === "crazy_axe") {
      g.append(s("path", {d: `M${cx - 6} ${cy + 10} L${cx + 4} ${cy - 8}`, class: "icon"}), s("path", {d: `M${cx} ${cy - 10} q8 0 9 8 l-7 -1 z`, class: "icon-fill"}));
    } else if (fight(kind)) {  // warriors, chiefs, medicine men
      g.append(...figure(cx, cy));
      if (kind === "chief") g.append(s("path", {d: `M${cx - 6} ${cy - 9} l2 -5 l2 3 l2 -4 l2 4 l2 -3 l2 5`, class: "icon"}));
      else g.append(s("path", {d: `M${cx + 2} ${cy - 9} l4 -6`, class: "icon"}));  // a feather
    } else {  // booty: a set piece shows its half, a single its sign
      const set = setOf(kind);
      if (set && kind.match(/_(front|left)$/)) g.append(s("path", {d: `M${cx - 10} ${cy - 7} h14 v14 h-14 z`, class: "icon"}));
      else if (set && kind.match(/_(back|right)$/)) g.append(s("path", {d: `M${cx - 4} ${cy - 7} h14 v14 h-14 z`, class: "icon"}));
      else if (set || kind === "squaw") g.append(...figure(cx, cy));
      else if (kind === "tepee") g.append(s("path", {d: `M${cx} ${cy - 11} L${cx - 9} ${cy + 8} H${cx + 9} Z M${cx - 3} ${cy - 15} L${cx + 3} ${cy - 7}`, class: "icon"}));
      else if (kind === "cauldron") g.append(s("path", {d: `M${cx - 9} ${cy - 4} h18 q0 12 -9 12 q-9 0 -9 -12 Z`, class: "icon"}));
      else if (kind === "cannon") g.append(s("circle", {cx: cx - 4, cy: cy + 4, r: 5, class: "icon"}), s("path", {d: `M${cx - 4} ${cy} L${cx + 11} ${cy - 7}`, class: "icon", "stroke-width": 4}));
      else g.append(s("path", {d: `M${cx} ${cy + 9} C${cx - 10} ${cy} ${cx - 4} ${cy - 9} ${cx} ${cy - 11} C${cx + 4} ${cy - 9} ${cx + 10} ${cy} ${cx} ${cy + 9} Z`, class: "icon"}));
    }
    return g;
  }

  // A card at (x, y): its picture, a badge with its fight value or booty value, its short name.
  function card(kind, x, y) {
    const {s} = Arena;
    const g = s("g", {class: "og-card", "data-piece": "card", "data-kind": kind});
    g.append(s("rect", {x, y, width: W, height: H, rx: 4, fill: cardColour(kind), class: "face"}));
    g.append(icon(kind, x, y));
    const value = fight(kind) || (isBooty(kind) ? 10 : 0);
    if (value) {
      const badge = s("g", {"data-piece": "symbol"});
      badge.append(s("circle", {cx: x + 9, cy: y + 9, r: 7, class: isBooty(kind) ? "booty-badge" : "badge"}),
        s("text", {x: x + 9, y: y + 12.5, "text-anchor": "middle", class: "badge-text", text: value}));
      g.append(badge);
    }
    g.append(s("text", {x: x + W / 2, y: y + H - 4, "text-anchor": "middle", class: "name", text: short(kind)}));
    return Arena.explain(g, explanation(kind));
  }

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
        [s("title", {text: `${seg.complete ? "complete boat" : "segment"}: fight ${seg.fight}${seg.protected ? ", protected by a totem" : ""}${seg.points ? `, ${count(seg.points, "point")}` : ""}`})]));
    }
    for (const placed of d.cards) svg.append(card(placed.kind, X(placed.col), Y(placed.row)));
    // The chosen cell: on the display of the seat the action names (a target, an attack), else
    // on the decider's own.
    const action = frame.action;
    if (action && "row" in action && ("seat" in action ? action.seat : frame.seat) === d.seat) {
      svg.append(s("rect", {x: X(action.col), y: Y(action.row), width: W, height: H, class: "target"}));
    }
    // The heading is HTML, not SVG text: a long bot name wraps instead of hiding the points.
    const heading = h("h3", {class: `display-title seat-${d.seat}`}, [h("span", {class: "swatch"}),
      `${Arena.seatLabel(d.seat)} · ${count(d.score, "point")} · ${count(d.complete_boats, "boat")}`]);
    return h("div", {class: "display"}, [heading, svg]);
  }

  // The draw stacks (face down, numbered as the actions name them) and the face-up discard pile.
  function supply(view) {
    const {h} = Arena;
    const stacks = view.stacks.map((stack) => {
      const known = stack.refilled && stack.contents.length
        ? `; built from the discard pile, so its cards are known: ${stack.contents.map((k) => `${k.count} ${name(k.kind)}`).join(", ")}` : "; face down";
      const drawn = h("div", {class: `og-pile${stack.size ? "" : " empty"}${stack.refilled ? " refilled" : ""}`, "data-piece": "stack"}, [
        h("div", {text: `stack ${stack.index}`}), h("div", {class: "pile-value", text: stack.size}), h("div", {text: stack.refilled ? "refilled" : "face down"})]);
      return Arena.explain(drawn, `draw stack ${stack.index}: ${count(stack.size, "card")}${known}`);
    });
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    const discard = h("div", {class: `og-pile discard${top ? "" : " empty"}`, "data-piece": "discard"}, [
      h("div", {text: "discard"}), h("div", {class: "pile-value", text: view.discard.length}), h("div", {text: top ? short(top) : "empty"})]);
    Arena.explain(discard, `discard pile, face up: ${count(view.discard.length, "card")}${top ? `; on top: ${name(top)}` : ""}`);
    const drawnCard = [];
    if (view.card) {
      const svg = Arena.svg(W + 4, H + 4, [card(view.card, 2, 2)]);
      svg.setAttribute("aria-label", "the card being placed");
      drawnCard.push(h("figure", {class: "og-current"}, [h("figcaption", {text: "drawn card"}), svg]));
    }
    return h("div", {class: "og-supply"}, [...stacks, discard, ...drawnCard]);
  }

  Arena.boards.ogallala = function ({board, players, frame}) {
    if (Arena.hideExplanation) Arena.hideExplanation();
    const {h} = Arena;
    const views = frame.views;
    const view = views[Object.keys(views)[0]];
    const status = view.decision
      ? `turn ${view.turn} · seat ${view.active_seat} to play${view.card ? ` · card: ${name(view.card)}` : ""}${view.captured.length ? ` · captured to place: ${view.captured.map(name).join(", ")}` : ""}`
      : `game over (${Arena.words(view.end_reason)})`;
    board.append(h("div", {class: "info", text: `${status} · turns without a change: ${view.stall_turns} of 60`}));
    board.append(supply(view));
    const displays = h("div", {class: "displays"}, view.displays.map((d) => display(view, d, frame)));
    board.append(displays);
    // Cards keep their size (on a phone too): a display wider than the board scrolls, and says so.
    if (displays.scrollWidth > displays.clientWidth + 1) {
      displays.tabIndex = 0;  // a keyboard scrolls it too
      displays.before(h("div", {class: "info scroll-hint", text: "a display is wider than the screen: scroll it sideways →"}));
    }
    const unseen = view.unseen.map((k) => Arena.token("unseen", name(k.kind), `×${k.count}`, `${count(k.count, "card")} not yet seen: ${explanation(k.kind)}`));
    players.append(h("div", {class: "player"}, [h("h3", {text: `Cards not yet seen (${view.unseen.reduce((n, k) => n + k.count, 0)})`}),
      h("div", {class: "tokens"}, unseen.length ? unseen : ["none"])]));
  };
})(window.Arena);
