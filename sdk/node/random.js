// A seeded generator (sfc32): the same ARENA_BOT_SEED gives the same numbers, so games reproduce.
"use strict";

// Returns a function that gives floats in [0, 1), like Math.random.
function seededRandom(seedText = process.env.ARENA_BOT_SEED) {
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

module.exports = { seededRandom };
