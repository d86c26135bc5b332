// A stored game whose replay is held back (its deal's other seat rotations, dealt the same cards,
// are still to be played): the page asks /api/games/ID every few seconds whether it still is,
// says when it asked and when it asks next, and loads itself again once the replay can be shown
// (the address kept: the decision and seat asked for). No <meta http-equiv="refresh">: a page
// that reloads itself every few seconds takes a keyboard's focus and a screen reader back to the
// top and reads it all out again, and moves what a reader was reading. A lost connection is
// retried with a backoff (Arena.getJSON, its #connection-note); an error answer stops the checks.
"use strict";
(function (Arena) {
  const box = document.getElementById("held-back");
  if (!box) return;
  const note = document.getElementById("held-check");
  const gameId = box.dataset.gameId;
  // For tests and the curious: how often it looks, and how many answers it received.
  const state = Arena.held = {everyMs: 5000, checks: 0};

  const clock = () => new Date().toISOString().slice(11, 19);
  const seconds = () => Math.round(state.everyMs / 1000);

  async function check() {
    let game;
    try {
      game = await Arena.getJSON(`/api/games/${gameId}`);
    } catch (error) {
      note.textContent = `Could not look again (${error.message}): reload the page to try again.`;
      return;
    }
    state.checks += 1;
    if (!game.held) {
      note.textContent = "The replay can be shown now: opening it…";
      location.reload();
      return;
    }
    const {played, rotations} = game.held;
    note.textContent = `Still held at ${clock()} UTC (${played} of ${rotations} rotations played so far): ` +
      `looking again in ${seconds()} s.`;
    setTimeout(check, state.everyMs);
  }

  note.textContent = `This page looks again every ${seconds()} s and opens the replay by itself once it can be shown.`;
  setTimeout(check, state.everyMs);
})(window.Arena);
