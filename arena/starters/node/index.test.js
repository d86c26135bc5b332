// The unit test of choose: every decision kind of every game, on the requests the arena sends
// there, recorded in fixtures/ (`arena fixtures --out fixtures` writes them again, e.g. after
// the arena's rules change). Run it with `node --test`.
"use strict";

const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const test = require("node:test");
const sdk = require("arena-bot-sdk");
const { choose } = require("./index");

const FIXTURES = path.join(__dirname, "fixtures");

test("choose answers every decision kind with a legal index", () => {
  assert.ok(fs.existsSync(FIXTURES), `no fixtures in ${FIXTURES}: run \`arena fixtures --out fixtures\``);
  const kinds = fs.readdirSync(FIXTURES).flatMap((game) =>
    fs.readdirSync(path.join(FIXTURES, game)).map((kind) => path.join(FIXTURES, game, kind)),
  );
  assert.ok(kinds.length > 0, `no fixtures in ${FIXTURES}`);
  const failures = []; // every fixture is tried; each failure names its GAME/KIND
  for (const folder of kinds) {
    const request = sdk.loadFixture(folder);
    const where = path.relative(FIXTURES, folder);
    let index;
    try {
      index = choose(request);
    } catch (error) {
      failures.push(`${where}: choose threw ${error && error.stack ? error.stack : error}`);
      continue;
    }
    if (!(Number.isInteger(index) && index >= 0 && index < request.legal_actions.length)) {
      failures.push(`${where}: index ${index} of ${request.legal_actions.length} actions`);
    }
  }
  assert.deepStrictEqual(failures, [], failures.join("\n"));
});
