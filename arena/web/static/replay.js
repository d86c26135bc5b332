// The replay viewer: steps through a stored game decision by decision, as the referee or as one
// seat. Frames come from /api/games/ID/frames in chunks; watched as a seat, the server sends that
// seat's view only (see arena/web/replay.py), so nothing hidden from it ever reaches the page.
// A lost connection is tried again (Arena.getJSON, dom.js): only the server's answer (409: the
// engine cannot replay the game) ends the viewer.
"use strict";
(function (Arena) {
  const root = document.getElementById("replay");
  const page = JSON.parse(document.getElementById("page-data").textContent);
  const gameId = Number(root.dataset.gameId);
  const game = root.dataset.game;
  const players = Number(root.dataset.players);
  const chunkSize = Number(root.dataset.chunk);
  Arena.seatNames = page.seats.map((seat) => seat.bot);
  const $ = (id) => document.getElementById(id);
  const ui = {first: $("first"), prev: $("prev"), play: $("play"), next: $("next"),
              last: $("last"), speed: $("speed"), slider: $("slider"), position: $("position"),
              seat: $("seat"), board: $("board"), players: $("players"), decision: $("decision"),
              chart: $("score-chart"), scoreTitle: $("score-title"), said: $("position-said")};

  const state = {seat: "referee", current: 0, outline: null, chunks: new Map(), timer: null,
                 chart: null, shown: -1, generation: 0};
  // For tests and the curious: everything this page received from the server.
  Arena.replay = {state, received: []};

  function readLocation() {
    const params = new URLSearchParams(location.search);
    const seat = params.get("seat");
    state.seat = seat !== null && /^\d+$/.test(seat) && Number(seat) < players ? seat : "referee";
    state.current = Math.max(0, parseInt(params.get("d") || "0", 10) || 0);
    ui.seat.value = state.seat;
  }

  function writeLocation() {
    const params = new URLSearchParams({d: String(state.current)});
    if (state.seat !== "referee") params.set("seat", state.seat);
    history.replaceState(null, "", `${location.pathname}?${params}`);
  }

  const getJSON = (url) => Arena.getJSON(url, {seen: (asked, body) => Arena.replay.received.push({url: asked, body})});

  const seatQuery = () => `seat=${encodeURIComponent(state.seat)}`;

  // The outline, and at the same time the chunk of frames to show first: a long game opens in
  // one round trip, not two. False if another seat was chosen meanwhile.
  async function loadOutline() {
    const generation = state.generation;
    state.outline = null;
    state.chunks = new Map();
    const outline = getJSON(`/api/games/${gameId}/replay?${seatQuery()}`);
    chunk(Math.floor(state.current / chunkSize));
    const loaded = await outline;
    if (generation !== state.generation) return false;
    state.outline = loaded;
    ui.slider.max = String(state.outline.outline.length - 1);
    // The decision log (decision_log.js) loads the same seat's log.
    root.dispatchEvent(new CustomEvent("replay:outline", {detail: {seat: state.seat, getJSON,
      outline: state.outline, current: () => state.current, jump: (number) => { stop(); show(number); }}}));
    return true;
  }

  function chunk(index) {
    if (!state.chunks.has(index)) {
      const size = chunkSize;
      const promise = getJSON(`/api/games/${gameId}/frames?${seatQuery()}&start=${index * size}&count=${size}`)
        .then((body) => body.frames);
      const chunks = state.chunks;  // another seat's, once one is chosen
      promise.catch(() => { if (chunks.get(index) === promise) chunks.delete(index); });
      chunks.set(index, promise);
    }
    return state.chunks.get(index);
  }

  async function frame(number) {
    const size = chunkSize;
    const index = Math.floor(number / size);
    const frames = await chunk(index);
    if (number % size > size / 2 && (index + 1) * size < state.outline.outline.length) {
      chunk(index + 1);  // prefetch while stepping or playing towards it
    }
    return frames[number - index * size];
  }

  // Shows decision ``number`` once its frame is here (over a lost connection, once it is back).
  async function show(number) {
    if (!state.outline) return;
    const last = state.outline.outline.length - 1;
    state.current = Math.min(Math.max(0, number), last);
    const generation = state.generation;
    const wanted = state.current;
    let data;
    try {
      data = await frame(wanted);
    } catch (error) {  // the server's answer: this game cannot be replayed (409)
      if (generation === state.generation) failed(error);
      return;
    }
    if (generation !== state.generation || wanted !== state.current) return;  // superseded
    render(data);
    state.shown = wanted;
    ui.slider.value = String(wanted);
    const end = state.outline.result ? "final" : "stopped";
    ui.position.textContent = data.final ? `${end} (${last} decisions)` : `decision ${wanted} / ${last}`;
    if (!state.timer) say();  // not at every step of playback: a screen reader would say nothing else
    writeLocation();
    markChart();
    root.dataset.shown = String(wanted);
    root.dispatchEvent(new CustomEvent("replay:shown", {detail: {number: wanted}}));
  }

  // --- the decision panel ----------------------------------------------------------------
  function renderDecision(data) {
    const {h} = Arena;
    const panel = ui.decision;
    panel.replaceChildren();
    if (data.final) {
      const result = state.outline.result;
      if (!result) {  // a voided game: stopped by a fault on the arena's side, not at its end
        panel.append(h("h3", {text: "The game stopped here"}));
        panel.append(h("p", {class: "error", text: page.status === "voided"
          ? `This game was voided: ${page.termination}. Not rated${page.tournament_id ? "; its tournament plays the deal again" : ""}.`
          : `It did not reach its end: ${page.termination}.`}));
        return;
      }
      panel.append(h("h3", {text: "Final position"}));
      // The arena's ranks, as the seats table shows them: a seat that forfeited ranks after
      // those that finished, whatever the engine's score gave it.
      const list = h("ol", {class: "final"});
      const stored = [...page.seats].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
      for (const {seat, rank, outcome, reason} of stored) {
        list.append(h("li", {class: `seat-${seat}`, value: rank}, [
          h("span", {class: "swatch"}), ` ${Arena.seatLabel(seat)}: ${result.scores[seat]}`,
          result.details[seat] ? h("span", {class: "muted small", text: ` (${result.details[seat]})`}) : null,
          outcome !== "FINISHED" ? h("span", {class: "tag forfeit", title: reason, text: outcome}) : null]));
      }
      panel.append(list);
      return;
    }
    panel.append(h("h3", {}, [`Decision ${data.number}: `,
      h("span", {class: "decision-kind", text: data.decision || data.kind})]));
    panel.append(h("div", {class: `seat-${data.seat}`}, [h("span", {class: "swatch"}), ` ${Arena.seatLabel(data.seat)} decides`]));
    if (!("legal" in data)) {
      panel.append(h("p", {class: "hidden-note",
        text: `Watching as seat ${state.seat}: seat ${data.seat}'s options, time and comment are not in this seat's view; what it did shows in the log where the game makes it public.`}));
      return;
    }
    const details = [];
    if (data.seconds !== null && data.seconds !== undefined) details.push(`took ${(data.seconds * 1000).toFixed(1)} ms`);
    else if (state.outline.has_decision_details) details.push("decided by the arena: the seat had forfeited");
    else details.push("time not recorded (stored before schema 2)");
    details.push(`${data.legal.length} legal action${data.legal.length === 1 ? "" : "s"}`);
    panel.append(h("div", {class: "muted small", text: details.join(" · ")}));
    if (data.comment) panel.append(h("div", {class: "comment", text: data.comment}));
    // focusable: a keyboard scrolls a long list too
    const list = h("ol", {class: "legal", start: "0", tabindex: "0", "aria-label": "legal actions"});
    let chosen = null;
    data.legal.forEach((words, index) => {
      const item = h("li", {class: index === data.chosen ? "chosen" : null, text: words});
      if (index === data.chosen) chosen = item;
      list.append(item);
    });
    panel.append(list);
    if (chosen) scrollWithin(list, chosen);
  }

  // Scrolls the list alone so that the item shows: scrollIntoView would scroll the page too, and
  // on a phone this panel is below the board, which would leave the screen at every step.
  function scrollWithin(list, item) {
    const box = list.getBoundingClientRect(), line = item.getBoundingClientRect();
    if (line.top < box.top) list.scrollTop += line.top - box.top;
    else if (line.bottom > box.bottom) list.scrollTop += line.bottom - box.bottom;
  }

  function render(data) {
    renderDecision(data);
    const draw = Arena.boards[game];
    ui.board.replaceChildren();
    ui.players.replaceChildren();
    if (draw) draw({board: ui.board, players: ui.players, frame: data});
    else ui.board.append(Arena.h("pre", {class: "views", text: JSON.stringify(data.views, null, 1)}));
  }

  // --- the score chart -------------------------------------------------------------------
  const SEAT_COLOURS = ["#d1495b", "#2e86ab", "#e0a21b", "#5c9e5f", "#8e6c8a"];
  const nowLine = {
    id: "nowLine",
    afterDatasetsDraw(chart) {
      const x = chart.scales.x.getPixelForValue(state.current);
      const {top, bottom} = chart.chartArea;
      const ctx = chart.ctx;
      ctx.save();
      ctx.strokeStyle = Chart.defaults.color;  // dark mode lightens it (chart-theme.js)
      ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
      ctx.restore();
    },
  };

  // Chart.js neither wraps nor clips a legend entry: a long bot name is cut short here.
  const LEGEND_CHARACTERS = 28;
  const legendLabel = (text) =>
    text.length > LEGEND_CHARACTERS ? `${text.slice(0, LEGEND_CHARACTERS - 1)}…` : text;

  function drawChart() {
    ui.scoreTitle.textContent = `Scores: ${state.outline.score_label}`;
    if (state.chart) state.chart.destroy();
    if (typeof Chart === "undefined") return;
    const scores = state.outline.scores;
    const labels = scores.map((_, index) => index);
    const datasets = [];
    for (let seat = 0; seat < players; seat++) {
      datasets.push({label: legendLabel(Arena.seatLabel(seat)), data: scores.map((row) => row[seat]),
        borderColor: SEAT_COLOURS[seat], backgroundColor: SEAT_COLOURS[seat],
        pointRadius: 0, borderWidth: 2, stepped: true});
    }
    state.chart = new Chart(ui.chart, {
      type: "line", data: {labels, datasets}, plugins: [nowLine],
      options: {animation: false, maintainAspectRatio: false, responsive: true,
        interaction: {mode: "index", intersect: false},
        scales: {x: {type: "linear", min: 0, max: labels.length - 1, title: {display: true, text: "decision"}},
                 y: {beginAtZero: true}},
        plugins: {legend: {labels: {boxWidth: 10}}},
        onClick: (event, elements, chart) => {
          const value = chart.scales.x.getValueForPixel(event.x);
          stop(); show(Math.round(value));
        }},
    });
  }

  function markChart() { if (state.chart) state.chart.draw(); }

  // The position, told to a screen reader (#position-said is a polite live region).
  function say() { ui.said.textContent = ui.position.textContent; }

  // --- controls --------------------------------------------------------------------------
  function stop() {
    if (state.timer) clearInterval(state.timer);
    state.timer = null;
    ui.play.textContent = "▶ play";
    ui.play.setAttribute("aria-label", "play");
    ui.play.classList.remove("playing");
  }

  function play() {
    if (state.timer) { stop(); say(); return; }
    if (!state.outline) return;  // not loaded yet
    const last = state.outline.outline.length - 1;
    if (state.current >= last) show(0);
    ui.play.textContent = "❚❚ pause";
    ui.play.setAttribute("aria-label", "pause");
    ui.play.classList.add("playing");
    const tick = () => {
      if (state.shown !== state.current) return;  // the frame is not here yet (a slow connection)
      if (state.current >= last) { stop(); say(); return; }
      show(state.current + 1);
    };
    state.timer = setInterval(tick, 1000 / Number(ui.speed.value));
  }

  function step(delta) { stop(); show(state.current + delta); }

  async function changeSeat() {
    stop();
    state.seat = ui.seat.value;
    state.generation += 1;
    const generation = state.generation;
    // Until the seat's frames arrive nothing of the previous view stays under its label.
    root.dataset.loading = "1";
    ui.board.replaceChildren();
    ui.players.replaceChildren();
    ui.decision.replaceChildren(Arena.h("p", {class: "muted",
      text: `Loading ${state.seat === "referee" ? "the referee's view" : `seat ${state.seat}'s view`}…`}));
    try {
      if (await loadOutline()) {
        await show(state.current);
        drawChart();
      }
    } catch (error) {
      if (generation === state.generation) failed(error);
    } finally {
      if (generation === state.generation) delete root.dataset.loading;
    }
  }

  // A game the engine cannot replay: only why, no empty board or controls.
  function failed(error) {
    stop();
    root.classList.add("failed");
    const note = Arena.h("p", {class: "error", id: "replay-error",
      text: `Cannot replay this game: ${error.message}`});
    const before = document.getElementById("replay-error");
    if (before) before.replaceWith(note);
    else root.before(note);
  }

  ui.first.addEventListener("click", () => { stop(); show(0); });
  ui.prev.addEventListener("click", () => step(-1));
  ui.next.addEventListener("click", () => step(1));
  ui.last.addEventListener("click", () => { stop(); show(Infinity); });
  ui.play.addEventListener("click", play);
  ui.speed.addEventListener("change", () => { if (state.timer) { stop(); play(); } });
  ui.slider.addEventListener("input", () => { stop(); show(Number(ui.slider.value)); });
  ui.seat.addEventListener("change", changeSeat);
  Arena.menuKeys(ui.speed);
  Arena.menuKeys(ui.seat);
  // What took the focus from a click or a tap (not from the Tab key).
  let pointing = false, clicked = null;
  document.addEventListener("pointerdown", () => { pointing = true; }, true);
  document.addEventListener("keydown", () => { pointing = false; }, true);
  document.addEventListener("focusin", (event) => { clicked = pointing ? event.target : null; });
  // The viewer's keys: ← → step, Home and End go to either end, Space plays and pauses. Not
  // when what has the focus takes the key itself: a menu or a text field every key, a box that
  // scrolls (the board on a phone, the legal actions) every key once the Tab key reached it, a
  // button or link Space (it presses the one); and never with Alt, Ctrl or Meta: those are the
  // browser's (Alt+← is Back).
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target instanceof Element ? event.target : document.body;
    if (target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement || target.isContentEditable ||
        target instanceof HTMLInputElement && target.type !== "range") return;
    let control = target.closest("a[href], button, summary, [tabindex]:not([tabindex='-1'])");
    if (control && !control.matches("a[href], button, summary")) {  // a box that scrolls
      if (control !== clicked) return;  // reached with the Tab key: its keys scroll it
      control = null;  // clicked: the keys step as anywhere on the page
    }
    if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
    else if (event.key === "Home") { event.preventDefault(); stop(); show(0); }
    else if (event.key === "End") { event.preventDefault(); stop(); show(Infinity); }
    else if (event.key === " " && !control) { event.preventDefault(); play(); }
  });

  readLocation();
  // The chart after the first frame: the board shows first.
  const opening = state.generation;
  loadOutline()
    .then(async (loaded) => { if (loaded) { await show(state.current); drawChart(); } })
    .catch((error) => { if (opening === state.generation) failed(error); });  // else a seat's load took over
})(window.Arena);
