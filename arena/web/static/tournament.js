// Live tournament page: while the tournament runs, poll its JSON twin every 2 seconds and, when
// a game was recorded (or the state changed), swap in the freshly rendered page content.
// The new content is parsed from our own server-rendered, escaped HTML.
"use strict";
(function () {
  const POLL_MS = 2000;
  const id = location.pathname.split("/").pop();

  async function poll() {
    const live = document.getElementById("live");
    if (!live || live.dataset.state !== "running") return;
    try {
      const response = await fetch(`/api/tournaments/${id}`, {headers: {Accept: "application/json"}});
      const data = await response.json();
      if (String(data.progress.finished) !== live.dataset.finished ||
          String(data.progress.voided) !== live.dataset.voided || data.state !== live.dataset.state ||
          data.running.map((game) => game.id).join(",") !== live.dataset.running) {
        const html = await (await fetch(location.href)).text();
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (fresh) live.replaceWith(document.adoptNode(fresh));
      }
    } catch (error) {
      console.warn("tournament poll failed:", error.message);
    }
    setTimeout(poll, POLL_MS);
  }
  setTimeout(poll, POLL_MS);
})();
