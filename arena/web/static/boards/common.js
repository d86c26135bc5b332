// What every board drawing shares: explanations of ids and pieces on hover (a tooltip) and on
// tap (a phone has no hover), and the small drawn pieces the boards have in common.
"use strict";
(function (Arena) {
  // Marks element as explained by text: the mouse reads it as a tooltip (an SVG <title> or the
  // HTML title attribute), a tap or click shows it in a box beside the element.
  // With an id ("C24"), the words also explain the id wherever the page names it (below).
  Arena.explain = function (element, text, id) {
    if (id) Arena.idWords[id] = text;
    element.dataset.explain = text;
    if (element instanceof SVGElement) element.prepend(Arena.s("title", {text}));
    else element.title = text;
    return element;
  };

  // A labelled count: "<label> <n>" drawn as one token, e.g. a pile or a stack.
  Arena.token = function (piece, label, value, explanation, extraClass) {
    const {h} = Arena;
    const token = h("span", {class: `token${extraClass ? ` ${extraClass}` : ""}`, "data-piece": piece},
      [label ? h("span", {class: "token-label", text: label}) : null, label ? " " : null, h("span", {class: "token-value", text: value})]);
    return Arena.explain(token, explanation);
  };

  // Ids the boards have drawn, with their words. The text beside the board (the decision's
  // options, "sell contract C24") explains them too; a card's data never changes, so they add up.
  Arena.idWords = {};
  const ID = /\b[A-Z]\d\d\b/g;
  function explainIds(root) {
    const holders = new Set();
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const parent = walker.currentNode.parentElement;
      if (!parent || parent.closest("#board, #players, [data-explain], title")) continue;
      if ((walker.currentNode.textContent.match(ID) || []).some((id) => id in Arena.idWords)) holders.add(parent);
    }
    for (const holder of holders) {
      const ids = [...new Set(holder.textContent.match(ID))].filter((id) => id in Arena.idWords);
      Arena.explain(holder, ids.map((id) => Arena.idWords[id]).join("\n"));
    }
  }
  const replay = document.getElementById("replay");
  if (replay) new MutationObserver(() => explainIds(replay)).observe(replay, {childList: true, subtree: true});

  let tip = null;
  function hide() {
    if (tip) tip.hidden = true;
  }
  function show(target) {
    if (!tip) {
      tip = Arena.h("div", {class: "explain-tip", role: "status"});
      document.body.append(tip);
    }
    tip.textContent = target.dataset.explain;
    tip.hidden = false;
    // Below the element, kept inside the window (a phone is narrow).
    const box = target.getBoundingClientRect();
    const width = Math.min(tip.offsetWidth, document.documentElement.clientWidth - 8);
    const left = Math.max(4, Math.min(box.left, document.documentElement.clientWidth - width - 4));
    tip.style.left = `${left + window.scrollX}px`;
    tip.style.top = `${box.bottom + window.scrollY + 4}px`;
  }

  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-explain]") : null;
    if (target && target.closest("#replay")) show(target);
    else hide();
  });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  // A new frame replaces the pieces: an open explanation would describe one that is gone.
  Arena.hideExplanation = hide;
})(window.Arena);
