// What every Chart.js chart of the pages shares (load it after Chart.js, before the page's chart):
// dark.css's colours for its text and grid in dark mode (a canvas is out of the stylesheet's
// reach), and room for its legend.
"use strict";
(function () {
  if (typeof Chart === "undefined") return;
  if (window.matchMedia("(prefers-color-scheme: dark)").matches) {
    Chart.defaults.color = "#c5cbd6";
    Chart.defaults.borderColor = "rgba(255, 255, 255, 0.12)";
  }
  const PLOT = 240; // px of plot, axes included, kept below the legend
  const ROW = 22; // a legend row: 12 px of text and Chart.js's 10 px of padding
  const SAMPLE = 50; // a legend item's line sample, gaps and padding beside its text

  // Chart.js cuts a legend taller than its share of the box: a phone showed 6 of a ladder's 8
  // lines over a plot 60 px high. So the box (the canvas's parent, a .chart-box) grows by the
  // rows its legend needs at the box's width, when the stylesheet's height leaves too little.
  window.roomForLegend = function (canvas, labels) {
    const box = canvas.parentElement;
    box.style.height = "";
    const width = box.clientWidth - 16;
    const measure = document.createElement("canvas").getContext("2d");
    measure.font = `${Chart.defaults.font.size}px ${Chart.defaults.font.family}`;
    let rows = labels.length ? 1 : 0;
    let used = 0;
    for (const label of labels) {
      const item = measure.measureText(label).width + SAMPLE;
      if (used && used + item > width) { rows += 1; used = 0; }
      used += item;
    }
    const needed = PLOT + rows * ROW + 16;
    if (needed > box.clientHeight) box.style.height = `${needed}px`;
  };
})();
