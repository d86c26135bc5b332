// Random bot in Node.js: answers every decision with a uniformly random legal action.
// It loads the arena's .proto files at run time (no generated code) and reads the three
// environment variables the arena sets: ARENA_BOT_ADDRESS, ARENA_BOT_TOKEN, ARENA_BOT_SEED.
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const NAME = "random-node";
const VERSION = "1.0.0";
const GAMES = ["oregon", "ogallala", "merkator"];

const definition = protoLoader.loadSync("arena/bot/v1/bot.proto", {
  includeDirs: [path.join(__dirname, "..", "..", "proto")],
  keepCase: true, // field names exactly as in the .proto files
  longs: String, // int64 fields (decision_number) as strings, echoed back unchanged
  enums: String,
  defaults: true,
  oneofs: true,
});
const botService = grpc.loadPackageDefinition(definition).arena.bot.v1.Bot.service;

// sfc32, seeded from ARENA_BOT_SEED: the same seed gives the same choices, so games reproduce.
function seededRandom(seedText) {
  let seed = BigInt(seedText || "0");
  const words = [];
  for (let i = 0; i < 4; i++) {
    words.push(Number(seed & 0xffffffffn) ^ (0x9e3779b9 * (i + 1)));
    seed >>= 32n;
  }
  let [a, b, c, d] = words.map((w) => w >>> 0);
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 16; i++) next(); // mix the seed in
  return next;
}

const random = seededRandom(process.env.ARENA_BOT_SEED);
const token = process.env.ARENA_BOT_TOKEN || "";

// Every call carries the arena's token in the metadata key "x-arena-token".
function authorized(call, callback) {
  if (token && call.metadata.get("x-arena-token")[0] !== token) {
    callback({ code: grpc.status.PERMISSION_DENIED, details: "wrong or missing arena token" });
    return false;
  }
  return true;
}

const handlers = {
  Handshake(call, callback) {
    if (!authorized(call, callback)) return;
    callback(null, { name: NAME, version: VERSION, protocol_version: "PROTOCOL_VERSION_1", games: GAMES });
  },
  StartGame(call, callback) {
    if (!authorized(call, callback)) return;
    callback(null, {});
  },
  Decide(call, callback) {
    if (!authorized(call, callback)) return;
    const request = call.request;
    const index = Math.floor(random() * request.legal_actions.length);
    callback(null, { decision_number: request.decision_number, action_index: index });
  },
  EndGame(call, callback) {
    if (!authorized(call, callback)) return;
    callback(null, {});
  },
};

const server = new grpc.Server();
server.addService(botService, handlers);
server.bindAsync(process.env.ARENA_BOT_ADDRESS, grpc.ServerCredentials.createInsecure(), (error) => {
  if (error) {
    console.error(`cannot listen on ${process.env.ARENA_BOT_ADDRESS}: ${error.message}`);
    process.exit(1);
  }
});
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => server.forceShutdown());
}
