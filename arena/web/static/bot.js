// The bot page's Elo history chart (Chart.js), from the page's embedded data.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("page-data").textContent);
  const canvas = document.getElementById("rating-chart");
  if (!canvas || typeof Chart === "undefined") return;
  const colours = ["#2456a6", "#d1495b", "#2f855a", "#e0a21b", "#8e6c8a", "#2e86ab"];
  const series = new Map();
  for (const entry of data.rating_history) {
    const version = data.versions.find((v) => v.id === entry.bot_version_id);
    // One series per board (game type and player count: each has its own Elo) and version.
    const key = `${entry.game} ${entry.num_players}p · ${version ? version.version + " " + version.hash.slice(0, 6) : entry.bot_version_id}`;
    if (!series.has(key)) series.set(key, [{x: 0, y: entry.before}]);
    const points = series.get(key);
    points.push({x: points.length, y: entry.after, game: entry.game_id});
  }
  const datasets = [...series.entries()].map(([label, points], index) => ({
    label, data: points, borderColor: colours[index % colours.length],
    backgroundColor: colours[index % colours.length], pointRadius: 1.5, borderWidth: 2, tension: 0.15}));
  if (window.roomForLegend) roomForLegend(canvas, [...series.keys()]);
  new Chart(canvas, {type: "line", data: {datasets}, options: {
    animation: false, maintainAspectRatio: false, parsing: true,
    scales: {x: {type: "linear", ticks: {precision: 0}, title: {display: true, text: "rated games"}}, y: {title: {display: true, text: "Elo"}}},
    plugins: {legend: {labels: {boxWidth: 10}}, tooltip: {callbacks: {
      afterLabel: (item) => item.raw.game ? `game #${item.raw.game}` : ""}}}}});
})();
