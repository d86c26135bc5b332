// The tables' boxes (macros.html's table_box): a box is a stop of the Tab key only while its
// table is wider than it (a phone: the arrow keys scroll it then), so that on a wide screen the
// Tab key does not stop at every table for nothing. The page comes with every box a stop (without
// this script, none is out of the keyboard's reach); this looks again when the window's size
// changes and when a page swaps in fresh content (a running tournament's or ladder's page).
"use strict";
(function () {
  function update() {
    for (const box of document.querySelectorAll(".table-box")) {
      const wide = box.scrollWidth > box.clientWidth + 1;
      if (wide) box.tabIndex = 0;
      else if (box.hasAttribute("tabindex") && box !== document.activeElement) box.removeAttribute("tabindex");
    }
  }
  let due = false;
  function soon() {
    if (due) return;
    due = true;
    requestAnimationFrame(() => { due = false; update(); });
  }
  update();
  window.addEventListener("resize", soon);
  new MutationObserver(soon).observe(document.body, {childList: true, subtree: true});
})();
