// Games in play. On /live: the list, refreshed every few seconds. On /live/ID: one game followed
// as it happens, polling /api/live/ID?after=N once a second for the decisions not seen yet and
// the position now (arena/web/live.py says why polling); in the spectator view alone, so the
// page never holds what one seat alone knows. Once the game is recorded, its replay opens.
// A lost connection (a server restarting) is tried again (Arena.getJSON, dom.js) and the game
// followed on: only the server's answer ends it (gone, recorded, its process stopped).
"use strict";
(function (Arena) {
  const LIST_POLL_MS = 3000;
  const RECEIVED_KEPT = 20;  // the answers Arena.live.received keeps: the last ones

  // --- /live: the list ---------------------------------------------------------------------
  const list = document.getElementById("live-list");
  if (list) {
    const refresh = async () => {
      try {
        const html = await (await fetch(location.href)).text();
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live-list");
        if (fresh) document.getElementById("live-list").replaceWith(document.adoptNode(fresh));
      } catch (error) {
        console.warn("live list refresh failed:", error.message);
      }
      setTimeout(refresh, LIST_POLL_MS);
    };
    setTimeout(refresh, LIST_POLL_MS);
  }

  // --- /live/ID: one game ------------------------------------------------------------------
  const root = document.getElementById("live-game");
  if (!root) return;
  const page = JSON.parse(document.getElementById("page-data").textContent);
  Arena.seatNames = page.seats.map((seat) => seat.bot);
  const liveId = Number(root.dataset.liveId);
  const game = root.dataset.game;
  const players = Number(root.dataset.players);
  const $ = (id) => document.getElementById(id);
  const ui = {board: $("board"), players: $("players"), decision: $("decision"), position: $("position"),
              follow: $("follow"), state: $("live-state"), note: $("live-note"), log: $("log")};
  // For tests and the curious: where this page stands, how many answers it received and the
  // last RECEIVED_KEPT of them (all of them would grow for as long as the game: megabytes).
  const state = {after: 0, latest: null, shown: null, following: true, received: [], answers: 0, asked: 0};
  Arena.live = state;
  const seen = (url, body) => {
    state.answers += 1;
    state.received.push({url, body});
    if (state.received.length > RECEIVED_KEPT) state.received.splice(0, state.received.length - RECEIVED_KEPT);
  };

  const log = new Arena.DecisionLog(ui.log, {players, title: "Decision log (public)",
    jump: (number) => showDecision(number), current: () => (state.shown === null ? Infinity : state.shown)});

  function render(frame) {
    const {h} = Arena;
    ui.decision.replaceChildren();
    if (frame.final) {
      ui.decision.append(h("h3", {text: "The game is over"}), h("p", {class: "muted", text: "Its record is being stored; the replay opens in a moment."}));
    } else {
      ui.decision.append(h("h3", {}, [`Decision ${frame.number}: `, h("span", {class: "decision-kind", text: frame.decision || frame.kind})]));
      ui.decision.append(h("div", {class: `seat-${frame.seat}`}, [h("span", {class: "swatch"}), ` ${Arena.seatLabel(frame.seat)} decides`]));
      ui.decision.append(h("p", {class: "hidden-note", text: "Spectator view: the options, choice, time and comment of a decision are shown once the game is recorded."}));
    }
    ui.board.replaceChildren();
    ui.players.replaceChildren();
    const draw = Arena.boards[game];
    if (draw) draw({board: ui.board, players: ui.players, frame});
    else ui.board.append(h("pre", {class: "views", text: JSON.stringify(frame.views, null, 1)}));
    state.shown = frame.number;
    root.dataset.shown = String(frame.number);
    log.mark(state.following ? frame.number - 1 : frame.number);  // following: the latest decision
    const now = state.latest ? state.latest.number : frame.number;
    ui.position.textContent = state.following ? `decision ${now} · live` : `decision ${frame.number} of ${now} so far`;
    ui.follow.disabled = state.following;
  }

  function showScores(scores) {
    if (!scores) return;
    for (const cell of document.querySelectorAll("[data-score]")) {
      const value = scores[Number(cell.dataset.score)];
      if (value !== undefined) cell.textContent = String(value);
    }
  }

  async function showDecision(number) {
    if (state.latest && number >= state.latest.number) { follow(); return; }
    state.following = false;
    const asked = ++state.asked;  // the last decision asked for is the one shown
    try {
      const body = await Arena.getJSON(`/api/live/${liveId}/frames?start=${number}&count=1`, {seen});
      if (!state.following && asked === state.asked && body.frames.length) render(body.frames[0]);
    } catch (error) {
      ui.note.textContent = `Cannot show decision ${number}: ${error.message}`;
    }
  }

  function follow() {
    state.following = true;
    if (state.latest) render(state.latest);
  }

  function ended(text) {
    ui.state.textContent = "ended";
    ui.state.classList.remove("live-dot");
    ui.note.textContent = text;
    ui.note.classList.add("error");
  }

  async function poll() {
    let body;
    try {  // a lost connection is tried again until the server answers
      body = await Arena.getJSON(`/api/live/${liveId}?after=${state.after}`, {seen});
    } catch (error) {  // the server's answer: gone (404), or it cannot be shown
      ended(error.status === 404 ? `This game is no longer in play: ${error.message}` : `This game cannot be followed: ${error.message}`);
      return;
    }
    if (body.state === "recorded") {
      ui.note.textContent = "The game is over and recorded: opening its replay…";
      location.replace(`/games/${body.game_id}?d=${body.decisions}`);
      return;
    }
    // a deal whose other rotations are to come: its progress only, no board (arena.css)
    root.classList.toggle("held", Boolean(body.held));
    if (body.held) {
      ui.note.textContent = `Not shown yet: ${body.held_reason}.`;
      ui.position.textContent = `decision ${body.decisions} · live`;
      ui.decision.replaceChildren(Arena.h("p", {class: "hidden-note", text: "The board and the moves show once the deal's other seat rotations are played, or when this game's replay opens."}));
      if (body.state === "stale") { ended("The process playing this game stopped (stopped or killed): no more moves will come."); return; }
      setTimeout(poll, page.poll_seconds * 1000);
      return;
    }
    if (state.after === 0) log.reset(body.setup, body.entries, body.first_scores);
    else log.append(body.entries);
    const last = body.entries.length ? body.entries[body.entries.length - 1].scores : null;
    if (last || state.after === 0) showScores(last || body.first_scores);
    state.after = body.frame.number;
    state.latest = body.frame;
    if (state.following) render(body.frame);
    else ui.position.textContent = `decision ${state.shown} of ${body.frame.number} so far`;
    if (body.state === "stale") {  // the position it reached stays shown
      ended("The process playing this game stopped (stopped or killed): no more moves will come. A resumed tournament, or its ladder started again, plays the game anew.");
      return;
    }
    setTimeout(poll, page.poll_seconds * 1000);
  }

  ui.follow.addEventListener("click", follow);
  poll();
})(window.Arena);
