// The leaderboard's bot search: shows only the rows whose bot's name holds the text typed (any
// case); a board without such a row is hidden whole.
"use strict";
(function () {
  const input = document.getElementById("bot-search");
  const none = document.getElementById("bot-search-none");
  if (!input) return;

  function filter() {
    const wanted = input.value.trim().toLocaleLowerCase();
    let shown = 0;
    for (const board of document.querySelectorAll("section.board")) {
      let inBoard = 0;
      for (const row of board.querySelectorAll("table.leaderboard tbody tr")) {
        const name = row.querySelector("a.bot").textContent.toLocaleLowerCase();
        row.hidden = !name.includes(wanted);
        if (!row.hidden) inBoard += 1;
      }
      board.hidden = inBoard === 0;
      shown += inBoard;
    }
    none.hidden = shown > 0;
    none.textContent = `no bot matches “${input.value.trim()}”`;
  }

  input.addEventListener("input", filter);
  if (input.value) filter();  // the browser kept the text (back button)
})();
