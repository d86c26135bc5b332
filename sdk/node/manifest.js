// Reads what the handshake needs (name, version, games) from bot.toml, without a TOML library:
// only the manifest's top-level string and string-array values, before its first [table].
"use strict";

const fs = require("fs");

// A TOML string: "basic" (escapes as in JSON) or 'literal' (no escapes).
const STRING = String.raw`"(?:[^"\\]|\\.)*"|'[^']*'`;
const KEY_VALUE = new RegExp(String.raw`^\s*([A-Za-z0-9_-]+)\s*=\s*(${STRING}|\[[^\]]*\])`, "gm");

function parseString(text) {
  return text.startsWith("'") ? text.slice(1, -1) : JSON.parse(text);
}

function parseValue(text) {
  if (!text.startsWith("[")) return parseString(text);
  const items = text.replace(/#.*$/gm, "").match(new RegExp(STRING, "g")) || [];
  return items.map(parseString);
}

function readManifest(path = "bot.toml") {
  const text = fs.readFileSync(path, "utf8");
  const topLevel = text.split(/^\s*\[/m)[0];
  const values = {};
  for (const [, key, value] of topLevel.matchAll(KEY_VALUE)) values[key] = parseValue(value);
  for (const key of ["name", "version", "games"]) {
    if (values[key] === undefined) throw new Error(`${path}: no top-level '${key}'`);
  }
  return { name: values.name, version: values.version, games: values.games };
}

module.exports = { readManifest };
