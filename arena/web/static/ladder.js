// The ladder page: each entrant's Elo over the ladder's games (Chart.js), and, while the ladder
// runs, a poll of its JSON twin every 3 seconds that swaps in the freshly rendered content when
// a game was recorded (our own server-rendered, escaped HTML) and redraws the chart.
"use strict";
(function () {
  const POLL_MS = 3000;
  const colours = ["#2456a6", "#d1495b", "#2f855a", "#e0a21b", "#8e6c8a", "#2e86ab", "#6b4f2a", "#c05621"];
  let chart = null;

  function draw() {
    const canvas = document.getElementById("ladder-chart");
    const source = document.getElementById("ladder-history");
    if (chart) { chart.destroy(); chart = null; }
    if (!canvas || !source || typeof Chart === "undefined") return;
    const {history, labels} = JSON.parse(source.textContent);
    const boards = new Set(history.map((entry) => entry.players));
    const series = new Map();
    for (const entry of history) {
      const name = labels[entry.bot_version_id] || `version ${entry.bot_version_id}`;
      const key = boards.size > 1 ? `${name} · ${entry.players}p` : name;
      if (!series.has(key)) series.set(key, []);
      series.get(key).push({x: Date.parse(entry.finished_at), y: entry.elo, game: entry.game_id});
    }
    const datasets = [...series.entries()].map(([label, points], index) => ({
      label, data: points, borderColor: colours[index % colours.length],
      backgroundColor: colours[index % colours.length], pointRadius: 1, borderWidth: 2, tension: 0.15}));
    chart = new Chart(canvas, {type: "line", data: {datasets}, options: {
      animation: false, maintainAspectRatio: false,
      scales: {
        x: {type: "linear", title: {display: true, text: "time (UTC)"},
            ticks: {callback: (value) => new Date(value).toISOString().slice(11, 16)}},
        y: {title: {display: true, text: "Elo"}}},
      plugins: {legend: {labels: {boxWidth: 10}}, tooltip: {callbacks: {
        title: (items) => items.length ? new Date(items[0].raw.x).toISOString().slice(0, 19).replace("T", " ") : "",
        afterLabel: (item) => `game #${item.raw.game}`}}}}});
  }

  async function poll() {
    const live = document.getElementById("live");
    if (!live || live.dataset.state !== "running") return;
    try {
      const response = await fetch(`/api/ladder?id=${live.dataset.ladder}`, {headers: {Accept: "application/json"}});
      const data = await response.json();
      if (String(data.ladder.games) !== live.dataset.games || data.ladder.state !== live.dataset.state ||
          data.ladder.running.map((game) => game.id).join(",") !== live.dataset.running) {
        const html = await (await fetch(`/ladder?id=${live.dataset.ladder}`)).text();
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (fresh) { live.replaceWith(document.adoptNode(fresh)); draw(); }
      }
    } catch (error) {
      console.warn("ladder poll failed:", error.message);
    }
    setTimeout(poll, POLL_MS);
  }
  draw();
  setTimeout(poll, POLL_MS);
})();
