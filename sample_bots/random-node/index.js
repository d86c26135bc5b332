// Random bot in Node.js: answers every decision with a uniformly random legal action, from a
// generator seeded with ARENA_BOT_SEED so games reproduce. The Node SDK (sdk/node) does the rest.
"use strict";

const sdk = require("arena-bot-sdk");

const random = sdk.seededRandom();

function choose(request) {
  return Math.floor(random() * request.legal_actions.length);
}

sdk.run(choose);
