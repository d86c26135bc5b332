// Small DOM helpers shared by the replay viewer and the board drawings, and the pages' requests
// (Arena.getJSON). Text is only ever set with textContent (never innerHTML), so a bot's name or
// comment can never become markup.
"use strict";
window.Arena = window.Arena || {};
(function (Arena) {
  const SVG_NS = "http://www.w3.org/2000/svg";

  function build(element, attrs, children) {
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") element.textContent = String(value);
      else element.setAttribute(name, String(value));
    }
    for (const child of children || []) {
      if (child === null || child === undefined) continue;
      element.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return element;
  }

  // h("div", {class: "x", text: "..."}, [children]): an HTML element.
  Arena.h = (tag, attrs, children) => build(document.createElement(tag), attrs, children);
  // s("rect", {x: 1, ...}, [children]): an SVG element.
  Arena.s = (tag, attrs, children) => build(document.createElementNS(SVG_NS, tag), attrs, children);
  Arena.svg = (width, height, children) =>
    Arena.s("svg", {viewBox: `0 0 ${width} ${height}`, width, height, role: "img"}, children);
  Arena.words = (name) => String(name || "").toLowerCase().replaceAll("_", " ");
  Arena.seatNames = [];
  // "1 point", "0 points", "1.5 points": a count with its noun.
  Arena.count = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;
  Arena.seatLabel = (seat) => `seat ${seat}` + (Arena.seatNames[seat] ? `: ${Arena.seatNames[seat]}` : "");
  Arena.boards = {};

  // A menu (<select>) picked with the mouse or a finger hands the keys back to the page, so the
  // arrows step the viewer again; one used with the keyboard keeps the focus, so its arrows go on
  // through its choices (a menu that let go of the focus at each arrow could not be used so).
  Arena.menuKeys = function (select) {
    let keyboard = false;
    select.addEventListener("keydown", () => { keyboard = true; });
    select.addEventListener("pointerdown", () => { keyboard = false; });
    select.addEventListener("change", () => { if (!keyboard) select.blur(); });
  };

  // --- the server's answers ------------------------------------------------------------------
  // A request that fails for want of a connection (a network error: the server restarting, the
  // network down) or with a 5xx or 408/429 (a proxy's timeout, a busy database) is tried again,
  // after 1, 2, 4 ... up to 30 seconds, while the page's #connection-note (role=status) says so;
  // it is no answer about the game. Only a definite answer is final: Arena.getJSON throws it as
  // an Arena.Refused with the server's words (404: no such game, 409: cannot be replayed, 403:
  // held back, 400: a bad address).
  class Refused extends Error {
    constructor(message, status) {
      super(message);
      this.name = "Refused";
      this.status = status;
    }
  }
  Arena.Refused = Refused;
  Arena.retry = {firstMs: 1000, mostMs: 30000};
  const retryable = (status) => status >= 500 || status === 408 || status === 429;
  const waiting = new Map();  // the requests waiting to be tried again: their problem and delay

  function tellConnection() {
    const note = document.getElementById("connection-note");
    if (!note) return;
    if (!waiting.size) { note.textContent = ""; return; }
    const [problem, ms] = [...waiting.values()].at(-1);
    note.textContent = `Connection to the server lost (${problem}): trying again in ${Math.round(ms / 1000)} s…`;
  }

  // The JSON answer of ``url``; ``seen(url, body)`` is called with every JSON body received.
  Arena.getJSON = async function (url, {seen} = {}) {
    const key = Symbol(url);
    let delay = Arena.retry.firstMs;
    try {
      for (;;) {
        let problem;
        try {
          const response = await fetch(url, {headers: {Accept: "application/json"}});
          let body;
          try {
            body = await response.json();
          } catch (error) {
            body = undefined;  // not JSON: a proxy's error page, or an answer cut short
          }
          if (body !== undefined && seen) seen(url, body);
          if (response.ok && body !== undefined) return body;
          const words = body && body.error ? body.error : `HTTP ${response.status}`;
          if (!response.ok && !retryable(response.status)) throw new Refused(words, response.status);
          problem = response.ok ? "an incomplete answer" : words;
        } catch (error) {
          if (error instanceof Refused) throw error;
          problem = error.message;  // no answer at all ("Failed to fetch")
        }
        waiting.set(key, [problem, delay]);
        tellConnection();
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, Arena.retry.mostMs);
      }
    } finally {
      if (waiting.delete(key)) tellConnection();
    }
  };
})(window.Arena);
