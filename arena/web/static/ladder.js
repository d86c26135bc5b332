// The ladder page: each entrant's Elo over the ladder's games (Chart.js), from the page's data
// (#page-data: the /api/ladder answer, the chart's history in it once), and, while the ladder
// runs, a poll of /api/ladder/now (a few numbers) every 3 seconds; when a game was recorded or
// the games in play changed, the freshly rendered content (our own server-rendered, escaped
// HTML) and its data are swapped in, at most every 15 seconds, and the chart redrawn.
"use strict";
(function () {
  const POLL_MS = 3000;
  const REFRESH_MS = 15000;
  let refreshed = Date.now();
  const colours = ["#2456a6", "#d1495b", "#2f855a", "#e0a21b", "#8e6c8a", "#2e86ab", "#6b4f2a", "#c05621"];
  // Past 8 entrants (retired versions count) colours repeat: each round of them is dashed its
  // own way, and past that each round of dashes gets its own point marker, so no two lines look
  // alike (8 x 4 x 4 styles).
  const dashes = [[], [8, 4], [2, 3], [12, 3, 2, 3]];
  const markers = ["circle", "triangle", "rect", "crossRot"];

  function lineStyle(index) {
    const colour = colours[index % colours.length];
    const round = Math.floor(index / colours.length);
    const marker = Math.floor(round / dashes.length) % markers.length;
    return {borderColor: colour, backgroundColor: colour, borderDash: dashes[round % dashes.length],
            pointStyle: markers[marker], pointRadius: marker ? 3 : 1};
  }
  let chart = null;

  function draw() {
    const canvas = document.getElementById("ladder-chart");
    const source = document.getElementById("page-data");
    if (chart) { chart.destroy(); chart = null; }
    if (!canvas || !source || typeof Chart === "undefined") return;
    const {rating_history: history, labels, boards: shown = []} = JSON.parse(source.textContent).ladder;
    const boards = new Set(history.map((entry) => entry.players));
    // lines (and the legend) in the order of the leaderboard: board by board, best first
    const place = new Map(shown.flatMap((board, b) => board.rows.map(
      (row) => [`${row.version_id}/${board.players}`, b * 1e6 + row.position])));
    const rank = (entry) => place.get(`${entry.bot_version_id}/${entry.players}`) ?? Number.MAX_SAFE_INTEGER;
    const ordered = [...history].sort((p, q) => rank(p) - rank(q));
    const series = new Map();
    for (const entry of ordered) {
      const name = labels[entry.bot_version_id] || `version ${entry.bot_version_id}`;
      const key = boards.size > 1 ? `${name} · ${entry.players}p` : name;
      if (!series.has(key)) series.set(key, []);
      series.get(key).push({x: Date.parse(entry.finished_at), y: entry.elo, game: entry.game_id});
    }
    const times = history.map((entry) => Date.parse(entry.finished_at));
    const span = times.length ? times.reduce((a, b) => Math.max(a, b)) - times.reduce((a, b) => Math.min(a, b)) : 0;
    const datasets = [...series.entries()].map(([label, points], index) => ({
      label, data: points, ...lineStyle(index), borderWidth: 2, tension: 0.15}));
    if (window.roomForLegend) roomForLegend(canvas, [...series.keys()]);
    chart = new Chart(canvas, {type: "line", data: {datasets}, options: {
      animation: false, maintainAspectRatio: false,
      scales: {
        x: {type: "linear", title: {display: true, text: "time (UTC)"},
            ticks: {callback: (value) => tick(value, span)}},
        y: {title: {display: true, text: "Elo"}}},
      plugins: {legend: {labels: {usePointStyle: true, pointStyleWidth: 28, generateLabels: legendLines}}, tooltip: {callbacks: {
        title: (items) => items.length ? `${new Date(items[0].raw.x).toISOString().slice(0, 19).replace("T", " ")} UTC` : "",
        afterLabel: (item) => `game #${item.raw.game}`}}}}});
  }

  // The legend draws a stretch of each line, dashes and all (a filled box hides the dashes, and a
  // point style takes the point's style, which has none).
  function legendLines(chart) {
    return Chart.defaults.plugins.legend.labels.generateLabels(chart).map((item) => ({
      ...item, pointStyle: "line", lineDash: chart.data.datasets[item.datasetIndex].borderDash}));
  }

  // A time axis label as precise as the span needs: HH:MM repeated itself over a short ladder.
  function tick(value, span) {
    const iso = new Date(value).toISOString();
    if (span > 2 * 86400e3) return iso.slice(5, 16).replace("T", " ");
    return span > 2 * 3600e3 ? iso.slice(11, 16) : iso.slice(11, 19);
  }

  async function poll() {
    const live = document.getElementById("live");
    if (!live || live.dataset.state !== "running") return;
    try {
      const response = await fetch(`/api/ladder/now?id=${live.dataset.ladder}`, {headers: {Accept: "application/json"}});
      const now = await response.json();
      const changed = String(now.games) !== live.dataset.games || now.state !== live.dataset.state ||
          now.running.join(",") !== live.dataset.running;
      // a change of state (the ladder stopped) at once; new games at most every REFRESH_MS
      if (changed && (now.state !== live.dataset.state || Date.now() - refreshed >= REFRESH_MS)) {
        refreshed = Date.now();
        // the page as it was asked for (rows=, chart=), of this ladder
        const query = new URLSearchParams(location.search);
        query.set("id", live.dataset.ladder);
        const html = await (await fetch(`/ladder?${query}`)).text();
        const page = new DOMParser().parseFromString(html, "text/html");
        const [fresh, data] = [page.getElementById("live"), page.getElementById("page-data")];
        if (fresh && data) {
          document.getElementById("page-data").textContent = data.textContent;
          live.replaceWith(document.adoptNode(fresh));
          draw();
        }
      }
    } catch (error) {
      console.warn("ladder poll failed:", error.message);
    }
    setTimeout(poll, POLL_MS);
  }
  draw();
  setTimeout(poll, POLL_MS);
})();
