// Oregon: the landscape grid with terrain, buildings and farmers, and one panel per seat.
"use strict";
(function (Arena) {
  const {count} = Arena;
  const CELL = 44;
  const TERRAIN = {G: ["#b9d98a", "grass"], F: ["#5f9948", "forest"], M: ["#a39787", "mountain"],
                   R: ["#d8c8a8", "railroad"], W: ["#7fb3e0", "water"]};
  const BUILDING_CODES = {POST_OFFICE: "PO", HARBOR: "HA", CHURCH: "CH", WAREHOUSE: "WH",
                          TRAIN_STATION: "TS", COAL_PIT: "CP", GOLD_MINE: "GM"};
  const LANDSCAPE = new Set(["WAGON", "BISON", "SETTLER", "EAGLE", "CAMPFIRE"]);

  function target(action) {
    if (!action) return null;
    if ("row" in action && "col" in action) return [action.row, action.col];
    return null;
  }

  function drawBoard(view, frame) {
    const {s} = Arena;
    const rows = view.terrain.length, cols = view.terrain[0].length;
    const width = cols * CELL + 30, height = rows * CELL + 30;
    const svg = Arena.svg(width, height);
    svg.setAttribute("aria-label", "Oregon board");
    for (let c = 0; c < cols; c++) svg.append(s("text", {x: 30 + c * CELL + CELL / 2, y: 14, "text-anchor": "middle", class: "label-small", text: c}));
    for (let r = 0; r < rows; r++) {
      svg.append(s("text", {x: 14, y: 30 + r * CELL + CELL / 2 + 3, "text-anchor": "middle", class: "label-small", text: r}));
      for (let c = 0; c < cols; c++) {
        const [colour, name] = TERRAIN[view.terrain[r][c]] || ["#ddd", "?"];
        const x = 30 + c * CELL, y = 20 + r * CELL;
        svg.append(s("rect", {x, y, width: CELL - 1, height: CELL - 1, fill: colour},
                     [s("title", {text: `(${r},${c}) ${name}`})]));
        if (view.terrain[r][c] === "R") {
          svg.append(s("line", {x1: x + 4, y1: y + CELL / 2, x2: x + CELL - 5, y2: y + CELL / 2, stroke: "#6b5b45", "stroke-width": 2, "stroke-dasharray": "3 3"}));
        }
        if (view.terrain[r][c] === "M") svg.append(s("path", {d: `M${x + 10} ${y + 32} L${x + 22} ${y + 12} L${x + 34} ${y + 32} Z`, fill: "#8a7d6c", opacity: 0.5}));
        if (view.terrain[r][c] === "F") svg.append(s("circle", {cx: x + 22, cy: y + 22, r: 9, fill: "#3f7a31", opacity: 0.5}));
      }
    }
    for (const b of view.buildings) {
      const x = 30 + b.col * CELL, y = 20 + b.row * CELL;
      svg.append(s("rect", {x: x + 5, y: y + 5, width: CELL - 11, height: CELL - 11, rx: 4,
        fill: b.start_tile ? "#fff3c4" : "#f7f3ea", stroke: b.start_tile ? "#b7791f" : "#6b5b45", "stroke-width": b.start_tile ? 2.5 : 1.5},
        [s("title", {text: `${Arena.words(b.building)}${b.start_tile ? " (start tile)" : ""}`})]));
      svg.append(s("text", {x: x + CELL / 2 - 0.5, y: y + CELL / 2 + 4, "text-anchor": "middle", class: "label", "font-weight": 700, text: BUILDING_CODES[b.building] || "?"}));
    }
    for (const f of view.farmers) {
      const x = 30 + f.col * CELL + CELL / 2, y = 20 + f.row * CELL + CELL / 2;
      svg.append(s("circle", {cx: x, cy: y, r: 13, class: `seat-fill-${f.seat}`, stroke: "#fff", "stroke-width": 2},
                   [s("title", {text: `farmer of ${Arena.seatLabel(f.seat)}`})]));
      svg.append(s("text", {x, y: y + 4, "text-anchor": "middle", class: "label-white", text: f.seat}));
    }
    const spot = target(frame.action);
    if (spot) {
      svg.append(s("rect", {x: 30 + spot[1] * CELL + 1, y: 20 + spot[0] * CELL + 1, width: CELL - 3, height: CELL - 3, class: "target"},
                   [s("title", {text: "the chosen action's space"})]));
    }
    return svg;
  }

  // The codes and colours in words, on the page: a tooltip needs a mouse.
  function legend() {
    const {h, s} = Arena;
    const swatch = (colour) => {
      const svg = Arena.svg(12, 12, [s("rect", {width: 12, height: 12, rx: 2, fill: colour})]);
      svg.setAttribute("aria-hidden", "true");
      return svg;
    };
    const terrain = Object.values(TERRAIN).map(([colour, name]) => h("span", {}, [swatch(colour), ` ${name}`]));
    const buildings = Object.entries(BUILDING_CODES).map(([name, code]) => `${code} ${Arena.words(name)}`);
    return h("div", {class: "info legend"}, [...terrain,
      h("span", {text: `${buildings.join(" · ")} · a gold outline: a start tile · a dashed square: the chosen space`})]);
  }

  function cards(list) {
    const {h} = Arena;
    return h("div", {class: "cards"}, list.map((card) =>
      h("span", {class: `card ${LANDSCAPE.has(card) ? "landscape" : "building"}`, text: Arena.words(card)})));
  }

  // A token the seat turns over when it uses it (rules 2.1, R11): ready or used.
  function tokenState(name, active, meaning) {
    return Arena.token(`${name.replace(" ", "-")}-token`, name, active ? "ready" : "used",
      `${name} token, ${active ? "ready to use" : "used (a new building can make it ready again)"}: ${meaning}`,
      active ? null : "used");
  }

  // Coal and gold tiles: counted for everyone; their values only for the owner (and for all at
  // the end), as the view gives them.
  function tiles(player, kind) {
    const n = player[`${kind}_tiles`], values = player[`${kind}_values`];
    const known = values.length === n && n > 0;
    const shown = known ? ` (${values.join(", ")})` : n ? " (values hidden)" : "";
    return Arena.token(`${kind}-tiles`, "", `${count(n, `${kind} tile`)}${shown}`,
      `${kind} tiles: points at the end; ${known ? "their values" : "the values are seen only by their owner until the end"}`);
  }

  function playerPanel(player, ownView, deciding) {
    const {h} = Arena;
    const children = [
      h("h3", {class: `seat-${player.seat}`}, [h("span", {class: "swatch"}), Arena.seatLabel(player.seat)]),
      h("div", {class: "tokens"}, [
        Arena.token("score", "", count(player.score, "point"), "points on the score track (coal and gold tiles are added at the end)"),
        Arena.token("farmers", "", `${count(player.farmers_in_supply, "farmer")} in supply, ${player.farmers_on_board} on the board`,
          "farmers: in the seat's supply, and placed on the board"),
      ]),
      h("div", {class: "tokens"}, [
        Arena.token("start-tile", "start tile", `${Arena.words(player.start_tile)}${player.start_tile_placed ? " (placed)" : ""}`,
          `start tile: a ${Arena.words(player.start_tile)} the seat places once, free, without scoring`),
        tokenState("joker", player.joker_active, "stands for any one landscape card in a play"),
        tokenState("extra turn", player.extra_turn_active, "a second play in one turn"),
      ]),
    ];
    if (ownView) {
      children.push(h("div", {class: "field-label", text: `hand (${count(ownView.hand.length, "card")}):`}), cards(ownView.hand));
    } else {
      children.push(h("div", {class: "secret", text: `hand (hidden): ${count(player.landscape_cards, "landscape card")}, ${count(player.building_cards, "building card")}`}));
    }
    children.push(h("div", {class: "tokens"}, [tiles(player, "coal"), tiles(player, "gold")]));
    return h("div", {class: `player${deciding ? " deciding" : ""}`}, children);
  }

  // The supply beside the board: the building stacks (tiles left per type), the decks, the
  // discard piles and the coal and gold stacks, each named with its count.
  function supply(view) {
    const {h} = Arena;
    const stacks = Object.entries(BUILDING_CODES).map(([name, code], index) => Arena.token("building-stack", code, view.stacks[index],
      `${Arena.words(name)} stack: ${count(view.stacks[index], "tile")} left of 4`, view.stacks[index] ? null : "used"));
    const pile = (name, n, meaning) => Arena.token("pile", name, n, `${name}: ${count(n, "card")}${meaning}`);
    const landscapeTop = view.landscape_discard.length ? `, the top one ${Arena.words(view.landscape_discard.at(-1))}` : "";
    const buildingTop = view.building_discard.length ? `, the top one ${Arena.words(view.building_discard.at(-1))}` : "";
    return h("div", {class: "or-supply"}, [
      h("span", {class: "field-label", text: "building stacks:"}), ...stacks,
      h("span", {class: "field-label", text: "cards:"}),
      pile("landscape deck", view.landscape_deck_size, ", face down"),
      pile("landscape discard", view.landscape_discard.length, `, face up${landscapeTop}`),
      pile("building deck", view.building_deck_size, ", face down"),
      pile("building discard", view.building_discard.length, `, face up${buildingTop}`),
      Arena.token("pile", "coal tiles", view.coal_stack_size, `coal tiles left: ${count(view.coal_stack_size, "tile")}, face down (values 1 to 3)`),
      Arena.token("pile", "gold tiles", view.gold_stack_size, `gold tiles left: ${count(view.gold_stack_size, "tile")}, face down (values 3 to 5)`),
    ]);
  }

  Arena.boards.oregon = function ({board, players, frame}) {
    if (Arena.hideExplanation) Arena.hideExplanation();
    const views = frame.views;
    const view = Object.values(views)[0];  // a seat's, or the spectator's (seat null)
    board.append(drawBoard(view, frame));
    const {h} = Arena;
    board.append(h("div", {class: "info", text: `round ${view.round}${view.end_triggered ? " · end triggered" : ""}`}));
    board.append(supply(view));
    board.append(legend());
    for (const player of view.players) {
      const own = views[player.seat];
      players.append(playerPanel(own ? own.players[player.seat] : player, own, frame.seat === player.seat));
    }
  };
})(window.Arena);
