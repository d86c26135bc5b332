// Each seat's time per decision (a dot per decision, in the seat's colour), from the replay's
// outline: watched as a seat, its own decisions' times only (the others' are not in its view).
// Redrawn when replay.js loads another outline (a seat switch).
"use strict";
(function (Arena) {
  const root = document.getElementById("replay");
  const panel = document.getElementById("time-panel");
  const canvas = document.getElementById("time-chart");
  if (!root || !canvas || typeof Chart === "undefined") return;
  const LEGEND_CHARACTERS = 28;
  let drawn = null, chart = null;

  const colour = (seat) =>
    getComputedStyle(document.documentElement).getPropertyValue(`--seat${seat}`).trim();
  const label = (seat) => {
    const text = Arena.seatLabel(seat);
    return text.length > LEGEND_CHARACTERS ? `${text.slice(0, LEGEND_CHARACTERS - 1)}…` : text;
  };

  function draw() {
    const outline = Arena.replay && Arena.replay.state.outline;
    if (!outline || outline === drawn) return;
    drawn = outline;
    if (chart) chart.destroy();
    const timed = outline.outline.some((frame) => frame.seconds !== null && frame.seconds !== undefined);
    panel.hidden = !timed;
    if (!timed) return;
    const datasets = [];
    for (let seat = 0; seat < outline.num_players; seat++) {
      const points = [];
      outline.outline.forEach((frame, number) => {
        if (frame.seat === seat && frame.seconds !== null && frame.seconds !== undefined) {
          points.push({x: number, y: Math.max(frame.seconds * 1000, 0.01)});
        }
      });
      datasets.push({label: label(seat), data: points, backgroundColor: colour(seat),
        borderColor: colour(seat), pointRadius: 2});
    }
    chart = new Chart(canvas, {type: "scatter", data: {datasets},
      options: {animation: false, maintainAspectRatio: false, responsive: true,
        scales: {x: {type: "linear", min: 0, max: outline.outline.length - 1,
                     title: {display: true, text: "decision"}},
                 y: {type: "logarithmic", title: {display: true, text: "ms"}}},
        plugins: {legend: {labels: {boxWidth: 10}}}}});
  }

  new MutationObserver(draw).observe(root, {attributes: true, attributeFilter: ["data-shown"]});
})(window.Arena);
