// An arena bot in Node.js. Edit choose(); `arena validate .` checks the bot.
//
// The SDK (arena-bot-sdk) serves the gRPC service, answers the handshake from bot.toml, refuses
// a wrong token, keeps each game apart by its game_id and stops on SIGTERM.
"use strict";

const sdk = require("arena-bot-sdk");

const random = sdk.seededRandom(); // seeded from ARENA_BOT_SEED: same seed, same game

// The index of the action to play in request.legal_actions. request is an
// arena.bot.v1.DecisionRequest: decision_kind names the decision, view holds this seat's view
// (view.oregon, view.ogallala or view.merkator), seat and game_id say where; sdk.gameOf(request)
// names the game and sdk.historyOf(request) is every event this seat has received in it so far
// (docs/rules/ in the arena's repository explains kinds and events).
function choose(request) {
  // The reply must arrive within the move limit plus what is left of the bank: keep a margin.
  const deadline = Date.now() + 800 * request.clock.move_seconds; // eslint-disable-line no-unused-vars
  const history = sdk.historyOf(request); // eslint-disable-line no-unused-vars
  return Math.floor(random() * request.legal_actions.length);
}

if (require.main === module) sdk.run(choose); // serve when run; its unit test only loads it
module.exports = { choose };
