// Merkator: the map of trading cities with their goods cubes and the merchant figure, the
// contract piles, bonus and building slots, the time board, and one panel per trader.
"use strict";
(function (Arena) {
  // Rough positions on a map of northern Europe (the game's board), in a 640 x 400 box.
  const PLACES = {NEW: [40, 140, "New World"], ENG: [150, 130, "England"], HOL: [230, 200, "Holland"],
    FRA: [170, 300, "France"], SPA: [80, 340, "Spain"], HAM: [320, 190, "Hamburg"],
    DEN: [320, 95, "Denmark"], SWE: [410, 50, "Sweden"], DAN: [450, 170, "Danzig"],
    RUS: [580, 110, "Russia"], BOH: [420, 290, "Bohemia"], ITA: [360, 345, "Italy"]};
  const COLOURS = {GREEN: "#5c9e5f", YELLOW: "#e6c229", BLACK: "#333", PURPLE: "#8e6c8a",
    ORANGE: "#e08a2c", GREY: "#9aa0a6", BLUE: "#3b7dd8", RED: "#c8453b"};

  function map(view, frame) {
    const {s} = Arena;
    const svg = Arena.svg(640, 400);
    svg.setAttribute("aria-label", "Merkator map");
    svg.append(s("rect", {x: 0, y: 0, width: 640, height: 400, rx: 8, fill: "#dcebf5"}));
    const majors = Object.fromEntries(view.map.map((m) => [m.location, m]));
    for (const [id, [x, y, name]] of Object.entries(PLACES)) {
      const major = majors[id];
      const fill = major ? COLOURS[major.colour] || "#999" : "#f7f3ea";
      svg.append(s("line", {x1: x, y1: y, x2: PLACES.HAM[0], y2: PLACES.HAM[1], stroke: "#b8c9d6", "stroke-width": 1}));
      svg.append(s("circle", {cx: x, cy: y, r: major ? 22 : 16, fill, stroke: "#3d4451", "stroke-width": 1.5},
        [s("title", {text: `${name}${major ? `: ${Arena.count(major.cubes, `${Arena.words(major.colour)} cube`)}` : ""}`})]));
      if (major) svg.append(s("text", {x, y: y + 4, "text-anchor": "middle", class: "label-white", text: major.cubes}));
      svg.append(s("text", {x, y: y + (major ? 36 : 30), "text-anchor": "middle", class: "label", text: name}));
    }
    if (view.figure && PLACES[view.figure]) {
      const [x, y] = PLACES[view.figure];
      svg.append(s("path", {d: `M${x + 14} ${y - 30} l8 -16 l8 16 z`, fill: "#1d2330"}, [s("title", {text: "the merchant figure"})]));
    }
    const action = frame.action;
    if (action && action.location && PLACES[action.location]) {
      const [x, y] = PLACES[action.location];
      svg.append(s("circle", {cx: x, cy: y, r: 27, class: "target"}));
    }
    // Cube pools per colour, along the bottom.
    view.map.forEach((m, index) => {
      const x = 20 + index * 76;
      svg.append(s("rect", {x, y: 8, width: 14, height: 14, fill: COLOURS[m.colour] || "#999"}));
      svg.append(s("text", {x: x + 18, y: 19, class: "label", text: `pool ${view.pools[index]}`}));
    });
    return svg;
  }

  function contract(c) {
    if (!c) return "–";
    const goods = c.goods.map((g) => `${g.count}× ${Arena.words(g.good)}`).join(", ");
    return `${c.id} (${c.value}) ${c.location ? Arena.words(c.location) : "peace"}: ${goods}`;
  }

  function playerPanel(player, deciding, active) {
    const {h} = Arena;
    const goods = ["LIVESTOCK", "MUSKETS", "GRAIN", "SALTPETER", "IRON", "COPPER", "HAM", "FISH_OIL",
                   "VEGETABLES", "CALFSKIN", "CLOTH", "COAL", "PLUMS", "WINE", "CITRUS", "SPICES"];
    const kontor = player.kontor.map((n, i) => n ? `${n} ${Arena.words(goods[i])}` : null).filter(Boolean);
    return h("div", {class: `player${deciding ? " deciding" : ""}`}, [
      h("h4", {class: `seat-${player.seat}`}, [h("span", {class: "swatch"}), Arena.seatLabel(player.seat), active ? h("span", {class: "tag", text: "active"}) : null]),
      h("div", {text: `${Arena.count(player.coins, "coin")} · ${Arena.count(player.markers, "time marker")}`}),
      h("div", {text: "contracts:"}),
      h("div", {class: "cards"}, player.contracts.map((held) =>
        h("span", {class: `card${held.fulfilled_this_turn ? " done" : ""}`, text: contract(held.contract)}))),
      h("div", {text: `kontor: ${kontor.join(", ") || "empty"}`}),
      h("div", {text: `supply tile: ${player.tile.map(Arena.words).join(", ") || "empty"}`}),
      player.bonus_cards.length ? h("div", {text: `bonus cards: ${player.bonus_cards.map((b) => b.id).join(", ")}`}) : null,
      player.buildings.length ? h("div", {text: `buildings: ${player.buildings.map((b) => b.name).join(", ")}`}) : null,
    ]);
  }

  Arena.boards.merkator = function ({board, players, frame}) {
    const {h} = Arena;
    const views = frame.views;
    const view = views[Object.keys(views)[0]];
    board.append(h("div", {class: "info", text: view.decision
      ? `round ${view.round} of at most ${view.max_rounds} · turn ${view.turn} · seat ${view.active_seat} active, seat ${view.deciding_seat} decides ${view.decision}${view.final_phase ? " · final phase" : ""}`
      : "game over"}));
    board.append(map(view, frame));
    board.append(h("div", {class: "info", text: `contract piles: ${view.piles.map((p) => `${p.value}:${p.count}`).join(" ")} · time board: ${Arena.count(view.time_board.length, "space")} left · discard ${view.discard_count}`}));
    board.append(h("div", {class: "info", text: `bonus slots: ${view.bonus_slots.map((b) => b.card ? `${b.card.id} (${b.card.cost})` : "–").join(", ")}`}));
    board.append(h("div", {class: "info", text: `building slots: ${view.building_slots.map((b) => b.card ? `${b.card.name} (${b.card.cost})` : "–").join(", ")}`}));
    for (const player of view.players) {
      // A finished game still names its last active seat: nobody's turn, so no tag.
      players.append(playerPanel(player, frame.seat === player.seat, Boolean(view.decision) && view.active_seat === player.seat));
    }
  };
})(window.Arena);
