// The Node.js bot SDK: a bot is a function that picks the index of one legal action.
//
//   const sdk = require("arena-bot-sdk");
//   const random = sdk.seededRandom();            // seeded from ARENA_BOT_SEED: games reproduce
//   sdk.run((request) => Math.floor(random() * request.legal_actions.length));
//
// run() serves the arena.bot.v1.Bot gRPC service on ARENA_BOT_ADDRESS, answers the handshake
// with the name, version and games of the bot.toml in the working directory, refuses calls
// without ARENA_BOT_TOKEN (when one is set) with UNAUTHENTICATED and echoes the decision number.
// Requests reach choose() as @grpc/proto-loader decodes them from the bundled .proto files
// (field names as in the .proto; int64 as strings; enums as names; oneofs name their member),
// untouched, so fields added to the protocol appear without changing this code. historyOf(request)
// is every event its seat has received in that game so far (request.events holds only those since
// the seat's previous decision).
"use strict";

const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");
const { readManifest } = require("./manifest");
const { seededRandom } = require("./random");

const TOKEN_METADATA_KEY = "x-arena-token";
const TOKEN_REFUSED = grpc.status.UNAUTHENTICATED;
const PROTOCOL_VERSION = "PROTOCOL_VERSION_1";

// The .proto files travel with the package (scripts/gen-proto copies them from proto/).
const definition = protoLoader.loadSync("arena/bot/v1/bot.proto", {
  includeDirs: [path.join(__dirname, "proto")],
  keepCase: true,
  longs: String, // int64 fields (decision_number) as strings, echoed back unchanged
  enums: String,
  defaults: true,
  oneofs: true,
});
const botService = grpc.loadPackageDefinition(definition).arena.bot.v1.Bot.service;

const games = new Map(); // game_id -> game name, from StartGame until EndGame
// game_id -> the events received so far; dropped after EndGame (address bots play on for days)
const histories = new Map();

// The name of the game a decision belongs to ("oregon", ...), as its StartGame said.
function gameOf(request) {
  return games.get(request.game_id);
}

// Every event the request's seat has received in its game, oldest first, the request's own
// included (in an onEnd hook: the whole game).
function historyOf(request) {
  return histories.get(request.game_id) || [];
}

// Begin a game on its StartGame.
function start(request) {
  games.set(request.game_id, request.game);
  histories.set(request.game_id, []);
}

// Append a Decide's or EndGame's events to its game's history.
function record(request) {
  if (!histories.has(request.game_id)) histories.set(request.game_id, []);
  histories.get(request.game_id).push(...(request.events || []));
}

// The DecisionRequest of a fixture that `arena fixtures` wrote (folder holds its
// start_game.binpb and decide.binpb), decoded as the server decodes a call and received as from
// the arena: its StartGame first, so gameOf and historyOf answer for it. For unit tests of
// choose (docs/bots.md, "Unit-testing your bot offline").
function loadFixture(folder) {
  const read = (name) => fs.readFileSync(path.join(folder, name));
  start(botService.StartGame.requestDeserialize(read("start_game.binpb")));
  const request = botService.Decide.requestDeserialize(read("decide.binpb"));
  record(request);
  return request;
}

// A reply function for a bot that only picks an index: it echoes the decision number. An answer
// of choose that is no whole number fails the call (the arena records a CRASH with the error):
// undefined (a return forgotten) was sent as index 0, the first legal action at every decision.
function replyingWith(choose) {
  return (request) => {
    const index = choose(request);
    if (!Number.isInteger(index)) {
      throw new TypeError(`choose returned ${String(index)}, not an index into request.legal_actions`);
    }
    return { decision_number: request.decision_number, action_index: index };
  };
}

// The service's handlers. A hook or choice that throws fails the call: the arena records a CRASH
// and the error, printed to stderr (the bot's log), appears in the reason.
function handlers(identity, token, reply, { onStart, onEnd } = {}) {
  const guarded = (body) => (call, callback) => {
    if (token && call.metadata.get(TOKEN_METADATA_KEY)[0] !== token) {
      callback({ code: TOKEN_REFUSED, details: "wrong or missing arena token" });
      return;
    }
    try {
      callback(null, body(call.request));
    } catch (error) {
      console.error(error);
      callback({ code: grpc.status.UNKNOWN, details: `${error}` });
    }
  };
  return {
    Handshake: guarded(() => identity),
    StartGame: guarded((request) => {
      start(request);
      if (onStart) onStart(request);
      return {};
    }),
    Decide: guarded((request) => {
      record(request);
      return reply(request);
    }),
    EndGame: guarded((request) => {
      try {
        record(request);
        if (onEnd) onEnd(request);
      } finally {
        games.delete(request.game_id); // a bot that stays up plays on for days
        histories.delete(request.game_id);
      }
      return {};
    }),
  };
}

// Start serving on `address`; calls back with the running server (for tests and embedding).
function serve(reply, { address, token = "", manifest = "bot.toml", onStart, onEnd } = {}, ready) {
  const { name, version, games: played } = readManifest(manifest);
  const identity = { name, version, protocol_version: PROTOCOL_VERSION, games: played };
  const server = new grpc.Server();
  server.addService(botService, handlers(identity, token, reply, { onStart, onEnd }));
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (error) => {
    if (ready) ready(error, server);
  });
  return server;
}

// Like run(), for bots that build the whole DecisionReply (e.g. to add a comment).
function runReplies(reply, options = {}) {
  const address = process.env.ARENA_BOT_ADDRESS;
  if (!address) {
    console.error('ARENA_BOT_ADDRESS is not set: the arena starts bots and sets it (README, "Write a bot")');
    process.exit(2);
  }
  const server = serve(reply, { ...options, address, token: process.env.ARENA_BOT_TOKEN || "" }, (error) => {
    if (error) {
      console.error(`cannot listen on ${address}: ${error.message}`);
      process.exit(1);
    }
  });
  for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.forceShutdown());
}

// Serve until the arena stops the process. choose(request) returns the chosen index;
// options.onStart / options.onEnd optionally see the StartGame and EndGame requests.
function run(choose, options = {}) {
  runReplies(replyingWith(choose), options);
}

module.exports = {
  PROTOCOL_VERSION,
  TOKEN_METADATA_KEY,
  TOKEN_REFUSED,
  gameOf,
  historyOf,
  loadFixture,
  replyingWith,
  run,
  runReplies,
  seededRandom,
  serve,
};
