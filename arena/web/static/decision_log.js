// The decision log: every decision of a game and what became known after it, in words, as one
// viewer saw it (the server builds it from that viewer's frames alone: arena/web/decision_log.py).
// A click jumps to the decision; "show" keeps one seat's decisions; keys 0-9 jump to the next
// decision of that seat (with Shift, the previous one). The replay page and the live page both
// use it: Arena.DecisionLog below, and at the end its wiring into the replay viewer.
"use strict";
(function (Arena) {
  const {h} = Arena;

  function duration(seconds) {
    return seconds < 1 ? `${(seconds * 1000).toFixed(seconds < 0.01 ? 1 : 0)} ms` : `${seconds.toFixed(2)} s`;
  }

  const signed = (value) => `${value > 0 ? "+" : ""}${Math.round(value * 100) / 100}`;

  class DecisionLog {
    // panel: the element to fill; players: the seat count; jump(number): show that decision;
    // current(): the decision shown now.
    constructor(panel, {players, jump, current, title}) {
      this.panel = panel;
      this.players = players;
      this.jump = jump;
      this.current = current;
      this.entries = [];
      this.previousScores = null;
      this.filter = "all";
      this.items = new Map();
      const choices = [h("option", {value: "all", text: "every seat"})];
      for (let seat = 0; seat < players; seat++) {
        choices.push(h("option", {value: String(seat), text: `${Arena.seatLabel(seat)} only`}));
      }
      this.select = h("select", {id: "log-filter", "aria-label": "show the decisions of"}, choices);
      this.select.addEventListener("change", () => {
        this.filter = this.select.value;
        this.applyFilter();
      });
      Arena.menuKeys(this.select);  // picked with the mouse, the keys go back to the page
      this.list = h("ol", {class: "decision-log", id: "log-list"});
      this.list.addEventListener("click", (event) => {
        const item = event.target.closest("li[data-number]");
        if (item) this.jump(Number(item.dataset.number));
      });
      const keys = players > 1 ? `keys 0-${Math.min(players, 10) - 1}: next decision of that seat (Shift: previous)` : "";
      panel.replaceChildren(
        h("div", {class: "log-head"}, [h("h3", {text: title || "Decision log"}),
          h("label", {class: "small"}, ["show ", this.select])]),
        h("p", {class: "muted small", text: `a click jumps to the decision${keys ? "; " + keys : ""}`}),
        this.list);
      document.addEventListener("keydown", (event) => this.onKey(event));
    }

    // Everything anew: the events before the first decision, the entries, the scores before it.
    reset(setup, entries, firstScores) {
      this.list.replaceChildren();
      this.items.clear();
      this.entries = [];
      this.previousScores = firstScores;
      if (setup && setup.length) {
        this.list.append(h("li", {class: "setup"}, [h("div", {class: "small muted", text: "before the first decision"}),
          this.eventList(setup)]));
      }
      this.append(entries);
    }

    append(entries) {
      const deltas = [];
      for (const entry of entries) {
        if (this.items.has(entry.number)) continue;
        const changes = this.scoreChanges(entry);
        deltas.push(...changes.map(([, delta]) => Math.abs(delta)));
        const item = this.render(entry, changes);
        this.items.set(entry.number, item);
        this.entries.push(entry);
        this.list.append(item);
      }
      this.markJumps();
      this.applyFilter();
    }

    scoreChanges(entry) {
      const before = this.previousScores, after = entry.scores;
      if (after) this.previousScores = after;
      if (!before || !after) return [];
      const changes = [];
      after.forEach((score, seat) => { if (score !== before[seat]) changes.push([seat, score - before[seat]]); });
      return changes;
    }

    // A score change is a jump when it is among the largest tenth of the game's changes so far.
    markJumps() {
      const all = [];
      for (const item of this.items.values()) {
        for (const badge of item.querySelectorAll(".delta")) all.push(Number(badge.dataset.size));
      }
      if (!all.length) return;
      all.sort((a, b) => a - b);
      const threshold = all[Math.floor(all.length * 0.9)];
      for (const item of this.items.values()) {
        for (const badge of item.querySelectorAll(".delta")) {
          badge.classList.toggle("jump", Number(badge.dataset.size) >= threshold && threshold > 0);
        }
      }
    }

    render(entry, changes) {
      const seat = entry.seat;
      // The number is a button: Tab reaches each decision, Enter or Space shows it (a click on
      // the entry anywhere does too).
      const number = h("button", {type: "button", class: "number", "aria-label": `show decision #${entry.number}`,
        text: `#${entry.number}`});
      const head = [h("span", {class: "swatch"}), number,
        ` ${Arena.seatLabel(seat)} · `, h("span", {class: "decision-kind", text: entry.decision})];
      const children = [h("div", {class: "log-line"}, head)];
      if ("action" in entry) {
        const details = [h("span", {class: "action", text: entry.action})];
        if (entry.by_arena) details.push(" ", h("span", {class: "tag forfeit", text: "forfeited: the arena decided"}));
        else if (entry.seconds !== null && entry.seconds !== undefined) {
          details.push(" ", h("span", {class: "time", title: "the bot's time to answer", text: duration(entry.seconds)}));
        }
        children.push(h("div", {class: "log-action"}, details));
        if (entry.comment) children.push(h("div", {class: "log-comment", text: entry.comment}));
      }
      if (entry.events.length) children.push(this.eventList(entry.events));
      if (changes.length) {
        children.push(h("div", {class: "deltas"}, changes.map(([who, delta]) =>
          h("span", {class: `delta seat-${who}`, "data-size": String(Math.abs(delta)),
                     title: `${Arena.seatLabel(who)}: score ${signed(delta)}`},
            [h("span", {class: "swatch"}), ` ${signed(delta)}`]))));
      }
      return h("li", {class: `entry seat-${seat}${entry.by_arena ? " forfeit" : ""}`,
                      "data-number": String(entry.number), "data-seat": String(seat)}, children);
    }

    eventList(events) {
      return h("ul", {class: "events"}, events.map((event) =>
        h("li", {class: event.seat === null || event.seat === undefined ? "" : `seat-${event.seat}`},
          [event.seat === null || event.seat === undefined ? null : h("span", {class: "swatch"}),
           event.seat === null || event.seat === undefined ? event.text : ` ${event.text}`])));
    }

    // An ending line (the result, the forfeits) after the last entry.
    finish(lines) {
      if (!lines.length) return;
      this.list.append(h("li", {class: "ending"}, lines.map((line) =>
        h("div", {class: line.forfeit ? "error" : "", text: line.text}))));
    }

    applyFilter() {
      for (const [, item] of this.items) {
        item.hidden = this.filter !== "all" && item.dataset.seat !== this.filter;
      }
    }

    // Highlights decision ``number`` and scrolls the list (alone) to it. Past the last entry (the
    // final position: its number is the count of decisions) it scrolls to the end, the result.
    mark(number) {
      for (const item of this.list.querySelectorAll("li.current")) item.classList.remove("current");
      const item = this.items.get(number);
      if (!item) {
        const last = this.entries.at(-1);
        if (last && number > last.number) this.list.scrollTop = this.list.scrollHeight;
        return;
      }
      item.classList.add("current");
      const box = this.list.getBoundingClientRect(), line = item.getBoundingClientRect();
      if (line.top < box.top) this.list.scrollTop += line.top - box.top;
      else if (line.bottom > box.bottom) this.list.scrollTop += line.bottom - box.bottom;
    }

    // The next (step 1) or previous (step -1) decision of ``seat`` from ``from``, or null.
    decisionOf(seat, from, step) {
      const numbers = this.entries.filter((entry) => entry.seat === seat).map((entry) => entry.number);
      const found = step > 0 ? numbers.find((n) => n > from) : numbers.reverse().find((n) => n < from);
      return found === undefined ? null : found;
    }

    onKey(event) {
      const target = event.target;
      if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement && target.type !== "range") return;
      const match = /^Digit(\d)$/.exec(event.code || "");
      if (!match || event.ctrlKey || event.altKey || event.metaKey) return;
      const seat = Number(match[1]);
      if (seat >= this.players) return;
      event.preventDefault();
      const found = this.decisionOf(seat, this.current(), event.shiftKey ? -1 : 1);
      if (found !== null) this.jump(found);
    }
  }
  Arena.DecisionLog = DecisionLog;

  // --- the replay viewer's log (arena/web/static/replay.js sends "replay:outline" once a
  // seat's outline is loaded and "replay:shown" at every step) -----------------------------
  const root = document.getElementById("replay");
  const panel = document.getElementById("log");
  if (!root || !panel) return;
  const page = JSON.parse(document.getElementById("page-data").textContent);
  let log = null;
  let loaded = 0;

  function endingLines(result) {
    const lines = [];
    if (result) {
      const order = [...result.ranks.keys()].sort((a, b) => result.ranks[a] - result.ranks[b]);
      lines.push({text: "Result: " + order.map((seat) => `${Arena.seatLabel(seat)} ${result.scores[seat]}`).join(" · ")});
    }
    for (const seat of page.seats) {
      if (seat.outcome !== "FINISHED") lines.push({forfeit: true, text: `${Arena.seatLabel(seat.seat)} forfeited: ${seat.outcome}${seat.reason ? `: ${seat.reason}` : ""}`});
    }
    return lines;
  }

  root.addEventListener("replay:outline", async (event) => {
    const {seat, getJSON, jump, current, outline} = event.detail;
    const request = ++loaded;
    log = log || new DecisionLog(panel, {players: page.num_players, jump, current,
      title: "Decision log"});
    log.panel.dataset.seat = seat;
    log.reset([], [], null);
    log.list.append(h("li", {class: "muted small", text: "Loading the log…"}));
    try {
      const data = await getJSON(`/api/games/${page.id}/log?seat=${encodeURIComponent(seat)}`);
      if (request !== loaded) return;  // another seat was chosen meanwhile
      log.reset(data.setup, data.entries, data.first_scores);
      log.finish(endingLines(outline.result));
      log.mark(current());
      panel.dataset.loaded = seat;
    } catch (error) {
      if (request === loaded) log.list.replaceChildren(h("li", {class: "error", text: `No log: ${error.message}`}));
    }
  });
  root.addEventListener("replay:shown", (event) => { if (log) log.mark(event.detail.number); });
})(window.Arena);
