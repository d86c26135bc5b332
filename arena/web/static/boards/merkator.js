// Merkator: the map of northern Europe with its trade routes, cubes and the merchant figure; the
// cube pools; the time board; the contract piles and discard pile; the bonus and building
// displays with their decks; one panel per trader (coins, time markers, contracts, Kontor,
// supply tile, bonus cards, buildings). Every card id says what it is on hover and on tap.
// The view is public (rules 6), so every seat and the referee see the same drawing.
"use strict";
(function (Arena) {
  const {h, s, count, words} = Arena;
  const W = 600, MAP_H = 400, H = 450;
  // Places on a sketch of the board (rules 2.3), in a 600 x 400 box.
  const PLACES = {NEW: [62, 112, "Newfoundland"], ENG: [165, 150, "England"], HOL: [250, 222, "Holland"],
    FRA: [200, 312, "France"], SPA: [92, 352, "Spain"], HAM: [330, 190, "Hamburg"],
    DEN: [300, 88, "Denmark"], SWE: [410, 56, "Sweden"], DAN: [452, 168, "Danzig"],
    RUS: [545, 104, "Russia"], BOH: [420, 282, "Bohemia"], ITA: [345, 356, "Italy"]};
  // The 11 trade routes between majors (rules 2.3): a visit restocks its neighbours.
  const ROUTES = [["HAM", "HOL"], ["HAM", "SWE"], ["HAM", "DAN"], ["HOL", "ENG"], ["HOL", "FRA"],
    ["ENG", "FRA"], ["ENG", "SPA"], ["FRA", "SPA"], ["SWE", "DAN"], ["SWE", "RUS"], ["DAN", "RUS"]];
  const COLOURS = ["GREEN", "YELLOW", "BLACK", "PURPLE", "ORANGE", "GREY", "BLUE", "RED"];
  const PAINT = {GREEN: "#5c9e5f", YELLOW: "#e6c229", BLACK: "#333", PURPLE: "#8e6c8a",
    ORANGE: "#e08a2c", GREY: "#9aa0a6", BLUE: "#3b7dd8", RED: "#c8453b"};
  // The 16 goods in the view's Kontor order; a colour's two goods are neighbours (rules 2.2).
  const GOODS = ["LIVESTOCK", "MUSKETS", "GRAIN", "SALTPETER", "IRON", "COPPER", "HAM", "FISH_OIL",
    "VEGETABLES", "CALFSKIN", "CLOTH", "COAL", "PLUMS", "WINE", "CITRUS", "SPICES"];
  const goodColour = (good) => COLOURS[Math.floor(GOODS.indexOf(good) / 2)];
  // The Kontor's columns (rules 2.2): spoilage takes cubes column by column.
  const COLUMNS = {A: ["LIVESTOCK", "GRAIN", "VEGETABLES"], B: ["HAM", "PLUMS", "CITRUS"],
    C: ["FISH_OIL", "WINE", "SPICES"], D: ["MUSKETS", "SALTPETER", "IRON"], E: ["COPPER", "COAL"],
    F: ["CALFSKIN", "CLOTH"]};
  const placeName = (id) => (PLACES[id] ? PLACES[id][2] : words(id));
  const MAJOR_R = 22, MINOR_R = 17;

  // --- words for cards ------------------------------------------------------------------
  const goodsWords = (goods) => goods.map((g) => `${g.count} ${words(g.good)}`).join(", ");
  function contractWords(c) {
    if (!c.location) return `${c.id}: the Peace of Westphalia, worth ${c.value}; it cannot be fulfilled, and taking it starts the final round`;
    return `${c.id}: contract worth ${c.value} (coins when sold, points at the end); deliver to ${placeName(c.location)}: ${goodsWords(c.goods)}`;
  }
  const bonusWords = (b) => `${b.id}: bonus card for ${placeName(b.location)}: a trip there gives 2 ${words(b.good)}, joining there 1; costs ${count(b.cost, "coin")}`;
  const buildingWords = (b) => `${b.id} ${b.name}: building, costs ${count(b.cost, "coin")}; scores ${b.rule}`;

  // --- the map ----------------------------------------------------------------------------
  function map(view, frame) {
    const svg = Arena.svg(W, H);
    svg.classList.add("fit", "merkator-map");
    svg.setAttribute("aria-label", "Merkator map");
    svg.append(s("rect", {x: 0, y: 0, width: W, height: MAP_H, rx: 8, class: "sea"}));
    const majors = Object.fromEntries(view.map.map((m) => [m.location, m]));
    const radius = (id) => (majors[id] ? MAJOR_R : MINOR_R);
    // Routes first, from rim to rim: beneath the circles, never through a count.
    for (const [a, b] of ROUTES) {
      const [x1, y1] = PLACES[a], [x2, y2] = PLACES[b];
      const length = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / length, uy = (y2 - y1) / length;
      const line = s("line", {x1: x1 + ux * (radius(a) + 2), y1: y1 + uy * (radius(a) + 2),
        x2: x2 - ux * (radius(b) + 2), y2: y2 - uy * (radius(b) + 2), class: "route", "data-route": `${a}-${b}`});
      svg.append(Arena.explain(line, `trade route ${placeName(a)} – ${placeName(b)}: a trip to either restocks the other`));
    }
    for (const [id, [x, y, name]] of Object.entries(PLACES)) {
      const major = majors[id];
      const place = s("g", {class: `place ${major ? "major" : "minor"}`, "data-location": id});
      place.append(s("circle", {cx: x, cy: y, r: radius(id), fill: major ? PAINT[major.colour] : "#f7f3ea", class: "city"}));
      if (major) place.append(s("text", {x, y: y + 5, "text-anchor": "middle", class: "cube-count", text: major.cubes}));
      place.append(s("text", {x, y: y + radius(id) + 14, "text-anchor": "middle", class: "place-name", text: name}));
      svg.append(Arena.explain(place, major
        ? `${name}: a major; ${count(major.cubes, `${words(major.colour)} cube`)} to take`
        : `${name}: a minor; holds no cubes, a trip there restocks the majors`));
    }
    const action = frame.action;
    if (action && action.location && PLACES[action.location]) {
      const [x, y] = PLACES[action.location];
      svg.append(s("circle", {cx: x, cy: y, r: radius(action.location) + 5, class: "target"}));
    }
    if (view.figure && PLACES[view.figure]) svg.append(merchant(view.figure, radius(view.figure)));
    svg.append(pools(view));
    return svg;
  }

  // A pawn at the upper right of its place's circle, clear of the name below it.
  function merchant(id, r) {
    const [x, y] = PLACES[id];
    const px = x + r * 0.75 + 9, py = y - r * 0.75 - 6;
    const pawn = s("path", {d: `M${px - 9} ${py + 11} L${px + 9} ${py + 11} L${px + 4} ${py - 3} A6.5 6.5 0 1 0 ${px - 4} ${py - 3} Z`,
      class: "merchant", "data-piece": "merchant"});
    return Arena.explain(pawn, `the merchant figure: in ${placeName(id)}, where the last trip went`);
  }

  // The cubes left in each colour's pool, in a strip below the map (never under the figure).
  function pools(view) {
    const strip = s("g", {class: "pools"});
    strip.append(s("text", {x: 10, y: MAP_H + 30, class: "strip-label", text: "pools"}));
    view.pools.forEach((left, index) => {
      const colour = COLOURS[index], x = 62 + index * 67;
      const pool = s("g", {"data-piece": "pool"});
      pool.append(Arena.explain(s("rect", {x, y: MAP_H + 16, width: 18, height: 18, rx: 3, fill: PAINT[colour], class: "cube"}),
        `pool of ${words(colour)} cubes: ${left} left`));
      pool.append(s("text", {x: x + 23, y: MAP_H + 30, class: "pool-count", text: left}));
      strip.append(pool);
    });
    return strip;
  }

  // --- the time board ---------------------------------------------------------------------
  const CELL = 34;
  function timeBoard(view) {
    const size = 6 * CELL + 26;
    const svg = Arena.svg(size, size + 4);
    svg.classList.add("fit", "time-board");
    svg.setAttribute("aria-label", "time board");
    const at = Object.fromEntries(view.time_board.map((m) => [`${m.row},${m.space}`, m]));
    const next = view.time_board[0];
    for (let i = 1; i <= 6; i++) {
      svg.append(s("text", {x: 26 + (i - 1) * CELL + CELL / 2, y: 14, "text-anchor": "middle", class: "axis", text: i}));
      svg.append(s("text", {x: 10, y: 22 + (i - 1) * CELL + CELL / 2 + 4, "text-anchor": "middle", class: "axis", text: i}));
    }
    for (let row = 1; row <= 6; row++) {
      for (let space = 1; space <= 6; space++) {
        const x = 24 + (space - 1) * CELL, y = 20 + (row - 1) * CELL;
        svg.append(s("rect", {x, y, width: CELL - 2, height: CELL - 2, rx: 3, class: "time-space", "data-piece": "time-space"}));
        const marker = at[`${row},${space}`];
        if (!marker) continue;
        const isNext = marker === next;
        const token = s("g", {class: `time-marker${marker.letters ? " face-up" : ""}${isNext ? " next" : ""}`,
          "data-piece": "time-marker", "data-at": `${row},${space}`});
        token.append(s("rect", {x: x + 3, y: y + 3, width: CELL - 8, height: CELL - 8, rx: 5}));
        if (marker.letters) {
          token.append(s("text", {x: x + CELL / 2 - 1, y: y + CELL / 2 + 4, "text-anchor": "middle", class: "letters", text: marker.letters}));
        } else {  // an hourglass: the face-down side
          const cx = x + CELL / 2 - 1, cy = y + CELL / 2 - 1;
          token.append(s("path", {d: `M${cx - 6} ${cy - 8} h12 l-12 16 h12 z`, class: "hourglass"}));
        }
        const side = marker.letters
          ? `face up, ${marker.letters}: spoilage of column ${marker.letters[0]}, ${count(marker.letters.length, "cube")} per trader`
          : "face down (its letters are hidden)";
        svg.append(Arena.explain(token, `time marker, row ${row} space ${space}, ${side}${isNext ? "; the next one taken" : ""}`));
      }
    }
    return h("figure", {class: "mk-time"}, [h("figcaption", {text: `time board: ${count(view.time_board.length, "space")} left${next ? " (outlined: the next one taken)" : ""}`}), svg]);
  }

  // --- cards ------------------------------------------------------------------------------
  function goodChip(good, n) {
    return h("span", {class: "good"}, [h("span", {class: `cube cube-${goodColour(good).toLowerCase()}`}), `${n} ${words(good)}`]);
  }

  function contractCard(c, extraClass) {
    const card = h("div", {class: `mcard contract${c.location ? "" : " peace"}${extraClass || ""}`, "data-piece": "contract"}, [
      h("div", {class: "mcard-head"}, [h("span", {class: "mcard-id", text: c.id}), h("span", {class: "mcard-value", text: c.value})]),
      h("div", {class: "mcard-place", text: c.location ? placeName(c.location) : "Peace of Westphalia"}),
      h("div", {class: "mcard-goods"}, c.goods.map((g) => goodChip(g.good, g.count))),
    ]);
    return Arena.explain(card, contractWords(c), c.id);
  }

  function piles(view) {
    const row = h("div", {class: "mk-piles"});
    for (const pile of view.piles) {
      const cards = count(pile.count, "card");
      const top = pile.top;
      if (top) Arena.idWords[top.id] = contractWords(top);
      const drawn = h("div", {class: `pile${pile.count ? "" : " empty"}`, "data-piece": "contract-pile"}, [
        h("div", {class: "pile-value", text: pile.value}),
        h("div", {class: "pile-count", text: `×${pile.count}`}),
        h("div", {class: "pile-top", text: top ? top.id : "empty"}),
        top ? h("div", {class: "pile-top", text: top.location ? placeName(top.location) : "Peace"}) : null,
      ]);
      row.append(Arena.explain(drawn, `pile of value-${pile.value} contracts: ${cards}` + (top ? `; on top ${contractWords(top)}` : "")));
    }
    const discard = h("div", {class: "pile discard", "data-piece": "contract-discard"}, [
      h("div", {class: "pile-value", text: "discard"}), h("div", {class: "pile-count", text: `×${view.discard_count}`}),
      h("div", {class: "pile-top", text: "face down"})]);
    row.append(Arena.explain(discard, `contract discard pile, face down: ${count(view.discard_count, "card")}; an empty pile is rebuilt from it`));
    return h("figure", {class: "mk-contracts"}, [h("figcaption", {text: "contract piles (value, cards, top card)"}), row]);
  }

  function slotCard(piece, card, describe, body) {
    if (!card) return Arena.explain(h("div", {class: "mcard slot empty", "data-piece": piece, text: "empty"}), "an empty slot: its deck has run out");
    const drawn = h("div", {class: "mcard slot", "data-piece": piece}, [
      h("div", {class: "mcard-head"}, [h("span", {class: "mcard-id", text: card.id}), h("span", {class: "mcard-cost", text: `${card.cost} ¢`})]),
      ...body(card)]);
    return Arena.explain(drawn, describe(card), card.id);
  }

  const bonusBody = (b) => [h("div", {class: "mcard-place", text: placeName(b.location)}), h("div", {class: "mcard-goods"}, [goodChip(b.good, 2)])];
  const buildingBody = (b) => [h("div", {class: "mcard-place", text: b.name}), h("div", {class: "mcard-rule", text: b.rule})];

  function displays(view, chosen) {
    const mark = (kind) => (slot, index) => {
      const card = slotCard(`${kind}-slot`, slot.card, kind === "bonus" ? bonusWords : buildingWords, kind === "bonus" ? bonusBody : buildingBody);
      if (chosen.option === `BUY_${kind.toUpperCase()}` && chosen.slot === index + 1) card.classList.add("chosen");
      return card;
    };
    const deck = (piece, what, n) => Arena.token(piece, `${what} deck`, n, `${what} deck, face down: ${count(n, "card")}`, "deck");
    return h("div", {class: "mk-displays"}, [
      h("figure", {}, [h("figcaption", {text: "bonus cards for sale"}), h("div", {class: "mk-row"}, [
        ...view.bonus_slots.map(mark("bonus")),
        deck("bonus-deck", "bonus", view.bonus_deck_count)])]),
      h("figure", {}, [h("figcaption", {text: "buildings for sale"}), h("div", {class: "mk-row"}, [
        ...view.building_slots.map(mark("building")),
        deck("building-deck", "building", view.building_deck_count)])]),
    ]);
  }

  // --- the traders ------------------------------------------------------------------------
  function kontor(player) {
    const columns = Object.entries(COLUMNS).map(([letter, goods]) => h("div", {class: "kontor-column"}, [
      h("div", {class: "kontor-letter", text: letter}),
      ...goods.map((good) => {
        const index = GOODS.indexOf(good), n = player.kontor[index];
        const cell = h("div", {class: `kontor-good${n ? "" : " none"}`, "data-piece": "kontor-good", "data-index": index}, [
          h("span", {class: `cube cube-${goodColour(good).toLowerCase()}`}), h("span", {class: "n", text: n}), " ", h("span", {class: "name", text: words(good)})]);
        return Arena.explain(cell, `${words(good)}: ${count(n, "cube")} in the Kontor (column ${letter})`);
      })]));
    return h("div", {class: "kontor"}, columns);
  }

  // The chosen action's card (a contract sold or fulfilled, a slot bought) is outlined.
  function playerPanel(player, deciding, active, chosen) {
    const tile = player.tile.map((colour) => Arena.explain(
      h("span", {class: `cube cube-${colour.toLowerCase()}`, "data-piece": "tile-cube"}), `a ${words(colour)} cube on the supply tile`));
    return h("div", {class: `player${deciding ? " deciding" : ""}`}, [
      h("h3", {class: `seat-${player.seat}`}, [h("span", {class: "swatch"}), Arena.seatLabel(player.seat), active ? h("span", {class: "tag", text: "active"}) : null]),
      h("div", {class: "fields"}, [
        Arena.token("coins", "", count(player.coins, "coin"), "coins: spent on bonus cards and buildings; at most 15 after investing"), " · ",
        Arena.token("markers", "", count(player.markers, "time marker"), "time markers: paid for trips and joining; the tie-break at the end"),
      ]),
      h("div", {class: "field-label", text: `contracts (${player.contracts.length})`}),
      h("div", {class: "mcards"}, player.contracts.map((held) => contractCard(held.contract,
        (held.fulfilled_this_turn ? " done" : "") + (deciding && chosen.contract === held.contract.id ? " chosen" : "")))),
      h("div", {class: "field-label", text: "Kontor (columns A–F)"}),
      kontor(player),
      h("div", {class: "field-label"}, ["supply tile: ", ...(tile.length ? tile : ["empty"])]),
      player.bonus_cards.length ? h("div", {class: "field-label", text: "bonus cards"}) : null,
      player.bonus_cards.length ? h("div", {class: "mcards"}, player.bonus_cards.map((b) => slotCard("bonus-card", b, bonusWords, bonusBody))) : null,
      player.buildings.length ? h("div", {class: "field-label", text: "buildings"}) : null,
      player.buildings.length ? h("div", {class: "mcards"}, player.buildings.map((b) => slotCard("building", b, buildingWords, buildingBody))) : null,
    ]);
  }

  function status(view) {
    if (!view.decision) return "game over";
    const parts = [`round ${view.round} of at most ${view.max_rounds}`, `turn ${view.turn}`,
      `${Arena.seatLabel(view.active_seat)} active`, `seat ${view.deciding_seat} decides: ${words(view.decision)}`];
    if (view.final_phase) parts.push(`final round: ${count(view.final_turns_left, "turn")} left`);
    else if (view.end_triggered) parts.push("end triggered");
    if (view.spoil_letters) parts.push(`spoilage ${view.spoil_letters}`);
    return parts.join(" · ");
  }

  Arena.boards.merkator = function ({board, players, frame}) {
    if (Arena.hideExplanation) Arena.hideExplanation();
    const views = frame.views;
    const view = views[Object.keys(views)[0]];
    board.append(h("div", {class: "info", text: status(view)}));
    board.append(map(view, frame));
    board.append(h("div", {class: "mk-tables"}, [timeBoard(view), piles(view)]));
    board.append(displays(view, frame.action || {}));
    for (const player of view.players) {
      // A finished game still names its last active seat: nobody's turn, so no tag.
      players.append(playerPanel(player, frame.seat === player.seat, Boolean(view.decision) && view.active_seat === player.seat, frame.action || {}));
    }
  };
})(window.Arena);
