// Small DOM helpers shared by the replay viewer and the board drawings. Text is only ever set
// with textContent (never innerHTML), so a bot's name or comment can never become markup.
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
})(window.Arena);
