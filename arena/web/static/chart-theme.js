// Chart.js draws on a canvas, out of the stylesheet's reach: in dark mode its text and grid
// take dark.css's colours (charts drawn after this script runs).
"use strict";
(function () {
  if (typeof Chart === "undefined" || !window.matchMedia("(prefers-color-scheme: dark)").matches) return;
  Chart.defaults.color = "#c5cbd6";
  Chart.defaults.borderColor = "rgba(255, 255, 255, 0.12)";
})();
