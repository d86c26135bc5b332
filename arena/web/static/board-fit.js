// A board wider than its box (a phone): drawn at its own size it pans sideways, which the hint
// above it says; its button fits it to the screen's width instead (labels get smaller), and
// back. The choice holds while stepping: every frame redraws the board, this re-checks it.
"use strict";
(function () {
  const board = document.getElementById("board");
  const hint = document.getElementById("board-fit");
  if (!board || !hint) return;
  const [words, button] = [hint.querySelector("span"), hint.querySelector("button")];

  function update() {
    const fitted = board.classList.contains("fit");
    const wide = board.scrollWidth > board.clientWidth + 1;
    hint.hidden = !fitted && !wide;
    // a box that scrolls is a stop of the Tab key: the arrow keys scroll it
    if (wide && !fitted) board.tabIndex = 0;
    else board.removeAttribute("tabindex");
    words.textContent = fitted
      ? "The board is fitted to the screen."
      : "The board is wider than the screen: swipe it sideways, or";
    button.textContent = fitted ? "actual size" : "fit to the screen";
  }

  button.addEventListener("click", () => { board.classList.toggle("fit"); update(); });
  new MutationObserver(update).observe(board, {childList: true});
  window.addEventListener("resize", update);
})();
